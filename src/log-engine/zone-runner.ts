import { ApiError } from '../api/errors';
import { backoffDelay } from '../api/http';
import type { LogEntry } from '../api/logs/entry';
import type { FollowSettings } from './follow-options';
import type { FollowSink } from './follow-sink';
import type { ZoneFollowStatus, ZoneState } from './follow-status';
import { Stopped } from './follow-stopped';
import { IngestLag, nextRecheckMs } from './ingest-lag';
import { InterruptibleSleep } from './interruptible-sleep';
import type { LogPage, LogPageSource } from '../api/logs/page';
import { nextPollInterval } from './poll-cadence';
import { pollWindow } from './poll-window';
import type { LogFilter, LogQuery } from '../api/logs/query';
import { ZoneBackfill } from './zone-backfill';
import { RecordBatch } from './record-batch';

/**
 * One followed zone: its backfill, then its polls, each page retried until it is read, and the
 * records put into the engine's sink. The engine (FollowEngine) is its host.
 */

/** What a zone needs of the engine that runs it. */
export interface ZoneHost<S extends FollowSink> {
  readonly api: LogPageSource;
  readonly filter: LogFilter;
  readonly buffer: S;
  readonly opts: FollowSettings;
  readonly now: () => number;
  readonly random: () => number;
  readonly signal: AbortSignal;
  readonly stopped: boolean;
  /** Start of the backfill, clamped inside retention: the same for every zone of the engine. */
  startAt(): number;
  /** Blocks the zone while the engine is paused; throws Stopped once it stops. */
  gate(zone: ZoneRunner<S>): Promise<void>;
  changed(): void;
  emitRecords(times: number[], entries: () => LogEntry[]): void;
}

export class ZoneRunner<S extends FollowSink> {
  state: ZoneState = 'starting';
  error: ApiError | null = null;
  consecutiveErrors = 0;
  requests = 0;
  records = 0;
  late = 0;
  coveredTo: number | null = null;
  /** The `to` of the last complete full re-check (a full re-check starts a re-check window behind it). */
  recheckedTo: number | null = null;
  newest: number | null = null;
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
  /** Complete polls since the backfill (to know when the lag is learnt). */
  polls = 0;
  /** The history part of the backfill failed for good: the zone fails with this. */
  historyFailure: unknown = null;
  private readonly lag = new IngestLag();
  private readonly backfill: ZoneBackfill;
  private readonly sleep: InterruptibleSleep;
  /** The wait before the next poll was woken to be recomputed, not to poll. */
  private rescheduled = false;

  constructor(
    readonly zoneId: number,
    private readonly engine: ZoneHost<S>,
  ) {
    this.recheckMs = engine.opts.initialRecheckMs;
    this.intervalMs = engine.opts.minIntervalMs;
    this.sleep = new InterruptibleSleep(engine.signal, () => engine.now());
    this.backfill = new ZoneBackfill({
      opts: engine.opts,
      buffer: engine.buffer,
      signal: engine.signal,
      now: () => engine.now(),
      changed: () => engine.changed(),
      page: (q, signal) => this.page(q, signal),
      ingest: (page) => this.ingest(page, false, null),
      proceed: () => this.proceedWithBackfill(),
    });
  }

