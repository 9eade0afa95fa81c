import { ApiError } from '../api/errors';
import { normalizeFilter, parseV1Date, RETENTION_MS, v1Date, type LogFilter } from '../api/logs/index';
import { FILTERED_FIELDS } from '../log-fields/fields';
import { displayZone } from '../text/time-format';
import { parseTimeInput } from '../text/time-parse';
import { type CommandContext, UsageError } from './types';
import { parseZoneArgs } from './logs-zones';

export const DEFAULT_SINCE = '15m';
export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 1_000_000;

/** "15m" -> ms; throws UsageError with what is allowed. */
export function parseSince(text: string, maxMs = RETENTION_MS): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'] : Number.NaN;
  if (!m || !(ms > 0) || ms > maxMs) {
    throw new UsageError(
      `--since "${text}": use a duration like 30s, 15m, 2h or 3d (more than 0, at most ${maxMs === RETENTION_MS ? '3d' : `${Math.round(maxMs / 86_400_000)}d`})`,
    );
  }
  return ms;
}

/** The field filters `burrow logs` takes as flags (the field table's serverFilter.flag), in the filters' order. */
export const FILTER_FLAGS = FILTERED_FIELDS.flatMap(({ serverFilter: { param, flag } }) => (flag === null ? [] : [{ param, flag }]));

/** The flag of each LogFilter key, for messages. */
const FLAG_OF: Record<string, string> = {
  ...Object.fromEntries(FILTER_FLAGS.map(({ param, flag }) => [param, `--${flag}`])),
  search: '--search',
  from: '--from',
  to: '--to',
  limit: '--limit',
};

/** An 'invalid-input' ApiError becomes a usage message naming the flags. */
export function asUsage(error: unknown): never {
  if (error instanceof ApiError && error.kind === 'invalid-input') {
    const parts = error.fieldErrors.length ? error.fieldErrors.map((f) => `${f.field ? `${FLAG_OF[f.field] ?? f.field} ` : ''}${f.message}`) : [error.message];
    throw new UsageError(parts.join('; '));
  }
  throw error;
}

export interface Plan {
  /** The first zone (the only one unless several were given). */
  zoneId: number;
  zones: number[];
  filter: LogFilter;
  follow: boolean;
  limit: number;
  from: number | null;
  to: number | null;
  sinceMs: number;
  v1Date: string | null;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** `fromStore`: the window is read from the log store (burrow logs --store), which has no 3-day limit. */
export function planFromArgs(ctx: CommandContext, now: number, fromStore = false): Plan {
  const v = ctx.values;
  const zones = parseZoneArgs(ctx.args);
  const zoneId = zones[0]!;
  const follow = Boolean(v.follow);
  const isV1 = Boolean(v.v1);
  const limitText = str(v.limit);
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText.trim()) || limit < 1 || limit > MAX_LIMIT)
      throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, got "${limitText}"`);
  }
  const filter: LogFilter = { ...Object.fromEntries(FILTER_FLAGS.map(({ param, flag }) => [param, str(v[flag])])), search: str(v.search) };
  try {
    normalizeFilter(filter);
  } catch (error) {
    asUsage(error);
  }
  const sinceText = str(v.since);
  const fromText = str(v.from);
  const toText = str(v.to);
  if (isV1) {
    if (follow) throw new UsageError('--v1 reads a finished day file: it cannot be combined with --follow');
    if (zones.length > 1) throw new UsageError('--v1 reads the day file of one zone: give one PULLZONE');
    if (sinceText || fromText || toText) throw new UsageError('--v1 reads a whole day: use --date MM-dd-yy instead of --since/--from/--to');
    const days = [2, 1, 0].map((d) => v1Date(now - d * 86_400_000)).join(', ');
    const date = str(v.date);
    if (!date) throw new UsageError(`--v1 needs --date MM-dd-yy (UTC day within the 3-day retention: ${days})`);
    if (Number.isNaN(parseV1Date(date))) throw new UsageError(`--date "${date}" is not a date in MM-dd-yy form (for example ${days.split(', ')[2]})`);
    return { zoneId, zones, filter, follow, limit, from: null, to: null, sinceMs: 0, v1Date: date };
  }
  if (str(v.date)) throw new UsageError('--date goes with --v1 (the legacy day files); for the v2 API use --since or --from/--to');
  if (sinceText && (fromText || toText)) throw new UsageError('use either --since or --from/--to, not both');
  if (toText && !fromText) throw new UsageError('--to needs --from');
  if (follow && toText) throw new UsageError('--follow keeps reading up to now: it cannot take --to');
  // the forms the logs screen's `@` takes, a time without a zone in the display zone (as shown)
  const time = (flag: string, text: string | undefined): number | null => {
    if (text === undefined) return null;
    const t = parseTimeInput(text, now, displayZone());
    if (!t.ok) throw new UsageError(`${flag} ${t.message}`);
    return t.ms;
  };
  const from = time('--from', fromText);
  const to = time('--to', toText);
  const sinceMs = parseSince(sinceText ?? DEFAULT_SINCE, fromStore ? 366 * 86_400_000 : RETENTION_MS);
  const start = from ?? now - sinceMs;
  if (!fromStore && start < now - RETENTION_MS - 1000)
    throw new UsageError('--from is older than the 3-day log retention (--store reads the ones burrow ship kept)');
  if (to !== null && from !== null && to <= from) throw new UsageError('--from must be before --to');
  if (!fromStore && to !== null && from !== null && to - from > RETENTION_MS) throw new UsageError('the window --from .. --to is at most 3 days');
  return { zoneId, zones, filter, follow, limit, from, to, sinceMs, v1Date: null };
}
