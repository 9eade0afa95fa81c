import { enumName } from '../../api/input-checks';
import type { RegionSettings } from '../../api/containers';
import type { LbOrigin, LbOriginGroup, LoadBalancer } from '../../api/load-balancers';
import { UNMATCHED_PATH_ACTION, WAF_EXECUTION_MODE, WAF_PAYLOAD_LIMIT_ACTION, type ApiGuardian } from '../../api/shield';
import { DRM_VERSION, type VideoLibrary } from '../../api/video-libraries';
import { yesNo, type FieldRow } from './format';

// Pure record -> row functions of the management resources (kept apart from the resource
// definitions, which import get.ts, so they can be used and tested on their own).

/** The configuration as FIELD/VALUE rows (enum names, not numbers), then one row per endpoint. */
export function apiGuardianRows(g: ApiGuardian): FieldRow[] {
  const c = g.configuration;
  const rows: FieldRow[] = [
    { field: 'shield zone', value: String(c.shieldZoneId) },
    { field: 'enabled', value: yesNo(c.isEnabled) },
    { field: 'execution mode', value: enumName(WAF_EXECUTION_MODE, c.executionMode) },
    { field: 'body limit action', value: enumName(WAF_PAYLOAD_LIMIT_ACTION, c.bodyLimitAction) },
    { field: 'unmatched path action', value: enumName(UNMATCHED_PATH_ACTION, c.unmatchedPathAction) },
    { field: 'spec title', value: c.title ?? '(no specification uploaded)' },
    { field: 'spec version', value: c.version ?? '' },
    { field: 'max endpoints', value: String(c.maxEndpoints) },
    { field: 'max fields per type', value: String(c.maxFieldsPerType) },
    { field: 'max nesting depth', value: String(c.maxNestingDepth) },
    { field: 'max total schema nodes', value: String(c.maxTotalSchemaNodes) },
    { field: 'max total regex length', value: String(c.maxTotalRegexLength) },
    { field: 'created', value: c.createdAt ?? '' },
    { field: 'updated', value: c.updatedAt ?? '' },
    { field: 'endpoints', value: String(g.endpoints.length) },
  ];
  for (const e of g.endpoints) {
    const flags = [e.isEnabled === false ? 'disabled' : null, e.validateAuthorization ? 'auth' : null, e.validateRequestBodySchema ? 'body' : null, e.rateLimitingEnabled ? 'rate-limited' : null].filter(Boolean);
    rows.push({ field: `  ${e.requestMethod ?? '?'} ${e.requestPath ?? '?'}`, value: flags.join(', ') });
  }
  return rows;
}

export function regionSettingsRows(s: RegionSettings): FieldRow[] {
  return [
    { field: 'allowed regions', value: s.allowedRegionIds.join(', ') },
    { field: 'required regions', value: s.requiredRegionIds.join(', ') },
    { field: 'max allowed regions', value: s.maxAllowedRegions === null ? 'no maximum' : String(s.maxAllowedRegions) },
    { field: 'provisioning', value: s.provisioningType ?? '' },
  ];
}

/** "Enterprise" / "Basic" when DRM is on, empty when off. */
export function drmLabel(l: VideoLibrary): string {
  return l.EnableDRM ? enumName(DRM_VERSION, l.DrmVersion ?? 0) : '';
}

/** "5/7": healthy origins out of all origins of a profile. */
export function healthySummary(lb: LoadBalancer): string {
  const origins = lb.OriginGroups.flatMap((g) => g.Origins);
  return `${origins.filter((o) => o.HealthStatus === 0).length}/${origins.length}`;
}

export interface OriginRow {
  group: LbOriginGroup;
  origin: LbOrigin | null;
}

/** One row per origin, groups ordered by priority (lower first) then name; a group without origins gets one row. */
export function originRows(lb: LoadBalancer): OriginRow[] {
  const groups = [...lb.OriginGroups].sort((a, b) => (a.Priority ?? 100) - (b.Priority ?? 100) || String(a.Name).localeCompare(String(b.Name)));
  return groups.flatMap((group): OriginRow[] => (group.Origins.length ? group.Origins.map((origin) => ({ group, origin })) : [{ group, origin: null }]));
}
