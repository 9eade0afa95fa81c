import type { LogEntry } from '../api/logs/entry';
import type { MatchIndex, OrderedSource } from '../logs-view/filter';

/**
 * Fills a MatchIndex for a new pattern without holding the main thread: the buffer's records as
 * they were when the pattern was set (a snapshot) are scanned outward from a start position (the
 * record on screen), in both directions, a few milliseconds at a time. Records that arrive
 * meanwhile are added to the index by the caller (MatchIndex.add) and records the buffer lets go
 * are reported with evicted(). So at every moment the index holds exactly the matches among the
 * buffer's records whose times lie in the scanned region (region()), and once done, exactly what
 * a full scan finds.
 *
 * The region never splits a run of equal times: a chunk is widened to take the whole run, so
 * "every record with a time in [from, to)" is a precise statement.
 */
export class MatchScan {
  private readonly snap: LogEntry[] = [];
  private readonly times: Float64Array;
  /** Scanned: snapshot positions [lo, hi). */
  private lo: number;
  private hi: number;
  /** The first snapshot record the buffer still holds (evictions take the oldest). */
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | null = null;
  private versionCounter = 0;
  private cancelled = false;

  constructor(
    private readonly source: OrderedSource,
    private readonly index: MatchIndex,
    /** Where to start: the time of the record on screen; null for the newest end. */
    start: number | null,
    private readonly chunk = 2048,
  ) {
    const n = source.length;
    this.times = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.snap.push(source.get(i)!);
      this.times[i] = source.time(i);
    }
    let p = n;
    if (start !== null) {
      let a = 0;
      let b = n;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (this.times[mid]! < start) a = mid + 1;
        else b = mid;
      }
      p = a;
    }
    this.lo = p;
    this.hi = p;
  }

  /** Changes each time the region grows. */
  get version(): number {
    return this.versionCounter;
  }

  get olderDone(): boolean {
    return this.lo <= this.live;
  }

  get newerDone(): boolean {
    return this.hi >= this.snap.length;
  }

  get done(): boolean {
    return this.olderDone && this.newerDone;
  }

  /** Records scanned so far and in all (for "counting…" and tests). */
  get progress(): { scanned: number; total: number } {
    return { scanned: this.hi - this.lo, total: this.snap.length - this.live };
  }

  /**
   * The index positions [from, to) whose matches are final: every record with a time in the
   * scanned region has been tested (and the region's open sides, once done, reach the ends).
   */
  region(): { from: number; to: number } {
    const index = this.index;
    const n = this.snap.length;
    // lo at the end (started at the newest): only records newer than the snapshot are known
    const from = this.olderDone ? 0 : this.lo < n ? index.lowerBound(this.times[this.lo]!) : index.upperBound(this.times[n - 1]!);
    const to = this.newerDone ? index.length : index.lowerBound(this.times[this.hi]!);
    return { from, to: Math.max(from, to) };
  }

  /** The buffer let these records go (always its oldest). */
  evicted(gone: ReadonlySet<LogEntry>): void {
    const before = this.live;
    while (this.live < this.snap.length && gone.has(this.snap[this.live]!)) this.live++;
    if (this.live === before) return;
    if (this.lo < this.live) this.lo = this.live;
    if (this.hi < this.live) this.hi = this.live;
    this.versionCounter++;
  }

  /** Scans the next stretch towards newer records; false when that side is done. */
  newer(records = this.chunk): boolean {
    if (this.newerDone) return false;
    const from = Math.max(this.hi, this.live);
    let to = Math.min(this.snap.length, from + records);
    while (to < this.snap.length && this.times[to] === this.times[to - 1]) to++;
    this.take(from, to);
    this.hi = to;
    this.versionCounter++;
    return true;
  }

  /** Scans the next stretch towards older records; false when that side is done. */
  older(records = this.chunk): boolean {
    if (this.olderDone) return false;
    const to = this.lo;
    let from = Math.max(this.live, to - records);
    while (from > this.live && this.times[from - 1] === this.times[from]) from--;
    this.take(from, to);
    this.lo = from;
    this.versionCounter++;
    return true;
  }

  private take(from: number, to: number): void {
    const test = this.index.test;
    const found: LogEntry[] = [];
    const foundTimes: number[] = [];
    for (let i = from; i < to; i++) {
      const e = this.snap[i]!;
      if (test(e)) {
        found.push(e);
        foundTimes.push(this.times[i]!);
      }
    }
    this.index.merge(found, foundTimes, this.source);
  }

  /** Scans until `ms` have passed or all is done, newer and older stretches in turn. */
  step(ms: number): void {
    const end = performance.now() + ms;
    let turn = 0;
    while (!this.done && performance.now() < end) {
      if (turn++ % 2 === 0) {
        if (!this.newer()) this.older();
      } else if (!this.older()) this.newer();
    }
  }

  /** Scans everything left, now. */
  finish(): void {
    while (this.newer());
    while (this.older());
  }

  /**
   * Makes sure `want` matches are known after (dir 1) or before (-1) the time `t`, or that side
   * is done, scanning for at most `ms`.
   */
  fill(t: number, dir: 1 | -1, want: number, ms: number): void {
    const end = performance.now() + ms;
    for (;;) {
      const { from, to } = this.region();
      const at = Math.min(to, Math.max(from, this.index.lowerBound(t)));
      const known = dir === 1 ? to - at : at - from;
      if (known >= want) return;
      if (!(dir === 1 ? this.newer() : this.older())) return;
      if (performance.now() >= end) return;
    }
  }

  /** Grows the region until it takes in the time `t` (all at once: the view jumped outside it). */
  reachTime(t: number): void {
    while (!this.olderDone && !(this.lo < this.snap.length && t >= this.times[this.lo]!)) this.older();
    while (!this.newerDone && !(t < this.times[this.hi]!)) this.newer();
  }

  /** Runs step() in slices of `sliceMs` (other work runs in between) until done or cancelled. */
  run(sliceMs: number, onProgress: () => void, firstDelayMs = 0): void {
    if (this.timer !== null || this.cancelled) return;
    const slice = () => {
      this.timer = null;
      if (this.cancelled) return;
      this.step(sliceMs);
      onProgress();
      if (!this.done && !this.cancelled) this.timer = setImmediate(slice);
    };
    this.timer = setTimeout(slice, firstDelayMs);
  }

  cancel(): void {
    this.cancelled = true;
    if (this.timer !== null) {
      clearTimeout(this.timer as ReturnType<typeof setTimeout>);
      clearImmediate(this.timer as ReturnType<typeof setImmediate>);
      this.timer = null;
    }
  }
}
