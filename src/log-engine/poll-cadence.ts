import type { FollowSettings } from './follow-options';

/**
 * When a zone polls next: minIntervalMs after a poll that found records, x1.5 up to maxIntervalMs
 * while idle; never more than `budgetShare` of the zone's request budget, slower while other
 * callers wait for that budget; while the history is read, once about a page of new records is
 * there.
 */

export interface PollCadenceInput {
  /** The interval before this poll. */
  previousMs: number;
  /** New records the poll found. */
  found: number;
  /** Requests it took. */
  pages: number;
  budget: { readonly limit: number; readonly windowMs: number };
  /** Other callers waiting for the zone's budget. */
  waiting: number;
  /** The history of the backfill is still being read. */
  backfilling: boolean;
  /** New records per ms at the live end (0: not known). */
  liveRatePerMs: number;
}

export function nextPollInterval(p: PollCadenceInput, o: Pick<FollowSettings, 'minIntervalMs' | 'maxIntervalMs' | 'budgetShare' | 'pageLimit'>): number {
  let interval = p.found > 0 ? o.minIntervalMs : Math.min(o.maxIntervalMs, Math.max(o.minIntervalMs, p.previousMs * 1.5));
  const floor = (p.pages * p.budget.windowMs) / (p.budget.limit * o.budgetShare);
  interval = Math.max(interval, floor);
  if (p.waiting > 0) interval = Math.max(interval, 2 * o.minIntervalMs);
  if (p.backfilling) {
    // While the history is read, the live end waits for about a page of new records (between the
    // longest interval and three times it): a poll is then worth a request of the budget.
    const fill = p.liveRatePerMs > 0 ? o.pageLimit / p.liveRatePerMs : Number.POSITIVE_INFINITY;
    interval = Math.max(interval, Math.min(3 * o.maxIntervalMs, Math.max(o.maxIntervalMs, fill)));
  }
  return interval;
}
