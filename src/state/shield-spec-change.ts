import path from 'node:path';
import type { ApiGuardian } from '../api/shield';
import type { SpecCheck } from '../shield-spec/limits';

/** True when the zone already has a spec (then an upload replaces it with PATCH). */
export function hasSpec(g: ApiGuardian): boolean {
  return g.configuration.title !== null && g.configuration.title !== undefined ? true : g.endpoints.length > 0;
}

const kib = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);

/** A checked spec file, ready to be sent. */
export interface CheckedSpecFile {
  path: string;
  bytes: number;
  text: string;
}

/** The upload of a checked spec as the confirm (console) and the diff (CLI) show it. */
export interface SpecChange {
  replace: boolean;
  method: 'POST' | 'PATCH';
  title: string;
  before: Record<string, string>;
  after: Record<string, string>;
}

/** The plan limits the check found exceeded, by label ("endpoints, nesting depth"). */
export function overLimits(check: SpecCheck): string {
  return check.checks
    .filter((c) => c.over)
    .map((c) => c.label)
    .join(', ');
}

export function specChange(zoneId: number, g: ApiGuardian, file: CheckedSpecFile, check: SpecCheck): SpecChange {
  const replace = hasSpec(g);
  const summary = `${path.basename(file.path)}, ${kib(file.bytes)}: ${check.title} ${check.version}, ${check.measurement.endpoints} endpoints`;
  return {
    replace,
    method: replace ? 'PATCH' : 'POST',
    title: `${replace ? 'Replace the OpenAPI spec of' : 'Upload an OpenAPI spec to'} shield zone ${zoneId} (${replace ? 'PATCH' : 'POST'} …/api-guardian/spec)${check.withinLimits ? '' : ' — OVER the local limit check'}`,
    before: replace ? { content: `<uploaded spec: ${g.configuration.title ?? '?'} ${g.configuration.version ?? ''}, ${g.endpoints.length} endpoints>` } : {},
    after: { content: `<${summary}>` },
  };
}
