import type { FollowSettings } from './follow-options';

/**
 * How late a zone's records become visible: each new record a poll returns tells how long after
 * its timestamp it was first returned (the window's end - its time). The largest recent one is
 * kept, halving every ten minutes, and sizes the re-check window behind the live end.
 */

const LAG_HALF_LIFE_MS = 10 * 60_000;

export class IngestLag {
  private max = 0;
  private at = 0;
  /** Lag samples seen (to know when the lag is learnt). */
  samples = 0;

  /** The largest recent lag, decayed to `now`. */
  decayed(now: number): number {
    return this.max * 0.5 ** (Math.max(0, now - this.at) / LAG_HALF_LIFE_MS);
  }

  /** A poll's page saw at most this lag (its samples counted already). */
  set(lag: number, now: number): void {
    this.max = lag;
    this.at = now;
  }

  /**
   * Lag to hold ordered output back by: the observed one, or the initial assumption while still
   * learning (fewer than 20 samples or 3 polls after the backfill).
   */
  holdback(now: number, polls: number, initialLagMs: number): number {
    const learning = this.samples < 20 || polls < 3;
    return Math.max(this.decayed(now), learning ? initialLagMs : 0);
  }
}

/**
 * The re-check window after a poll: about twice the lag plus a poll interval (between the min and
 * max settings); doubled at once when a record came close to its edge, shrunk slowly otherwise.
 */
export function nextRecheckMs(
  current: number,
  lag: number,
  sawRecords: boolean,
  intervalMs: number,
  o: Pick<FollowSettings, 'minRecheckMs' | 'maxRecheckMs'>,
): number {
  const target = Math.min(o.maxRecheckMs, Math.max(o.minRecheckMs, 2 * lag + intervalMs));
  if (sawRecords && lag > 0.7 * current) return Math.min(o.maxRecheckMs, Math.max(current * 2, target));
  if (target > current) return target;
  return Math.max(target, current * 0.97);
}