  /** Older records may still come: the backfill has not started or is still reading history. */
  get backfilling(): boolean {
    return this.coveredTo === null || this.backfill.inProgress;
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
      backfillTruncated: this.backfill.truncated,
      backfill: this.backfill.status(now),
      coveredTo: this.coveredTo,
      newest: this.newest,
      behindMs: this.coveredTo === null ? null : Math.max(0, now - this.coveredTo),
      ingestLagMs: Math.round(this.lag.decayed(now)),
      recheckMs: Math.round(this.recheckMs),
      intervalMs: Math.round(this.intervalMs),
      nextPollAt: this.nextPollAt,
      backoffUntil: b.backoffUntil,
    };
  }

  /** Interrupts a wait between polls. */
  poke(): void {
    if (!this.sleep.sleeping) this.rescheduled = false;
    this.sleep.interrupt();
  }

  /** Lag to hold output back by: observed, or the initial assumption while still learning. */
  holdback(now: number): number {
    return this.lag.holdback(now, this.polls, this.engine.opts.initialLagMs);
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
      if (await this.backfillNewest()) history = this.backfillHistory();
      while (!this.engine.stopped && !this.historyFailure) {
        await this.engine.gate(this);
        await this.sleep.until(this.nextPollAt ?? 0);
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
          await this.sleep.until(this.engine.now() + backoffDelay(Math.min(this.consecutiveErrors, 6), 500, 10_000, this.engine.random) + 50);
        }
      }
    }
  }

  /** Puts a page into the buffer; returns how many records were new. */
  private ingest(page: LogPage, fromPoll: boolean, previousCoveredTo: number | null): number {
    const addedTimes: number[] = [];
    const buffer = this.engine.buffer;
    // the engine's page reader makes columns; a client given another reader gives objects
    const batch = page.batch instanceof RecordBatch ? page.batch : undefined;
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
    let lag = this.lag.decayed(now);
    for (let i = 0; i < addedTimes.length; i++) {
      const t = addedTimes[i]!;
      if (this.newest === null || t > this.newest) this.newest = t;
      if (!fromPoll) continue;
      if (previousCoveredTo !== null && t < previousCoveredTo) this.late++;
      // found by the re-check owed since the backfill: when it became visible is not known
      if (t < this.noLagSamplesBefore) continue;
      const sample = windowEnd - t;
      if (sample > lag) lag = sample;
      this.lag.samples++;
    }
    this.records += addedTimes.length;
    if (fromPoll) {
      this.lag.set(lag, now);
      this.recheckMs = nextRecheckMs(this.recheckMs, lag, true, this.intervalMs, this.engine.opts);
    }
    this.engine.emitRecords(addedTimes, entries);
    return addedTimes.length;
  }

  /** The backfill's first page (the newest records); false when nothing is left to read. */
  private async backfillNewest(): Promise<boolean> {
    this.set('backfilling');
    const e = this.engine;
    const more = await this.backfill.readNewest(e.startAt());
    this.coveredTo = this.backfill.windowEnd;
    this.recheckedTo = this.coveredTo;
    this.lastFullRecheckAt = e.now();
    if (!more) {
      this.finishBackfill();
      return false;
    }
    // Polls wait their longest interval while the history is read: the budget goes to it.
    this.recheckOwedFrom = this.backfill.windowEnd - this.recheckMs;
    const rate = this.backfill.ratePerMs();
    if (rate !== null) this.liveRatePerMs = rate;
    this.afterPoll(0, 1);
    return true;
  }

  /** The history behind the first page, next to the polls; when it fails for good, so does the zone. */
  private async backfillHistory(): Promise<void> {
    try {
      if (await this.backfill.readHistory()) this.finishBackfill();
    } catch (error) {
      if (error instanceof Stopped || this.engine.stopped) return;
      this.historyFailure = error;
      this.poke();
    }
  }

  /** Before each history page: waits while paused; false when the zone stopped or failed. */
  private async proceedWithBackfill(): Promise<boolean> {
    await this.engine.gate(this);
    if (this.state === 'failed' || this.state === 'stopped') return false;
    if (this.state !== 'backfilling') this.set('backfilling');
    return true;
  }

  private finishBackfill(): void {
    this.backfill.finish(this.engine.now());
    this.afterPoll(0, 1);
    this.set('following');
    // a poll waiting out the long interval of the backfill waits the normal one instead
    this.rescheduled = true;
    this.poke();
  }

  private async poll(): Promise<void> {
    const e = this.engine;
    const o = e.opts;
    const now = e.now();
    const covered = this.coveredTo ?? now;
    const backfilling = this.backfill.inProgress;
    const { from, full, owed } = pollWindow(
      {
        now,
        coveredTo: covered,
        recheckedTo: this.recheckedTo ?? covered,
        backfilling,
        recheckOwedFrom: this.recheckOwedFrom,
        lastWindowRecords: this.lastWindowRecords,
        lastFullRecheckAt: this.lastFullRecheckAt,
        recheckMs: this.recheckMs,
        floor: this.backfill.floor,
        evictedUpTo: e.buffer.length >= e.buffer.capacity ? e.buffer.evictedUpTo : Number.NEGATIVE_INFINITY,
      },
      o,
    );
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
    if (full) {
      this.lastFullRecheckAt = now;
      this.recheckedTo = this.coveredTo;
    }
    if (owed !== null) this.recheckOwedFrom = null;
    this.noLagSamplesBefore = Number.NEGATIVE_INFINITY;
    this.lastWindowRecords = offset;
    this.polls++;
    // A poll that found nothing is no sign that the lag got shorter (quiet zones lag the most):
    // the window may grow on it (a longer interval) but shrinks only as records come in.
    if (this.records === before) this.recheckMs = Math.max(this.recheckMs, nextRecheckMs(this.recheckMs, this.lag.decayed(e.now()), false, this.intervalMs, o));
    this.afterPoll(this.records - before, pages);
  }

  private afterPoll(found: number, pages: number): void {
    const e = this.engine;
    const budget = e.api.budget;
    this.intervalMs = nextPollInterval(
      {
        previousMs: this.intervalMs,
        found,
        pages,
        budget,
        waiting: budget.state(String(this.zoneId)).waiting,
        backfilling: this.backfill.inProgress,
        liveRatePerMs: this.liveRatePerMs,
      },
      e.opts,
    );
    this.nextPollAt = e.now() + this.intervalMs;
    e.changed();
  }
}
