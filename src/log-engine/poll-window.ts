import type { FollowSettings } from './follow-options';
import { RETENTION_MS } from '../api/logs/query';

/**
 * The window one poll of a zone reads: from the end of the last complete re-check back by the
 * re-check window (late records behind the live end), or from the end of the last poll back by
 * only the overlap when the re-check is too big for one page and not due yet. While the history
 * is read, only what is past the live end.
 *
 * A full re-check starts behind the end of the last full one, not of the last poll: a poll that
 * reads only the overlap can end long after the last re-check (answered after an outage it
 * retried), and a record that came late meanwhile, behind that overlap, is caught only by a
 * re-check that reaches back from where the last one ended.
 */

export interface PollWindowInput {
  now: number;
  /** The `to` of the last complete poll (now when none). */
  coveredTo: number;
  /** The `to` of the last complete full re-check (the backfill's window end before the first). */
  recheckedTo: number;
  /** The history of the backfill is still being read. */
  backfilling: boolean;
  /** The re-check owed since the backfill starts here (null: none owed). */
  recheckOwedFrom: number | null;
  /** Records the last poll's window held. */
  lastWindowRecords: number;
  lastFullRecheckAt: number;
  recheckMs: number;
  /** Nothing older is followed (the backfill's start, or where it was cut short). */
  floor: number;
  /** A full sink let records up to this time go (-Infinity when it has room). */
  evictedUpTo: number;
}

export interface PollWindow {
  from: number;
  /** The whole re-check window is read (else only the overlap). */
  full: boolean;
  /** The re-check owed since the backfill is paid by this poll (null: none). */
  owed: number | null;
}

export function pollWindow(p: PollWindowInput, o: Pick<FollowSettings, 'pageLimit' | 'fullRecheckEveryMs' | 'overlapMs'>): PollWindow {
  // While the history is read, only the records past the live end: each such request is nearly
  // all new records, and the re-check of what came late behind it is owed to the first poll after.
  const owed = p.backfilling ? null : p.recheckOwedFrom;
  const full = !p.backfilling && (owed !== null || p.lastWindowRecords < o.pageLimit || p.now - p.lastFullRecheckAt >= o.fullRecheckEveryMs);
  let from = p.backfilling ? p.coveredTo : full ? Math.min(p.coveredTo, p.recheckedTo) - p.recheckMs : p.coveredTo - o.overlapMs;
  if (owed !== null) from = Math.min(from, owed);
  // Inside retention (with a minute to spare), and not behind what a full buffer already let go.
  from = Math.max(from, p.floor, p.now - RETENTION_MS + 60_000, p.evictedUpTo);
  return { from, full, owed };
}
