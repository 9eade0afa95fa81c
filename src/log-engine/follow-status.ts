import type { ApiError } from '../api/errors';

/** What the follow engine reports: its state, and per zone how far it read and how it goes. */

export type ZoneState = 'starting' | 'backfilling' | 'following' | 'paused' | 'retrying' | 'rate-limited' | 'failed' | 'stopped';

export interface ZoneFollowStatus {
  zoneId: number;
  state: ZoneState;
  /** The last error (kept while retrying; the reason when failed). */
  error: ApiError | null;
  consecutiveErrors: number;
  requests: number;
  /** New records kept from this zone. */
  records: number;
  /** Records first returned after newer ones had already been returned. */
  late: number;
  /** The backfill stopped at the buffer's capacity with more records available. */
  backfillTruncated: boolean;
  /** How the backfill goes (null before it starts). */
  backfill: BackfillProgress | null;
  /** Server time up to which every visible record was read. */
  coveredTo: number | null;
  newest: number | null;
  /** now - coveredTo: how far behind real time the view is. */
  behindMs: number | null;
  /** Largest recent lag between a record's timestamp and the first poll that returned it. */
  ingestLagMs: number;
  /** "re-checking the last N s" */
  recheckMs: number;
  intervalMs: number;
  nextPollAt: number | null;
  backoffUntil: number | null;
}

/** The backfill of one zone: newest first, the history filling in behind. */
export interface BackfillProgress {
  /** New records the backfill put into the sink. */
  records: number;
  /**
   * Of those, records found by gap reads: records that came late between two pages, inside the
   * history already read. They are kept even past the backfill's cap (leaving them out would leave
   * a hole in what is held), so `records` can pass the cap by them. Absent: none.
   */
  gapRecords?: number;
  pages: number;
  /** The window read: [from, to) (to: the server's clock at the first page). */
  from: number;
  to: number | null;
  /** The oldest record time read so far: [reached, to) is filled. */
  reached: number | null;
  startedAt: number;
  ratePerSecond: number;
  /** Estimated records still to read (from the density so far, capped by the backfill limit); null until known. */
  remaining: number | null;
  etaMs: number | null;
  done: boolean;
}

export interface FollowStatus {
  state: 'idle' | 'running' | 'paused' | 'stopped' | 'failed';
  zones: ZoneFollowStatus[];
  buffered: number;
  dropped: number;
  duplicates: number;
  version: number;
}
