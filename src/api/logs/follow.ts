import { ApiError } from '../errors';
import { backoffDelay } from '../http';
import { BackfillOverlap } from './backfill-overlap';
import { LogBuffer } from './buffer';
import type { LogEntry } from './entry';
import type { RecordBatch } from './record-batch';
import { pageHead, pageKey, pageLength, type LogPage, type LogPageSource } from './page';
import { RETENTION_MS, normalizeFilter, toEpochMs, type LogFilter, type LogQuery, type TimeInput } from './query';

/*
 * Follow engine: tails one or more pull zones through the v2 API into one LogBuffer.
 *
 * Per zone:
 * 1. Backfill: [start, now) newest first (order=desc), offset paging while hasMore, up to the
 *    buffer's capacity. The first page's `query.to` (the server's clock) pins the window. After
 *    that first page the polls start, slowly, while the history behind it is read with a few
 *    pages in flight inside the zone's budget (see backfillHistory for why no page is skipped).
 *    Meanwhile a poll reads only what is past the live end, once about a page of it is there
 *    (maxIntervalMs to 3x that), so the budget goes to new records; the re-check of late records
 *    behind the live end waits for the first poll after the backfill.
 * 2. Polls: each poll reads [coveredTo - recheck, now) oldest first, paging while hasMore, where
 *    coveredTo is the `to` of the last complete poll. The window covers the records newer than the
 *    newest seen (minus an overlap) and, behind them, a trailing re-check window for late records:
 *    the platform makes records visible only after an ingestion lag, so a record can appear after
 *    newer ones were returned. Records are deduped by request id and inserted in place.
 *    When the re-check window is too big for one page, it is read in full only every
 *    `fullRecheckEveryMs`, and the other polls read [coveredTo - overlap, now).
 * 3. The re-check width adapts to the lag observed: each newly seen record tells how long after
 *    its timestamp it was first returned (window end - timestamp). The window is kept at about
 *    twice the largest recent lag (between minRecheckMs and maxRecheckMs), grows at once when a
 *    record arrives close to its edge, and shrinks slowly.
 * 4. Cadence: minIntervalMs after a poll that found records, growing x1.5 to maxIntervalMs while
 *    idle; never more than `budgetShare` of the zone's request budget, slower while other callers
 *    (searches, v1 downloads) wait for the same budget.
 * 5. Failures: transient ones (network, resets, 5xx, garbled bodies) retry the same page with
 *    backoff (full jitter) and leave coveredTo alone, so the next poll starts where the last
 *    complete one ended: no gaps. A 429 makes the shared budget back off. Permanent ones (400,
 *    401, 403, 404) stop the zone with state 'failed' and the error.
 * 6. pause() stops polling (in-flight requests finish); resume() reads from coveredTo again, so
 *    nothing is lost as long as the pause is shorter than the 3-day retention.
 *
 * Subscribers (`subscribe`) are called after every change (records or status); `onRecords` gets
 * each batch of new records; `settledBefore()` is the time before which no more records are
 * expected (for output that must be strictly ordered).
 */

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

interface BackfillState {
  records: number;
  pages: number;
  from: number;
  to: number | null;
  reached: number | null;
  startedAt: number;
  finishedAt?: number;
  done: boolean;
}

/** Where the backfill reads next: a window pinned at the first page, read newest first by offset. */
interface HistoryCursor {
  from: number;
  /** NaN until the first page pins it to the server's clock. */
  to: number;
  offset: number;
  collected: number;
  /** Key of the last record of the last page taken (the next page must hold it). */
  lastKey: string | null;
}

export interface FollowStatus {
  state: 'idle' | 'running' | 'paused' | 'stopped' | 'failed';
  zones: ZoneFollowStatus[];
  buffered: number;
  dropped: number;
  duplicates: number;
  version: number;
}

/**
 * Where the engine puts what it reads (a LogBuffer is one; a screen's own store can be another):
 * records of every followed zone, deduped by request id, in time order, bounded.
 */
export interface FollowSink {
  /** Inserts a batch; appends the records it did not hold yet (and their times) to added/addedTimes. */
  insert(batch: readonly LogEntry[], times: ArrayLike<number>, added: LogEntry[], addedTimes: number[]): number;
  /** The same from a page's columns (no objects built); appends the batch indexes of the records kept to addedAt. */
  insertBatch?(batch: RecordBatch, addedAt: number[], addedTimes: number[]): number;
  has(key: string): boolean;
  readonly length: number;
  readonly capacity: number;
  /** Records up to this time were let go for lack of room. */
  readonly evictedUpTo: number;
  /** Changes whenever the content changes. */
  readonly version: number;
  readonly dropped: number;
  readonly duplicates: number;
}

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
  /** Backfill pages in flight at most (default 3; the zone's budget spaces them). */
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

