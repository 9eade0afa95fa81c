import { type ApiGuardianConfiguration, type ApiGuardianPatch, UNMATCHED_PATH_ACTION, WAF_EXECUTION_MODE, WAF_PAYLOAD_LIMIT_ACTION } from '../api/shield';

/**
 * Local edits of an API Guardian configuration, before they are sent. Pure functions: the draft
 * holds only fields whose value differs from the server's, so a refresh that brings the same
 * value (someone else made the change) makes the edit disappear instead of sending it again.
 */

export type EnumField = 'executionMode' | 'bodyLimitAction' | 'unmatchedPathAction';
export type DraftField = 'isEnabled' | EnumField;
export const DRAFT_FIELDS: readonly DraftField[] = ['isEnabled', 'executionMode', 'bodyLimitAction', 'unmatchedPathAction'];

export const ENUM_NAMES: Record<EnumField, Readonly<Record<number, string>>> = {
  executionMode: WAF_EXECUTION_MODE,
  bodyLimitAction: WAF_PAYLOAD_LIMIT_ACTION,
  unmatchedPathAction: UNMATCHED_PATH_ACTION,
};

type Config = Pick<ApiGuardianConfiguration, DraftField>;

/** The value the screen shows for a field: the edit when there is one, else the server's. */
export function effectiveValue<F extends DraftField>(config: Config, draft: ApiGuardianPatch, field: F): Config[F] {
  const v = draft[field];
  return (v === undefined ? config[field] : v) as Config[F];
}

/** Only the fields whose edited value differs from the server's: exactly what PATCH sends. */
export function pendingPatch(config: Config, draft: ApiGuardianPatch): ApiGuardianPatch {
  const out: ApiGuardianPatch = {};
  for (const f of DRAFT_FIELDS) {
    const v = draft[f];
    if (v !== undefined && v !== config[f]) (out as Record<string, unknown>)[f] = v;
  }
  return out;
}

function withValue(config: Config, draft: ApiGuardianPatch, field: DraftField, value: boolean | number): ApiGuardianPatch {
  const next = { ...draft, [field]: value };
  return pendingPatch(config, next);
}

export function toggleEnabled(config: Config, draft: ApiGuardianPatch): ApiGuardianPatch {
  return withValue(config, draft, 'isEnabled', !effectiveValue(config, draft, 'isEnabled'));
}

/** The next value of an enum in its order (Log -> Block -> Log); an unknown value goes to the first. */
export function nextEnumValue(names: Readonly<Record<number, string>>, current: number): number {
  const values = Object.keys(names)
    .map(Number)
    .sort((a, b) => a - b);
  const i = values.indexOf(current);
  return values[(i + 1) % values.length]!;
}

export function cycleField(config: Config, draft: ApiGuardianPatch, field: EnumField): ApiGuardianPatch {
  return withValue(config, draft, field, nextEnumValue(ENUM_NAMES[field], effectiveValue(config, draft, field)));
}

/** The server's values of the fields a patch changes (the "before" of the confirm diff). */
export function patchBefore(config: Config, patch: ApiGuardianPatch): Record<string, boolean | number> {
  const out: Record<string, boolean | number> = {};
  for (const f of DRAFT_FIELDS) if (patch[f] !== undefined) out[f] = config[f];
  return out;
}

/** "on"/"off" for the switch, the enum's name otherwise ("Block", or "unknown (7)"). */
export function valueName(field: DraftField, value: boolean | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (field === 'isEnabled') return value ? 'on' : 'off';
  const name = ENUM_NAMES[field][value as number];
  return name ?? `unknown (${String(value)})`;
}

/** "executionMode Block, isEnabled on": the fields of a patch with their values by name. */
export function describePatch(patch: ApiGuardianPatch, values: Partial<Record<DraftField, boolean | number>> = patch): string {
  return DRAFT_FIELDS.filter((f) => patch[f] !== undefined)
    .map((f) => `${f} ${valueName(f, values[f])}`)
    .join(', ');
}
