import type { BackfillProgress, FollowStatus, ZoneFollowStatus } from '../../log-engine/index';
import type { BudgetState } from '../../api/rate-limit';

/** One followed zone as the logs screen's zone strip shows it. */
export interface ZoneLive {
  zoneId: number;
  state: ZoneFollowStatus['state'];
  error: string | null;
  errorStatus: number | null;
  backfill: BackfillProgress | null;
  requests: number;
  records: number;
  coveredTo: number | null;
  budgetUsed: number;
  budgetLimit: number;
  budgetWaiting: number;
  backoffUntil: number | null;
  rateLimited: number;
}

export function zoneLive(z: ZoneFollowStatus, b: BudgetState): ZoneLive {
  return {
    zoneId: z.zoneId,
    state: z.state,
    error: z.error ? z.error.message : null,
    errorStatus: z.error ? z.error.status : null,
    backfill: z.backfill,
    requests: z.requests,
    records: z.records,
    coveredTo: z.coveredTo,
    budgetUsed: b.used,
    budgetLimit: b.limit,
    budgetWaiting: b.waiting,
    backoffUntil: b.backoffUntil,
    rateLimited: b.rateLimited,
  };
}

const sameZone = (a: ZoneLive, b: ZoneLive) => (Object.keys(a) as (keyof ZoneLive)[]).every((k) => a[k] === b[k]);

/** The same array when nothing changed (the store compares statuses shallowly to decide a redraw). */
export function reuseZones(previous: readonly ZoneLive[], next: ZoneLive[]): readonly ZoneLive[] {
  return previous.length === next.length && previous.every((z, i) => sameZone(z, next[i]!)) ? previous : next;
}

/**
 * Several zones as one status line: the zones still running decide the state (one failed zone
 * does not make the whole view "failed", it shows in the zone strip); failed only when all are.
 */
export function combinedState(zones: readonly ZoneFollowStatus[]): { state: ZoneFollowStatus['state'] | 'idle'; error: ZoneFollowStatus['error'] } {
  if (zones.length === 0) return { state: 'idle', error: null };
  const alive = zones.filter((z) => z.state !== 'failed');
  if (alive.length === 0) return { state: 'failed', error: zones[0]!.error };
  for (const s of ['starting', 'backfilling', 'rate-limited', 'retrying', 'paused', 'following'] as const) {
    const z = alive.find((x) => x.state === s);
    if (z) return { state: s, error: s === 'rate-limited' || s === 'retrying' ? z.error : null };
  }
  return { state: alive[0]!.state, error: null };
}

/** The history of several zones as one progress (the footer's bar); null when none has started. */
export function combinedBackfill(zones: readonly ZoneFollowStatus[]): BackfillProgress | null {
  const list = zones.filter((z) => z.state !== 'failed' && z.backfill !== null).map((z) => z.backfill!);
  if (list.length <= 1) return list[0] ?? null;
  const known = list.every((p) => p.remaining !== null);
  const reached = list.map((p) => p.reached).filter((r): r is number => r !== null);
  const to = list.map((p) => p.to).filter((t): t is number => t !== null);
  const etas = list.map((p) => p.etaMs);
  return {
    records: list.reduce((n, p) => n + p.records, 0),
    pages: list.reduce((n, p) => n + p.pages, 0),
    from: Math.min(...list.map((p) => p.from)),
    to: to.length ? Math.max(...to) : null,
    reached: reached.length ? Math.min(...reached) : null,
    startedAt: Math.min(...list.map((p) => p.startedAt)),
    ratePerSecond: list.reduce((n, p) => n + p.ratePerSecond, 0),
    remaining: known ? list.reduce((n, p) => n + p.remaining!, 0) : null,
    etaMs: etas.some((e) => e === null) ? null : Math.max(...(etas as number[])),
    done: list.every((p) => p.done),
  };
}

/** Oldest coveredTo of the zones still followed (how far behind the merged view is). */
export function combinedCoveredTo(st: FollowStatus): number | null {
  let min: number | null = null;
  for (const z of st.zones) {
    if (z.state === 'failed' || z.coveredTo === null) continue;
    if (min === null || z.coveredTo < min) min = z.coveredTo;
  }
  return min;
}