const LAG_HALF_LIFE_MS = 10 * 60_000;
/** The smallest backfill page asked for near the cap. */
const MIN_BACKFILL_PAGE = 1000;

class Stopped extends Error {}

/** A LogBuffer when the caller gave no sink (S is then LogBuffer, the parameter's default). */
function defaultSink<S extends FollowSink>(capacity: number | undefined): S {
  return new LogBuffer(capacity) as FollowSink as S;
}

class ZoneRunner<S extends FollowSink> {
  state: ZoneState = 'starting';
  error: ApiError | null = null;
  consecutiveErrors = 0;
  requests = 0;
  records = 0;
  late = 0;
  backfillTruncated = false;
  coveredTo: number | null = null;
  newest: number | null = null;
  lagMax = 0;
  lagAt = 0;
  recheckMs: number;
  intervalMs: number;
  nextPollAt: number | null = null;
  lastFullRecheckAt = Number.NEGATIVE_INFINITY;
  lastWindowRecords = 0;
  /**
   * While the history is read, polls take only the records past the live end; late records behind
   * it are re-checked once, from this time, by the first poll after the backfill (null: none owed).
   */
  recheckOwedFrom: number | null = null;
  /** Records older than this give no lag sample (set during the re-check owed since the backfill). */
  noLagSamplesBefore = Number.NEGATIVE_INFINITY;
  /** New records per ms at the live end while the history is read (from the first page, then the polls). */
  liveRatePerMs = 0;
  /** Nothing older is followed: the backfill start, or its oldest record when it was cut short. */
  floor = Number.NEGATIVE_INFINITY;
  /** Lag samples seen and complete polls since the backfill (to know when the lag is learnt). */
  lagSamples = 0;
  polls = 0;
  /** Null until the backfill starts. */
  progress: BackfillState | null = null;
  private shownProgress: BackfillProgress | null = null;
  /** The history part of the backfill failed for good: the zone fails with this. */
  historyFailure: unknown = null;
  /** The wait before the next poll was woken to be recomputed, not to poll. */
  private rescheduled = false;
  private wake: (() => void) | null = null;

  constructor(readonly zoneId: number, private readonly engine: FollowEngine<S>) {
    this.recheckMs = engine.opts.initialRecheckMs;
    this.intervalMs = engine.opts.minIntervalMs;
  }

  status(now: number): ZoneFollowStatus {
    const b = this.engine.api.budget.state(String(this.zoneId));
    return {
      zoneId: this.zoneId,
      state: this.state,
      error: this.error,
      consecutiveErrors: this.consecutiveErrors,
      requests: this.requests,
      records: this.records,
      late: this.late,
      backfillTruncated: this.backfillTruncated,
      backfill: this.backfillStatus(now),
      coveredTo: this.coveredTo,
      newest: this.newest,
      behindMs: this.coveredTo === null ? null : Math.max(0, now - this.coveredTo),
      ingestLagMs: Math.round(this.decayedLag(now)),
      recheckMs: Math.round(this.recheckMs),
      intervalMs: Math.round(this.intervalMs),
      nextPollAt: this.nextPollAt,
      backoffUntil: b.backoffUntil,
    };
  }

  /** Interrupts a wait between polls. */
  poke(): void {
    if (!this.wake) this.rescheduled = false;
    this.wake?.();
  }

  /** Lag to hold output back by: observed, or the initial assumption while still learning. */
  holdback(now: number): number {
    const learning = this.lagSamples < 20 || this.polls < 3;
    return Math.max(this.decayedLag(now), learning ? this.engine.opts.initialLagMs : 0);
  }

  private decayedLag(now: number): number {
    return this.lagMax * 0.5 ** (Math.max(0, now - this.lagAt) / LAG_HALF_LIFE_MS);
  }

  private set(state: ZoneState): void {
    if (this.state === state) return;
    this.state = state;
    this.engine.changed();
  }

