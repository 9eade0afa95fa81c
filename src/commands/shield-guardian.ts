import { ApiError } from '../api/errors';
import { INT32_MAX } from '../api/input-checks';
import { checkApiGuardianPatch, SHIELD_PLAN_TYPE, type ApiGuardianPatch } from '../api/shield';
import { describePatch, DRAFT_FIELDS, ENUM_NAMES, patchBefore, pendingPatch, type DraftField } from '../state/shield-draft';
import { connectNonInteractive, type PlatformConnection } from '../runtime/connect';
import { checkCanConfirm, refuseReadOnly, runMutation } from './mutation';
import { parseIdArg } from './resources/parse-id';
import { type CommandContext, UsageError } from './types';

const BOOLEAN_WORDS: Record<string, boolean> = { true: true, on: true, yes: true, '1': true, false: false, off: false, no: false, '0': false };

const choicesOf = (field: DraftField) =>
  field === 'isEnabled'
    ? 'true/false (or on/off)'
    : Object.entries(ENUM_NAMES[field])
        .map(([v, n]) => `${n} (${v})`)
        .join(', ');

/** `NAME=VALUE` of --set: a field of the API Guardian, its value by name or number. */
export function parseSetting(arg: string): ApiGuardianPatch {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set needs NAME=VALUE, got "${arg}" (names: ${DRAFT_FIELDS.join(', ')})`);
  const name = arg.slice(0, eq).trim();
  const raw = arg.slice(eq + 1).trim();
  const field = DRAFT_FIELDS.find((f) => f.toLowerCase() === name.toLowerCase());
  if (!field) throw new UsageError(`--set ${name}: unknown setting; the settings are ${DRAFT_FIELDS.join(', ')}`);
  if (field === 'isEnabled') {
    const value = BOOLEAN_WORDS[raw.toLowerCase()];
    if (value === undefined) throw new UsageError(`--set isEnabled=${raw}: use ${choicesOf(field)}`);
    return { isEnabled: value };
  }
  const names = ENUM_NAMES[field];
  const byName = Object.entries(names).find(([, n]) => n.toLowerCase() === raw.toLowerCase());
  const value = byName ? Number(byName[0]) : /^\d+$/.test(raw) && Number(raw) in names ? Number(raw) : null;
  if (value === null) throw new UsageError(`--set ${field}=${raw}: use one of ${choicesOf(field)}`);
  return { [field]: value };
}

/** Every --set merged; the same setting twice is a mistake, not "the last one wins". */
export function parseSettings(args: readonly string[]): ApiGuardianPatch {
  const patch: ApiGuardianPatch = {};
  for (const arg of args) {
    const one = parseSetting(arg);
    const field = Object.keys(one)[0] as DraftField;
    if (patch[field] !== undefined) throw new UsageError(`--set ${field} is given twice`);
    Object.assign(patch, one);
  }
  if (Object.keys(patch).length === 0) throw new UsageError(`what to change? --set NAME=VALUE, NAME one of ${DRAFT_FIELDS.join(', ')}`);
  // the API client's own check, as the console uses it
  try {
    checkApiGuardianPatch(patch);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return patch;
}

/** Reads a zone's API Guardian; a zone whose plan has none is named with its plan. */
export async function readGuardian(session: PlatformConnection, zoneId: number) {
  try {
    return await session.api.shield.getApiGuardian(zoneId);
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) {
      const zone = await session.api.shield.getZone(zoneId).catch(() => null);
      const plan = zone ? (SHIELD_PLAN_TYPE[zone.planType ?? -1] ?? `plan ${zone.planType}`) : null;
      throw new UsageError(`shield zone ${zoneId}${plan ? ` is on the ${plan} plan, which` : ''} has no API Guardian (Advanced plan or higher): ${e.message}`);
    }
    if (e instanceof ApiError && e.status === 404) throw new UsageError(`no shield zone ${zoneId} (burrow get shield-zones lists them): ${e.message}`);
    throw e;
  }
}

export async function shieldGuardian(ctx: CommandContext, zoneArg: string): Promise<number> {
  const zoneId = parseIdArg('ZONE', zoneArg, INT32_MAX);
  const sets = ctx.values.set;
  const wanted = parseSettings(Array.isArray(sets) ? sets.map(String) : typeof sets === 'string' ? [sets] : []);
  refuseReadOnly(ctx, `changing the API Guardian of shield zone ${zoneId}`);
  checkCanConfirm(ctx);
  const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  try {
    const current = (await readGuardian(session, zoneId)).configuration;
    // as in the console: only the fields whose value differs from the server's are sent
    const patch = pendingPatch(current, wanted);
    return await runMutation(ctx, {
      title: `Update the API Guardian of shield zone ${zoneId} (PATCH)${Object.keys(patch).length ? `: ${describePatch(patch)}` : ''}`,
      before: patchBefore(current, patch),
      after: patch,
      patch: true,
      send: () => session.api.shield.updateApiGuardian(zoneId, patch),
      answer: (configuration) => configuration,
      done: (configuration) => `saved; the server's answer: ${describePatch(patch, configuration)}`,
      check: `burrow get api-guardian ${zoneId}`,
    });
  } finally {
    await session.close();
  }
}
