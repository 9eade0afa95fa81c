import { ApiError } from '../api/errors';
import { RETENTION_MS, type LogEntry, type LogFilter } from '../api/logs/index';
import { mergeByTime } from '../log-engine/index';
import { type Io, UsageError } from './types';

/**
 * `burrow logs A B ...`: the zone arguments, the check that every zone can be read before
 * anything is printed, and the bounded window of several zones merged in time order.
 */

/** What the usage error says about a zone argument. */
const ZONE_RULE = 'a numeric pull zone id (a whole number from 1, such as 1058; burrow get pull-zones lists them)';

/**
 * Pull zone ids of the command line, in the order given, each once. A zone may also be given as
 * a comma list ("1058,1199"); anything else is a usage error naming the argument.
 */
export function parseZoneArgs(args: readonly string[]): number[] {
  if (args.length === 0) throw new UsageError('burrow logs needs PULLZONE (the numeric pull zone id); see burrow logs --help');
  const zones: number[] = [];
  for (const arg of args) {
    for (const part of arg.split(',')) {
      if (!/^[1-9]\d{0,14}$/.test(part)) throw new UsageError(`PULLZONE must be ${ZONE_RULE}, got "${part}"`);
      const id = Number(part);
      if (!zones.includes(id)) zones.push(id);
    }
  }
  return zones;
}

/** The same error, its message naming the zone (the rest kept: status, code, exit code). */
export function zoneError(zoneId: number, error: ApiError): ApiError {
  if (error.message.startsWith(`pull zone ${zoneId}:`)) return error;
  return new ApiError({
    kind: error.kind,
    status: error.status,
    code: error.code,
    fieldErrors: error.fieldErrors,
    method: error.method ?? undefined,
    path: error.path ?? undefined,
    retryAfterMs: error.retryAfterMs,
    cause: error,
    message: `pull zone ${zoneId}: ${error.message}`,
  });
}

interface Zones {
  now(): number;
  query(zoneId: number, q: { from: number; limit: number; order: 'desc' }, opts: { signal?: AbortSignal }): Promise<unknown>;
}

/**
 * Fails fast when a zone cannot be read (unknown, not in this account, logging off, bad key):
 * one small request per zone, all at once, each inside its zone's budget. The error names the
 * zone; with several bad zones, the first in command-line order.
 */
export async function checkZones(logs: Zones, zones: readonly number[], signal: AbortSignal): Promise<void> {
  const now = logs.now();
  const results = await Promise.allSettled(zones.map((z) => logs.query(z, { from: now - 60_000, limit: 1, order: 'desc' }, { signal })));
  for (let i = 0; i < zones.length; i++) {
    const r = results[i]!;
    if (r.status === 'fulfilled') continue;
    if (r.reason instanceof ApiError) throw zoneError(zones[i]!, r.reason);
    throw r.reason;
  }
}

export interface WindowPlan {
  zones: number[];
  filter: LogFilter;
  limit: number;
  from: number | null;
  to: number | null;
  sinceMs: number;
}

export interface ZoneWindow {
  entries: LogEntry[];
  times: number[];
  hasMore: boolean;
}

interface WindowSource {
  now(): number;
  fetchAll(
    zoneId: number,
    q: LogFilter & { from: number; to?: number; order: 'desc'; limit: number },
    opts: { signal?: AbortSignal; maxRecords?: number },
  ): Promise<ZoneWindow>;
}

/**
 * The window of every zone (read at once, each zone on its own budget), merged oldest first
 * without duplicates, the newest `limit` of them. One `now` for every zone, so the windows match.
 */
export async function fetchZonesWindow(plan: WindowPlan, logs: WindowSource, signal: AbortSignal, io: Io, read?: { partial: boolean }): Promise<LogEntry[]> {
  const now = logs.now();
  const from = plan.from ?? Math.max(now - plan.sinceMs, now - RETENTION_MS + 60_000);
  const to = plan.to ?? now;
  const results = await Promise.allSettled(
    plan.zones.map((z) =>
      logs.fetchAll(z, { ...plan.filter, from, to, order: 'desc', limit: Math.min(10_000, plan.limit) }, { signal, maxRecords: plan.limit }),
    ),
  );
  const windows: ZoneWindow[] = [];
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    if (r.status === 'rejected') throw r.reason instanceof ApiError ? zoneError(plan.zones[i]!, r.reason) : r.reason;
    windows.push(r.value);
  }
  const merged = mergeByTime(
    windows.map((w) => ({ entries: w.entries, times: w.times })),
    from,
    to,
  );
  const more = windows.some((w) => w.hasMore) || merged.entries.length > plan.limit;
  if (read) read.partial = more;
  if (more)
    io.stderr.write(
      `burrow: showing the newest ${plan.limit} matching records of the ${plan.zones.length} zones; there are more (raise --limit or narrow the window)\n`,
    );
  return merged.entries.length > plan.limit ? merged.entries.slice(merged.entries.length - plan.limit) : merged.entries;
}