  async run(): Promise<void> {
    let history: Promise<void> = Promise.resolve();
    try {
      // The newest page first; then the polls start while the history fills in behind.
      const rest = await this.backfillNewest();
      if (rest) history = this.backfillHistory(rest);
      while (!this.engine.stopped && !this.historyFailure) {
        await this.engine.gate(this);
        await this.sleepUntil(this.nextPollAt ?? 0);
        if (this.historyFailure) break;
        if (this.rescheduled) {
          this.rescheduled = false;
          continue;
        }
        await this.engine.gate(this);
        await this.poll();
      }
      if (this.historyFailure) throw this.historyFailure;
      this.set('stopped');
    } catch (error) {
      if (error instanceof Stopped || this.engine.stopped) {
        this.set('stopped');
        return;
      }
      this.error = error instanceof ApiError ? error : new ApiError({ kind: 'network', message: String((error as Error)?.message ?? error), cause: error });
      this.set('failed');
    } finally {
      this.nextPollAt = null;
      this.engine.changed();
      await history;
    }
  }

  private sleepUntil(at: number): Promise<void> {
    const ms = at - this.engine.now();
    // stopped between the caller's last check and here: the abort event has already fired
    if (this.engine.signal.aborted) return Promise.reject(new Stopped());
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.engine.signal.removeEventListener('abort', onStop);
        this.wake = null;
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, ms);
      const onStop = () => {
        done();
        reject(new Stopped());
      };
      this.wake = () => {
        done();
        resolve();
      };
      this.engine.signal.addEventListener('abort', onStop, { once: true });
    });
  }

  /** One page; transient failures retry the same page here, so callers never skip a page. */
  private async page(q: LogQuery, signal: AbortSignal = this.engine.signal): Promise<LogPage> {
    const { api } = this.engine;
    for (;;) {
      if (this.engine.stopped || signal.aborted) throw new Stopped();
      try {
        this.requests++;
        const page = await api.query(this.zoneId, { ...this.engine.filter, ...q }, { signal, retries: 0 });
        if (this.consecutiveErrors || this.error) {
          this.consecutiveErrors = 0;
          this.error = null;
          this.engine.changed();
        }
        return page;
      } catch (error) {
        if (this.engine.stopped || signal.aborted) throw new Stopped();
        if (!(error instanceof ApiError)) throw error;
        if (error.kind === 'aborted') throw new Stopped();
        this.error = error;
        if (!(error.transient || error.kind === 'malformed')) throw error;
        this.consecutiveErrors++;
        if (error.status === 429) {
          // The shared budget backs off; the next acquire waits for it.
          this.set('rate-limited');
        } else {
          this.set('retrying');
          // Capped at 10 s: after an outage the tail must notice recovery quickly; the shared budget still bounds the rate.
          await this.sleepUntil(this.engine.now() + backoffDelay(Math.min(this.consecutiveErrors, 6), 500, 10_000, this.engine.random) + 50);
        }
      }
    }
  }

  /** Puts a page into the buffer; returns how many records were new. */
  private ingest(page: LogPage, fromPoll: boolean, previousCoveredTo: number | null): number {
    const addedTimes: number[] = [];
    const buffer = this.engine.buffer;
    const batch = page.batch;
    let entries: () => LogEntry[];
    if (batch && buffer.insertBatch) {
      const at: number[] = [];
      buffer.insertBatch(batch, at, addedTimes);
      entries = () => at.map((i) => batch.entry(i));
    } else {
      const added: LogEntry[] = [];
      buffer.insert(page.entries, page.times, added, addedTimes);
      entries = () => added;
    }
    if (!addedTimes.length) return 0;
    const windowEnd = page.to ?? this.engine.now();
    const now = this.engine.now();
    let lag = this.decayedLag(now);
    for (let i = 0; i < addedTimes.length; i++) {
      const t = addedTimes[i]!;
      if (this.newest === null || t > this.newest) this.newest = t;
      if (!fromPoll) continue;
      if (previousCoveredTo !== null && t < previousCoveredTo) this.late++;
      // found by the re-check owed since the backfill: when it became visible is not known
      if (t < this.noLagSamplesBefore) continue;
      const sample = windowEnd - t;
      if (sample > lag) lag = sample;
      this.lagSamples++;
    }
    this.records += addedTimes.length;
    if (fromPoll) {
      this.lagMax = lag;
      this.lagAt = now;
      this.adaptRecheck(lag, true);
    }
    this.engine.emitRecords(addedTimes, entries);
    return addedTimes.length;
  }

  private adaptRecheck(lag: number, sawRecords: boolean): void {
    const o = this.engine.opts;
    const target = Math.min(o.maxRecheckMs, Math.max(o.minRecheckMs, 2 * lag + this.intervalMs));
    if (sawRecords && lag > 0.7 * this.recheckMs) this.recheckMs = Math.min(o.maxRecheckMs, Math.max(this.recheckMs * 2, target));
    else if (target > this.recheckMs) this.recheckMs = target;
    else this.recheckMs = Math.max(target, this.recheckMs * 0.97);
  }

  /** The page up to its `n`th record that the buffer does not hold yet (a newest-first page). */
  private newestNew(page: LogPage, n: number): LogPage {
    const length = pageLength(page);
    if (length <= n) return page;
    const buffer = this.engine.buffer;
    const seen = new Set<string>();
    let fresh = 0;
    let i = 0;
    for (; i < length && fresh < n; i++) {
      const key = pageKey(page, i);
      if (!buffer.has(key) && !seen.has(key)) fresh++;
      seen.add(key);
    }
    if (i === length) return page;
    return pageHead(page, i);
  }

  /** The backfill's first page (the newest records); what is left to read, or null when nothing is. */
  private async backfillNewest(): Promise<HistoryCursor | null> {
    this.set('backfilling');
    const e = this.engine;
    const from = e.startAt();
    this.floor = from;
    this.progress = { records: 0, pages: 0, from, to: null, reached: null, startedAt: e.now(), done: false };
    const cursor: HistoryCursor = { from, to: Number.NaN, offset: 0, collected: 0, lastKey: null };
    const more = await this.backfillPage(cursor);
    this.coveredTo = cursor.to;
    this.lastFullRecheckAt = e.now();
    if (!more) {
      this.finishBackfill();
      return null;
    }
    // Polls wait their longest interval while the history is read: the budget goes to it.
    this.recheckOwedFrom = cursor.to - this.recheckMs;
    const p = this.progress!;
    if (p.reached !== null && p.to !== null) this.liveRatePerMs = p.records / Math.max(1, p.to - p.reached);
    this.afterPoll(0, 1);
    return cursor;
  }

  /**
   * The rest of the backfill, next to the polls: up to `backfillDepth` pages in flight (the zone's
   * budget spaces them), read newest first from the window pinned at the first page, and taken in
   * offset order. Records that become visible meanwhile land at the top of the window and push the
   * older ones to higher offsets, so a page the server answered before the page above it could
   * start past the records in between: pages overlap, and when a page does not hold the last
   * record of the page above, it is taken as it is and the records between the two are read by a
   * request at its offset (answered after both, it holds both ends).
   */
  private async backfillHistory(cursor: HistoryCursor): Promise<void> {
    const e = this.engine;
    // `gap`: a request for the records between a page taken after a miss and the page above it
    // `below` null: the gap runs to the end of the window
    const ahead: { offset: number; limit: number; overlap: number; page: Promise<LogPage>; gap?: { above: string; below: string | null } }[] = [];
    const overlap = new BackfillOverlap(Math.floor(e.opts.pageLimit / 5));
    // where the last page asked ends: the next one starts `overlap` records before it
    let end = cursor.offset;
    // where the last page taken ended when it was answered (the records below it start there)
    let takenEnd = cursor.offset;
    // pages still in flight when the history is in are cancelled, not retried for nothing
    const leftOver = new AbortController();
    const signal = AbortSignal.any([e.signal, leftOver.signal]);
    const ask = (offset: number, limit: number, shared: number) => {
      const page = this.page({ from: cursor.from, to: cursor.to, order: 'desc', offset, limit }, signal);
      // a page left unread must not be an unhandled rejection
      page.catch(() => undefined);
      return { offset, limit, overlap: shared, page };
    };
    // by key, without building a page's records (pageKey reads a batch's columns)
    const keyAt = pageKey;
    const indexOf = pageIndexOf;
    // the last page is in; only gaps are still read
    let ending = false;
    try {
      for (;;) {
        await e.gate(this);
        if (this.state === 'failed' || this.state === 'stopped') return;
        if (this.state !== 'backfilling') this.set('backfilling');
        if (ending && !ahead.length) break;
        // Near the cap, one page at a time, so the cap is exact and nothing is read for nothing.
        const room = e.opts.maxBackfill - cursor.collected;
        const depth = room > e.opts.pageLimit * e.opts.backfillDepth ? e.opts.backfillDepth : 1;
        while (!ending && ahead.length < depth) {
          const limit = Math.min(e.opts.pageLimit, Math.max(MIN_BACKFILL_PAGE, room));
          const shared = Math.min(overlap.records, limit - 1, end);
          ahead.push(ask(end - shared, limit, shared));
          end += limit - shared;
        }
        const head = ahead.shift()!;
        const page = await head.page;
        if (head.gap) {
          this.backfillGap(page, cursor);
          // answered after both pages, it holds the record above; short of the page below only
          // when more than a page of records came late in between: the rest of the gap then
          const n = pageLength(page);
          const short = head.gap.below === null ? page.hasMore : indexOf(page, head.gap.below) < 0;
          if (n && short) ahead.unshift({ ...ask(head.offset + n - 1, head.limit, 1), gap: { above: keyAt(page, n - 1), below: head.gap.below } });
          continue;
        }
        if (cursor.lastKey !== null && !pageLength(page) && !page.hasMore) {
          // The window ended above this page when the server answered it, but the page taken
          // before it was answered later, after records came late and pushed the oldest further
          // down: the records from that page's last to the end are read now, after both.
          ahead.unshift({ ...ask(Math.max(0, takenEnd - 1), head.limit, 1), gap: { above: cursor.lastKey, below: null } });
        } else if (cursor.lastKey !== null && pageLength(page)) {
          const at = indexOf(page, cursor.lastKey);
          if (at < 0) {
            overlap.missed();
            // The server answered this page before the page above it, and records came late in
            // between: some between the two are missing. The page is taken as it is (the pages
            // asked with it follow it), and the gap is read now at the same offset, after both.
            ahead.unshift({ ...ask(head.offset, head.limit, head.overlap), gap: { above: cursor.lastKey, below: keyAt(page, 0) } });
          } else overlap.held(at, head.overlap);
        }
        takenEnd = head.offset + page.returned;
        if (!this.backfillCommit(page, cursor)) {
          const gaps = ahead.filter((a) => a.gap);
          ahead.length = 0;
          ahead.push(...gaps);
          ending = true;
        }
      }
      leftOver.abort();
      this.finishBackfill();
    } catch (error) {
      if (error instanceof Stopped || this.engine.stopped) return;
      this.historyFailure = error;
      this.poke();
    } finally {
      leftOver.abort();
    }
  }

  /** Puts the records of a gap between two history pages into the sink (their progress only). */
  private backfillGap(page: LogPage, cursor: HistoryCursor): void {
    const added = this.ingest(page, false, null);
    cursor.collected += added;
    const p = this.progress!;
    p.pages++;
    p.records += added;
    this.engine.changed();
  }

  /** Reads the first backfill page (newest first); false when the backfill is over. */
  private async backfillPage(cursor: HistoryCursor): Promise<boolean> {
    const e = this.engine;
    // Near the cap, still ask for a useful page: records arriving meanwhile shift the offsets of
    // a live window, so the next records can all be ones already held, and pages of one record
    // would then spend the zone's budget one request at a time. What the cap leaves out is cut
    // off here (newest first), so a full buffer never has to drop it.
    const limit = Math.min(e.opts.pageLimit, Math.max(MIN_BACKFILL_PAGE, e.opts.maxBackfill - cursor.collected));
    const page = await this.page({ from: cursor.from, order: 'desc', offset: cursor.offset, limit });
    cursor.to = page.to ?? e.now();
    cursor.from = Math.min(cursor.from, cursor.to - 1);
    return this.backfillCommit(page, cursor);
  }

  /** Puts a backfill page into the sink, up to the cap; false when the backfill is over. */
  private backfillCommit(page: LogPage, cursor: HistoryCursor): boolean {
    const e = this.engine;
    const remaining = e.opts.maxBackfill - cursor.collected;
    const used = this.newestNew(page, remaining);
    // the cap counts new records, not returned ones (a page can repeat records)
    const added = this.ingest(used, false, null);
    cursor.collected += added;
    cursor.offset += page.returned;
    const length = pageLength(page);
    if (length) cursor.lastKey = pageKey(page, length - 1);
    const p = this.progress!;
    p.to = cursor.to;
    p.pages++;
    p.records += added;
    const oldest = used.times[used.times.length - 1];
    if (oldest !== undefined) p.reached = p.reached === null ? oldest : Math.min(p.reached, oldest);
    this.engine.changed();
    const cut = pageLength(used) < length;
    if (cut || (cursor.collected >= e.opts.maxBackfill && page.hasMore)) {
      this.backfillTruncated = true;
      // Older records were left out on purpose: the polls must not bring them back.
      if (oldest !== undefined) this.floor = oldest;
      return false;
    }
    return page.hasMore && page.returned > 0;
  }

  private finishBackfill(): void {
    this.progress!.done = true;
    this.progress!.finishedAt = this.engine.now();
    this.afterPoll(0, 1);
    this.set('following');
    // a poll waiting out the long interval of the backfill waits the normal one instead
    this.rescheduled = true;
    this.poke();
  }

  /**
   * Backfill progress as the status shows it: rate, and an estimate of what is left. The same
   * object until a page comes in, so a screen comparing statuses redraws once per page.
   */
  backfillStatus(now: number): BackfillProgress | null {
    const p = this.progress;
    if (!p) return null;
    if (this.shownProgress && this.shownProgress.pages === p.pages && this.shownProgress.done === p.done) return this.shownProgress;
    const elapsed = Math.max(1, (p.finishedAt ?? now) - p.startedAt);
    const rate = (p.records * 1000) / elapsed;
    let remaining: number | null = p.done ? 0 : null;
    if (!p.done && p.to !== null && p.reached !== null && p.records > 0) {
      // records per ms of history read so far, times the history still to read; never past the cap
      const span = p.to - p.reached;
      const estimate = span > 0 ? Math.round((p.records / span) * Math.max(0, p.reached - p.from)) : 0;
      remaining = Math.max(0, Math.min(estimate, this.engine.opts.maxBackfill - p.records));
    }
    return (this.shownProgress = {
      records: p.records,
      pages: p.pages,
      from: p.from,
      to: p.to,
      reached: p.reached,
      startedAt: p.startedAt,
      ratePerSecond: Math.round(rate),
      remaining,
      etaMs: remaining === null ? null : remaining === 0 ? 0 : rate > 0 ? Math.round((remaining / rate) * 1000) : null,
      done: p.done,
    });
  }

  private async poll(): Promise<void> {
    const e = this.engine;
    const o = e.opts;
    const now = e.now();
    const covered = this.coveredTo ?? now;
    const backfilling = this.progress?.done === false;
    // While the history is read, only the records past the live end: each such request is nearly
    // all new records, and the re-check of what came late behind it is owed to the first poll after.
    const owed = backfilling ? null : this.recheckOwedFrom;
    const full = !backfilling && (owed !== null || this.lastWindowRecords < o.pageLimit || now - this.lastFullRecheckAt >= o.fullRecheckEveryMs);
    let from = backfilling ? covered : covered - (full ? this.recheckMs : o.overlapMs);
    if (owed !== null) from = Math.min(from, owed);
    // Inside retention (with a minute to spare), and not behind what a full buffer already let go.
    from = Math.max(from, this.floor, now - RETENTION_MS + 60_000, e.buffer.length >= e.buffer.capacity ? e.buffer.evictedUpTo : Number.NEGATIVE_INFINITY);
    const want = backfilling ? 'backfilling' : 'following';
    if (this.state !== want) this.set(want);
    let to: number | undefined;
    let offset = 0;
    let pages = 0;
    const before = this.records;
    // what the owed re-check finds behind the live end came late by an unknown time, up to the
    // whole backfill: it is counted as late but does not widen the lag (nor the re-check window)
    this.noLagSamplesBefore = owed !== null ? covered : Number.NEGATIVE_INFINITY;
    for (;;) {
      const page = await this.page({ from, to, order: 'asc', offset, limit: o.pageLimit });
      pages++;
      if (to === undefined) to = page.to ?? e.now();
      this.ingest(page, true, covered);
      offset += page.returned;
      if (!page.hasMore || page.returned === 0) break;
    }
    if (backfilling && to !== undefined) this.liveRatePerMs = (this.records - before) / Math.max(1, to - from);
    this.coveredTo = Math.max(covered, to ?? now);
    if (full) this.lastFullRecheckAt = now;
    if (owed !== null) this.recheckOwedFrom = null;
    this.noLagSamplesBefore = Number.NEGATIVE_INFINITY;
    this.lastWindowRecords = offset;
    this.polls++;
    if (this.records === before) this.adaptRecheck(this.decayedLag(e.now()), false);
    this.afterPoll(this.records - before, pages);
  }

  private afterPoll(found: number, pages: number): void {
    const e = this.engine;
    const o = e.opts;
    this.intervalMs = found > 0 ? o.minIntervalMs : Math.min(o.maxIntervalMs, Math.max(o.minIntervalMs, this.intervalMs * 1.5));
    const budget = e.api.budget;
    const b = budget.state(String(this.zoneId));
    const floor = (pages * budget.windowMs) / (budget.limit * o.budgetShare);
    this.intervalMs = Math.max(this.intervalMs, floor);
    if (b.waiting > 0) this.intervalMs = Math.max(this.intervalMs, 2 * o.minIntervalMs);
    if (this.progress?.done === false) {
      // While the history is read, the live end waits for about a page of new records (between the
      // longest interval and three times it): a poll is then worth a request of the budget.
      const fill = this.liveRatePerMs > 0 ? o.pageLimit / this.liveRatePerMs : Number.POSITIVE_INFINITY;
      this.intervalMs = Math.max(this.intervalMs, Math.min(3 * o.maxIntervalMs, Math.max(o.maxIntervalMs, fill)));
    }
    this.nextPollAt = e.now() + this.intervalMs;
    e.changed();
  }
}

