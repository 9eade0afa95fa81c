import { LogBuffer } from './buffer';
import type { LogEntry } from '../api/logs/entry';
import {
  backfillStart,
  backfillStartAt,
  followFilter,
  followSettings,
  followedZones,
  type BackfillStart,
  type FollowOptions,
  type FollowSettings,
} from './follow-options';
import type { FollowSink } from './follow-sink';
import type { FollowStatus } from './follow-status';
import { Stopped } from './follow-stopped';
import type { LogPageSource } from '../api/logs/page';
import type { LogFilter } from '../api/logs/query';
import { ZoneRunner, type ZoneHost } from './zone-runner';

export type { FollowOptions } from './follow-options';
export type { FollowSink } from './follow-sink';
export type { BackfillProgress, FollowStatus, ZoneFollowStatus, ZoneState } from './follow-status';

/*
 * Follow engine: tails one or more pull zones through the v2 API into one LogBuffer.
 *
 * Per zone:
 * 1. Backfill: [start, now) newest first (order=desc), offset paging while hasMore, up to the
 *    buffer's capacity; `start` is one instant for every zone, pinned when the engine starts. The
 *    first page's `query.to` (the server's clock) pins the window. After that first page the
 *    polls start, slowly, while the history behind it is read with a few
 *    pages in flight inside the zone's budget (see ZoneBackfill.readHistory for why no page is skipped).
 *    Meanwhile a poll reads only what is past the live end, once about a page of it is there
 *    (maxIntervalMs to 3x that), so the budget goes to new records; the re-check of late records
 *    behind the live end waits for the first poll after the backfill.
 * 2. Polls: each poll reads [coveredTo - recheck, now) oldest first, paging while hasMore, where
 *    coveredTo is the `to` of the last complete poll. The window covers the records newer than the
 *    newest seen (minus an overlap) and, behind them, a trailing re-check window for late records:
 *    the platform makes records visible only after an ingestion lag, so a record can appear after
 *    newer ones were returned. Records are deduped by request id and inserted in place.
 *    When the re-check window is too big for one page, it is read in full only every
 *    `fullRecheckEveryMs`, and the other polls read [coveredTo - overlap, now); a full re-check
 *    then starts a re-check window behind the end of the last full one (not of the last poll:
 *    one answered after an outage would leave the records that came late meanwhile behind it).
 * 3. The re-check width adapts to the lag observed: each newly seen record tells how long after
 *    its timestamp it was first returned (window end - timestamp). The window is kept at about
 *    twice the largest recent lag (between minRecheckMs and maxRecheckMs), grows at once when a
 *    record arrives close to its edge, and shrinks slowly as records come in with shorter lags
 *    (never on polls that found nothing: a quiet zone's hour without records says nothing of
 *    its lag).
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
 * The parts: zone-runner.ts (one zone: its run loop, pages, records), zone-backfill.ts (1, and the
 * history read next to the polls), poll-window.ts (2), ingest-lag.ts (3), poll-cadence.ts (4),
 * follow-options.ts (the options and their defaults), follow-status.ts (what status() reports).
 *
 * Subscribers (`subscribe`) are called after every change (records or status); `onRecords` gets
 * each batch of new records; `settledBefore()` is the time before which no more records are
 * expected (for output that must be strictly ordered).
 */

/** A LogBuffer when the caller gave no sink (S is then LogBuffer, the parameter's default). */
function defaultSink<S extends FollowSink>(capacity: number | undefined): S {
  return new LogBuffer(capacity) as FollowSink as S;
}

export class FollowEngine<S extends FollowSink = LogBuffer> implements ZoneHost<S> {
  readonly buffer: S;
  readonly api: LogPageSource;
  readonly filter: LogFilter;
  readonly opts: FollowSettings;
  readonly now: () => number;
  readonly random: () => number;
  private readonly runners: ZoneRunner<S>[];
  private readonly controller = new AbortController();
  private readonly listeners = new Set<() => void>();
  private readonly recordListeners = new Set<(entries: LogEntry[], times: number[]) => void>();
  private readonly countListeners = new Set<(count: number) => void>();
  private readonly backfillFrom: BackfillStart;
  /** The backfill start of every zone, pinned when the engine starts (null before). */
  private pinnedStart: number | null = null;
  private running: Promise<void> | null = null;
  private pausedFlag = false;
  private resumeWaiters: (() => void)[] = [];
  private statusVersion = 0;
  stopped = false;

  constructor(options: FollowOptions<S>) {
    this.api = options.api;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    const zones = followedZones(options.zones);
    this.filter = followFilter(options.filter);
    this.buffer = options.buffer ?? defaultSink<S>(options.capacity);
    this.opts = followSettings(options, this.buffer.capacity);
    this.backfillFrom = backfillStart(options);
    this.runners = zones.map((z) => new ZoneRunner(z, this));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Start of the backfill, clamped inside retention: one instant for every zone, pinned when the
   * engine starts. Each zone reading the clock as its own backfill began gave the later zones a
   * window a few ms shorter (the zones before them had sent a request meanwhile): the records of
   * those first ms, there for the first zone, were never read for the others.
   */
  startAt(): number {
    return this.pinnedStart ?? backfillStartAt(this.backfillFrom, this.now());
  }

  /** Starts following; resolves `done` when every zone has stopped or failed. */
  start(): this {
    if (!this.running && !this.stopped) {
      this.pinnedStart = this.startAt();
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
      const backfilling = r.backfilling;
      if (backfilling && !inTrouble) return null;
      const settled = backfilling ? Number.NEGATIVE_INFINITY : r.coveredTo! - r.holdback(now);
      if (inTrouble) {
        anyTroubled = true;
        troubled = Math.max(troubled, settled);
      } else min = Math.min(min, settled);
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
