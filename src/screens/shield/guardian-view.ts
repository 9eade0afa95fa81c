import type { ApiGuardian, ApiGuardianConfiguration, ApiGuardianEndpoint, ApiGuardianPatch } from '../../api/shield';
import type { Tone } from '../../components/theme';
import type { SpecCheck } from '../../shield-spec/limits';
import { terminalSafe } from '../../text/terminal-safe';
import { effectiveValue, valueName, type DraftField } from '../../state/shield-draft';

// the endpoints' cells and the spec check's cells are the renderers' (burrow get and check-spec print them too)
export { endpointColumns, rateLimitText, validatesText } from '../../renderers/api-guardian';
export { limitCheckCells } from '../../renderers/spec-check';

/** One editable setting as the panel shows it. */
export interface SettingRow {
  field: DraftField;
  label: string;
  /** The value shown: the local edit when there is one. */
  value: string;
  /** The server's value, when a local edit differs from it. */
  serverValue: string | null;
  tone: Tone | undefined;
  /** The action that changes it (its key is looked up in the keymap). */
  action: string;
}

const SETTINGS: { field: DraftField; label: string; action: string }[] = [
  { field: 'isEnabled', label: 'Enabled', action: 'shield.toggleEnabled' },
  { field: 'executionMode', label: 'Execution mode', action: 'shield.cycleMode' },
  { field: 'bodyLimitAction', label: 'Body over limit', action: 'shield.cycleBodyLimit' },
  { field: 'unmatchedPathAction', label: 'Unmatched path', action: 'shield.cycleUnmatched' },
];

function toneFor(field: DraftField, value: boolean | number): Tone | undefined {
  if (field === 'isEnabled') return value ? 'ok' : 'warn';
  if (field === 'executionMode') return value === 1 ? 'ok' : 'warn'; // Block enforces, Log only watches
  return undefined;
}

export function settingRows(config: ApiGuardianConfiguration, draft: ApiGuardianPatch): SettingRow[] {
  return SETTINGS.map(({ field, label, action }) => {
    const value = effectiveValue(config, draft, field);
    const edited = draft[field] !== undefined && draft[field] !== config[field];
    return {
      field,
      label,
      action,
      value: valueName(field, value),
      serverValue: edited ? valueName(field, config[field]) : null,
      tone: toneFor(field, value),
    };
  });
}

/** "Storefront API 1.4.2 · 12 endpoints", or that no spec is uploaded. */
export function specSummary(g: ApiGuardian): string {
  const c = g.configuration;
  const n = g.endpoints.length;
  if (!c.title && n === 0) return 'none uploaded (o checks a file, then c uploads it)';
  return terminalSafe(`${c.title ?? '(untitled)'} ${c.version ?? ''}`.trim()) + ` · ${n} endpoint${n === 1 ? '' : 's'}`;
}

/** The plan limits in one line. */
export function limitsText(
  c: Pick<ApiGuardianConfiguration, 'maxEndpoints' | 'maxFieldsPerType' | 'maxNestingDepth' | 'maxTotalSchemaNodes' | 'maxTotalRegexLength'>,
): string {
  return `endpoints ${c.maxEndpoints} · fields ${c.maxFieldsPerType} · depth ${c.maxNestingDepth} · nodes ${c.maxTotalSchemaNodes} · regex ${c.maxTotalRegexLength}`;
}

/** The line under the table: what can be done with the checked file. */
export function specVerdict(check: SpecCheck, replace: boolean): { text: string; tone: Tone } {
  const over = check.checks.filter((c) => c.over);
  const how = replace ? "replace the zone's spec (PATCH)" : 'upload it (POST)';
  if (over.length === 0) return { text: `within the plan limits: c to ${how}`, tone: 'ok' };
  return {
    text: `over ${over.length === 1 ? 'a limit' : `${over.length} limits`} (${over.map((c) => c.label).join(', ')}): the zone would refuse it; fix the file (F sends anyway)`,
    tone: 'error',
  };
}