export class FollowEngine<S extends FollowSink = LogBuffer> {
  readonly buffer: S;
  readonly api: LogPageSource;
  readonly filter: LogFilter;
  readonly opts: Required<Omit<FollowOptions, 'api' | 'zones' | 'filter' | 'sinceMs' | 'from' | 'buffer' | 'capacity' | 'now' | 'random'>>;
  readonly now: () => number;
  readonly random: () => number;
  private readonly runners: ZoneRunner<S>[];
  private readonly controller = new AbortController();
  private readonly listeners = new Set<() => void>();
  private readonly recordListeners = new Set<(entries: LogEntry[], times: number[]) => void>();
  private readonly countListeners = new Set<(count: number) => void>();
  private readonly startSpec: { sinceMs: number } | { from: number };
  private running: Promise<void> | null = null;
  private pausedFlag = false;
  private resumeWaiters: (() => void)[] = [];
  private statusVersion = 0;
  stopped = false;

  constructor(options: FollowOptions<S>) {
    this.api = options.api;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    const zones = [...new Set(options.zones)];
    if (!zones.length) throw new ApiError({ kind: 'invalid-input', message: 'follow needs at least one pull zone' });
    for (const z of zones) if (!Number.isSafeInteger(z) || z < 0) throw new ApiError({ kind: 'invalid-input', message: `invalid pull zone id ${z}` });
    normalizeFilter(options.filter ?? {});
    this.filter = { ...(options.filter ?? {}) };
    this.buffer = options.buffer ?? defaultSink<S>(options.capacity);
    const pageLimit = options.pageLimit ?? 10_000;
    if (!Number.isInteger(pageLimit) || pageLimit < 1 || pageLimit > 10_000) throw new ApiError({ kind: 'invalid-input', message: 'pageLimit must be 1..10000' });
    const minRecheckMs = options.minRecheckMs ?? 30_000;
    this.opts = {
      pageLimit,
      minIntervalMs: options.minIntervalMs ?? 1000,
      maxIntervalMs: options.maxIntervalMs ?? 10_000,
      overlapMs: options.overlapMs ?? 5000,
      initialRecheckMs: options.initialRecheckMs ?? Math.max(minRecheckMs, 120_000),
      minRecheckMs,
      maxRecheckMs: options.maxRecheckMs ?? 15 * 60_000,
      fullRecheckEveryMs: options.fullRecheckEveryMs ?? 10_000,
      maxBackfill: options.maxBackfill ?? this.buffer.capacity,
      backfillDepth: Math.max(1, Math.floor(options.backfillDepth ?? 3)),
      budgetShare: options.budgetShare ?? 0.6,
      initialLagMs: options.initialLagMs ?? 30_000,
      maxSkewMs: options.maxSkewMs ?? Number.POSITIVE_INFINITY,
    };
    if (options.from !== undefined) {
      const from = toEpochMs(options.from);
      if (Number.isNaN(from)) throw new ApiError({ kind: 'invalid-input', message: `follow: "${String(options.from)}" is not a date-time` });
      this.startSpec = { from };
    } else {
      const sinceMs = options.sinceMs ?? 15 * 60_000;
      if (!(sinceMs > 0) || sinceMs > RETENTION_MS) throw new ApiError({ kind: 'invalid-input', message: 'follow: the backfill window must be between 0 and 3 days' });
      this.startSpec = { sinceMs };
    }
    this.runners = zones.map((z) => new ZoneRunner(z, this));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Start of the backfill, clamped inside retention. */
  startAt(): number {
    const now = this.now();
    const start = 'from' in this.startSpec ? this.startSpec.from : now - this.startSpec.sinceMs;
    return Math.max(start, now - RETENTION_MS + 60_000);
  }

  /** Starts following; resolves `done` when every zone has stopped or failed. */
  start(): this {
    if (!this.running && !this.stopped) {
      this.running = Promise.all(this.runners.map((r) => r.run())).then(() => undefined);
      this.changed();
    }
    return this;
  }

  /** Resolves when every zone has stopped or failed (after stop(), or when all zones failed). */
  get done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.controller.abort();
      this.releaseWaiters();
    }
    await this.done;
    this.changed();
  }

  pause(): void {
    if (this.pausedFlag || this.stopped) return;
    this.pausedFlag = true;
    this.changed();
  }

  resume(): void {
    if (!this.pausedFlag) return;
    this.pausedFlag = false;
    this.releaseWaiters();
    this.changed();
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  /** Polls every zone now instead of waiting for its next turn. */
  pollNow(): void {
    for (const r of this.runners) r.poke();
  }

  /** @internal blocks a runner while paused. */
  async gate(runner: ZoneRunner<S>): Promise<void> {
    while (this.pausedFlag && !this.stopped) {
      runner.state = 'paused';
      this.changed();
      await new Promise<void>((resolve) => this.resumeWaiters.push(resolve));
    }
    if (this.stopped) throw new Stopped();
  }

  private releaseWaiters(): void {
    for (const w of this.resumeWaiters.splice(0)) w();
  }

  /** Buffer version + status changes: compare to know whether to redraw. */
  get version(): number {
    return this.buffer.version + this.statusVersion;
  }

  status(): FollowStatus {
    const now = this.now();
    const zones = this.runners.map((r) => r.status(now));
    let state: FollowStatus['state'];
    if (!this.running) state = 'idle';
    else if (zones.every((z) => z.state === 'failed')) state = 'failed';
    else if (this.stopped || zones.every((z) => z.state === 'failed' || z.state === 'stopped')) state = 'stopped';
    else state = this.pausedFlag ? 'paused' : 'running';
    return { state, zones, buffered: this.buffer.length, dropped: this.buffer.dropped, duplicates: this.buffer.duplicates, version: this.version };
  }

  /**
   * Records older than this (epoch ms) are not expected to arrive any more: the minimum over the
   * live zones of (coveredTo - ingestion lag), where the lag is the observed one, or initialLagMs
   * while a zone is still being learnt. Null until every live zone has backfilled. With maxSkewMs,
   * a zone in trouble lowers it by at most that much below the most advanced zone.
   */
  settledBefore(): number | null {
    const now = this.now();
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    // zones in trouble (retrying, rate limited) hold the others back by maxSkewMs at most
    let troubled = Number.NEGATIVE_INFINITY;
    let anyTroubled = false;
    const bounded = Number.isFinite(this.opts.maxSkewMs);
    for (const r of this.runners) {
      if (r.state === 'failed' || r.state === 'stopped') continue;
      const inTrouble = bounded && r.consecutiveErrors > 0;
      // older records may still come while a backfill reads history
      const backfilling = r.coveredTo === null || r.progress?.done === false;
      if (backfilling && !inTrouble) return null;
      const settled = backfilling ? Number.NEGATIVE_INFINITY : r.coveredTo! - r.holdback(now);
      if (inTrouble) {
        anyTroubled = true;
        troubled = Math.max(troubled, settled);
      }
      else min = Math.min(min, settled);
      if (settled > max) max = settled;
    }
    if (!Number.isFinite(max)) return null;
    if (anyTroubled) {
      // the healthy zones' watermark, lowered to a troubled zone's but by no more than maxSkewMs
      const floor = max - this.opts.maxSkewMs;
      const healthy = Number.isFinite(min) ? min : max;
      return Math.min(healthy, Math.max(troubled, floor));
    }
    return min;
  }

  /** Called after every change (new records or status). */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with each batch of new records (deduped, oldest first within the batch). */
  onRecords(listener: (entries: LogEntry[], times: number[]) => void): () => void {
    this.recordListeners.add(listener);
    return () => this.recordListeners.delete(listener);
  }

  /** Called with the number of new records of each batch (no record objects are built for it). */
  onRecordCount(listener: (count: number) => void): () => void {
    this.countListeners.add(listener);
    return () => this.countListeners.delete(listener);
  }

  /** @internal */
  changed(): void {
    this.statusVersion++;
    for (const l of this.listeners) l();
  }

  /** @internal */
  emitRecords(times: number[], entries: () => LogEntry[]): void {
    if (this.recordListeners.size > 0) {
      const built = entries();
      for (const l of this.recordListeners) l(built, times);
    }
    for (const l of this.countListeners) l(times.length);
    this.changed();
  }
}

/** The index of the record with this key on a page, -1 when it has none. */
function pageIndexOf(page: LogPage, key: string): number {
  const n = pageLength(page);
  for (let i = 0; i < n; i++) if (pageKey(page, i) === key) return i;
  return -1;
}
