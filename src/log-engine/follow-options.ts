import { ApiError } from '../api/errors';
import type { LogBuffer } from './buffer';
import type { FollowSink } from './follow-sink';
import type { LogPageSource } from '../api/logs/page';
import { RETENTION_MS, normalizeFilter, toEpochMs, type LogFilter, type TimeInput } from '../api/logs/query';

/** Backfill pages in flight at most, by default: one is ingested while the next are on their way. */
export const BACKFILL_DEPTH = 3;

/** What a caller of the follow engine may set, checked and given its defaults here. */
export interface FollowOptions<S extends FollowSink = LogBuffer> {
  api: LogPageSource;
  zones: readonly number[];
  /** Server-side filters (validated at construction). */
  filter?: LogFilter;
  /** Backfill this far back (default 15 min); or `from` for an absolute start. */
  sinceMs?: number;
  from?: TimeInput;
  /** Where records go (default: a new LogBuffer of `capacity`). */
  buffer?: S;
  /** Buffer capacity when no buffer is given (default 100,000). */
  capacity?: number;
  /** Records per request (default 10,000: fewer requests for the budget). */
  pageLimit?: number;
  minIntervalMs?: number;
  maxIntervalMs?: number;
  overlapMs?: number;
  initialRecheckMs?: number;
  minRecheckMs?: number;
  maxRecheckMs?: number;
  fullRecheckEveryMs?: number;
  /** Records to backfill at most (default: the buffer's capacity). */
  maxBackfill?: number;
  /** Backfill pages in flight at most (default BACKFILL_DEPTH; the zone's budget spaces them). */
  backfillDepth?: number;
  /** Share of a zone's budget the polls may use (default 0.6; searches get the rest). */
  budgetShare?: number;
  /**
   * Lag assumed by settledBefore() while a zone is still being learnt (fewer than 20 lag samples
   * or 3 polls after the backfill; default 30 s); after that only the observed lag counts.
   */
  initialLagMs?: number;
  /**
   * Several zones: how far a zone in trouble (retrying an outage, rate limited, also while its
   * backfill is not done) may hold settledBefore() back behind the most advanced zone (default:
   * without bound). Healthy zones always hold it (strict order); a troubled zone's records older
   * than the watermark then come late (an ordered output counts them as stragglers).
   */
  maxSkewMs?: number;
  now?: () => number;
  random?: () => number;
}

/** The tuning of a running engine: every option that has a default, resolved. */
export type FollowSettings = Required<Omit<FollowOptions, 'api' | 'zones' | 'filter' | 'sinceMs' | 'from' | 'buffer' | 'capacity' | 'now' | 'random'>>;

/** Where the backfill starts: a time back from now, or an absolute time. */
export type BackfillStart = { sinceMs: number } | { from: number };

/** The zones to follow, each once; throws on none or an id that is not one. */
export function followedZones(zones: readonly number[]): number[] {
  const unique = [...new Set(zones)];
  if (!unique.length) throw new ApiError({ kind: 'invalid-input', message: 'follow needs at least one pull zone' });
  for (const z of unique) if (!Number.isSafeInteger(z) || z < 0) throw new ApiError({ kind: 'invalid-input', message: `invalid pull zone id ${z}` });
  return unique;
}

/** A copy of the server-side filter, validated. */
export function followFilter(filter: LogFilter | undefined): LogFilter {
  normalizeFilter(filter ?? {});
  return { ...(filter ?? {}) };
}

/** The options with their defaults; the backfill is capped by the sink's capacity unless told. */
export function followSettings(options: FollowOptions<FollowSink>, sinkCapacity: number): FollowSettings {
  const pageLimit = options.pageLimit ?? 10_000;
  if (!Number.isInteger(pageLimit) || pageLimit < 1 || pageLimit > 10_000) throw new ApiError({ kind: 'invalid-input', message: 'pageLimit must be 1..10000' });
  const minRecheckMs = options.minRecheckMs ?? 30_000;
  return {
    pageLimit,
    minIntervalMs: options.minIntervalMs ?? 1000,
    maxIntervalMs: options.maxIntervalMs ?? 10_000,
    overlapMs: options.overlapMs ?? 5000,
    initialRecheckMs: options.initialRecheckMs ?? Math.max(minRecheckMs, 120_000),
    minRecheckMs,
    maxRecheckMs: options.maxRecheckMs ?? 15 * 60_000,
    fullRecheckEveryMs: options.fullRecheckEveryMs ?? 10_000,
    maxBackfill: options.maxBackfill ?? sinkCapacity,
    backfillDepth: Math.max(1, Math.floor(options.backfillDepth ?? BACKFILL_DEPTH)),
    budgetShare: options.budgetShare ?? 0.6,
    initialLagMs: options.initialLagMs ?? 30_000,
    maxSkewMs: options.maxSkewMs ?? Number.POSITIVE_INFINITY,
  };
}

/** `from`, or `sinceMs` (default 15 min, at most the 3-day retention). */
export function backfillStart(options: Pick<FollowOptions<FollowSink>, 'from' | 'sinceMs'>): BackfillStart {
  if (options.from !== undefined) {
    const from = toEpochMs(options.from);
    if (Number.isNaN(from)) throw new ApiError({ kind: 'invalid-input', message: `follow: "${String(options.from)}" is not a date-time` });
    return { from };
  }
  const sinceMs = options.sinceMs ?? 15 * 60_000;
  if (!(sinceMs > 0) || sinceMs > RETENTION_MS)
    throw new ApiError({ kind: 'invalid-input', message: 'follow: the backfill window must be between 0 and 3 days' });
  return { sinceMs };
}

/** The backfill's first record time at `now`, clamped inside retention (with a minute to spare). */
export function backfillStartAt(start: BackfillStart, now: number): number {
  const at = 'from' in start ? start.from : now - start.sinceMs;
  return Math.max(at, now - RETENTION_MS + 60_000);
}
