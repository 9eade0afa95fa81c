import type { RegionSettings } from '../api/containers';
import { ApiError } from '../api/errors';
import { baseForDiff, draftBody, draftFrom, hasMessages, validateDraft, type FieldMessages } from '../state/containers-region-draft';
import { connectNonInteractive } from '../runtime/connect';
import { checkCanConfirm, MUTATION_OPTIONS, MUTATION_USAGE, refuseReadOnly, runMutation } from './mutation';
import { type Command, type CommandContext, UsageError } from './types';

const USAGE = `burrow containers regions APP [--allowed R,...] [--required R,...] [--max-allowed N]
                                [--dry-run] [--yes] [-o json] [--demo]

Changes the region settings of a Magic Containers application (PUT): the allowed regions, the
required regions (each must also be allowed), and the most regions it may run in. A list given
replaces the whole list; what is not given stays as it is. The console's checks run first: regions
of the live region list, within the account limit of regions per application, max allowed regions
not below the number of required ones. burrow get apps and burrow get regions list the ids.

${MUTATION_USAGE}`;

/** "DE,NY , LA" -> ["DE","NY","LA"]; an empty value is an empty list (nothing allowed is caught later). */
export function regionList(flag: string, value: string): string[] {
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  for (const id of ids) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new UsageError(`${flag}: "${id.slice(0, 40)}" is not a region id (letters, digits, - and _)`);
    if (seen.has(id)) throw new UsageError(`${flag}: ${id} is listed twice`);
    seen.add(id);
  }
  return ids;
}

export function maxAllowed(value: string): number {
  const n = /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--max-allowed must be a whole number of at least 1 (got "${value.slice(0, 40)}")`);
  return n;
}

const LABELS: Record<string, string> = { allowed: '--allowed', required: '--required', max: '--max-allowed', selectors: 'node selectors', general: '' };

function problemsText(messages: FieldMessages): string {
  return Object.entries(messages)
    .flatMap(([field, list]) => (list ?? []).map((m) => `  - ${LABELS[field] ? `${LABELS[field]}: ` : ''}${m}`))
    .join('\n');
}

async function regions(ctx: CommandContext, appArg: string): Promise<number> {
  const appId = appArg.trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(appId)) throw new UsageError(`APP must be an application id (burrow get apps lists them), got "${appArg.slice(0, 40)}"`);
  const v = ctx.values;
  const allowed = typeof v.allowed === 'string' ? regionList('--allowed', v.allowed) : null;
  const required = typeof v.required === 'string' ? regionList('--required', v.required) : null;
  const max = typeof v['max-allowed'] === 'string' ? maxAllowed(v['max-allowed']) : null;
  if (allowed === null && required === null && max === null) throw new UsageError('what to change? give --allowed, --required or --max-allowed');
  refuseReadOnly(ctx, `changing the region settings of ${appId}`);
  checkCanConfirm(ctx);

  const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  try {
    let settings: RegionSettings;
    try {
      settings = await session.api.containers.getRegionSettings(appId);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) throw new UsageError(`no application ${appId} (burrow get apps lists them): ${e.message}`);
      throw e;
    }
    const [limits, liveRegions] = await Promise.all([session.api.containers.getLimits(), session.api.containers.listAllRegions()]);
    const draft = {
      ...draftFrom(settings),
      ...(allowed ? { allowed } : {}),
      ...(required ? { required } : {}),
      ...(max !== null ? { maxAllowedRegions: max } : {}),
    };
    const problems = validateDraft(draft, limits, liveRegions);
    if (hasMessages(problems)) {
      ctx.io.stderr.write(`burrow: not sent: the region settings of ${appId} would not be valid:\n${problemsText(problems)}\n`);
      return 2;
    }
    const body = draftBody(draft);
    return await runMutation(ctx, {
      title: `Save region settings (${appId}) (PUT)`,
      before: baseForDiff(settings, draft),
      after: body,
      send: async () => {
        await session.api.containers.putRegionSettings(appId, body);
        // the PUT answers an empty 200: the settings read back are the answer (null when that read fails)
        return session.api.containers.getRegionSettings(appId).catch(() => null);
      },
      answer: (fresh) => ({ saved: true, regionSettings: fresh }),
      done: (fresh) =>
        fresh
          ? `region settings of ${appId} saved; read back: allowed ${fresh.allowedRegionIds.join(',') || '-'}, required ${fresh.requiredRegionIds.join(',') || '-'}, max ${fresh.maxAllowedRegions ?? 'no limit'}`
          : `region settings of ${appId} saved (the platform answered 200); reading them back failed: burrow get region-settings ${appId}`,
      check: `burrow get region-settings ${appId}`,
    });
  } finally {
    await session.close();
  }
}

export const containersCommand: Command = {
  name: 'containers',
  summary: 'Magic Containers: regions APP (change region settings)',
  usage: USAGE,
  options: { allowed: { type: 'string' }, required: { type: 'string' }, 'max-allowed': { type: 'string' }, ...MUTATION_OPTIONS },
  outputs: ['table', 'json'],
  async run(ctx) {
    const [sub, app, ...rest] = ctx.args;
    if (sub !== 'regions')
      throw new UsageError(
        `${sub === undefined ? 'which containers command?' : `unknown containers command "${sub}":`} the one there is: burrow containers regions APP --allowed R,...`,
      );
    if (app === undefined) throw new UsageError('burrow containers regions needs APP: the application id (burrow get apps lists them)');
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    return regions(ctx, app);
  },
};
