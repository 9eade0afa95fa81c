import type { MatchIndex, OrderedSource } from '../log-records/filter';

/**
 * Fills a MatchIndex for a new pattern without holding the main thread: the buffer is scanned
 * outward from a start time (the record on screen) in both directions, a few milliseconds at a
 * time. Records that arrive meanwhile are added to the index by the caller (MatchIndex.add), so
 * a scanned match the index already holds is one of them and is not taken twice; evicted ones
 * leave the index through MatchIndex.remove. So at every moment the index holds exactly the
 * matches among the buffer's records with a time in the scanned region [lo, hi) (region()), and
 * once done, exactly what a full scan finds. No copy of the buffer is made: a copy of 100,000
 * records per pattern was most of the garbage (and the collector's pauses) of a count.
 *
 * A stretch never splits a run of equal times (it is widened to take the whole run), so the
 * region is a statement about times.
 */
export class MatchScan {
  /** Scanned: every record with a time in [lo, hi). */
  private lo: number;
  private hi: number;
  /** The newest time when the pattern was set: anything later came through MatchIndex.add. */
  private readonly end: number;
  private timer: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate> | null = null;
  private versionCounter = 0;
  private cancelled = false;
  /** Records tried so far, of `total` (the records held when the pattern was set): progress. */
  tested = 0;
  readonly total: number;

  constructor(
    private readonly source: OrderedSource,
    private readonly index: MatchIndex,
    /** Where to start: the time of the record on screen; null for the newest end. */
    start: number | null,
    /** Records per stretch: about 1 ms (a record is tried on up to ten fields). */
    private readonly chunk = 512,
  ) {
    this.end = source.length > 0 ? source.time(source.length - 1) : Number.NEGATIVE_INFINITY;
    this.total = source.length;
    const t = start ?? Number.POSITIVE_INFINITY;
    this.lo = t;
    this.hi = t;
  }

  /** Changes each time the region grows. */
  get version(): number {
    return this.versionCounter;
  }

  get olderDone(): boolean {
    return this.source.length === 0 || this.lo <= this.source.time(0);
  }

  get newerDone(): boolean {
    return this.hi > this.end;
  }

  get done(): boolean {
    return this.olderDone && this.newerDone;
  }

  /**
   * The index positions [from, to) whose matches are final: every record with a time in the
   * scanned region has been tested (and the region's sides, once done, reach the ends).
   */
  region(): { from: number; to: number } {
    const index = this.index;
    const from = this.olderDone ? 0 : index.lowerBound(this.lo);
    const to = this.newerDone ? index.length : index.lowerBound(this.hi);
    return { from, to: Math.max(from, to) };
  }

  /** Scans the next stretch towards newer records; false when that side is done. */
  newer(records = this.chunk): boolean {
    if (this.newerDone) return false;
    const src = this.source;
    const from = src.lowerBound(this.hi);
    let to = Math.min(src.length, from + records);
    while (to < src.length && src.time(to) === src.time(to - 1)) to++;
    this.take(from, to);
    this.hi = to < src.length && src.time(to) <= this.end ? src.time(to) : Number.POSITIVE_INFINITY;
    this.versionCounter++;
    return true;
  }

  /** Scans the next stretch towards older records; false when that side is done. */
  older(records = this.chunk): boolean {
    if (this.olderDone) return false;
    const src = this.source;
    const to = src.lowerBound(this.lo);
    let from = Math.max(0, to - records);
    while (from > 0 && src.time(from - 1) === src.time(from)) from--;
    this.take(from, to);
    this.lo = from < src.length ? src.time(from) : this.lo;
    this.versionCounter++;
    return true;
  }

  private take(from: number, to: number): void {
    const { index, source } = this;
    const test = index.test;
    const found: number[] = [];
    const foundTimes: number[] = [];
    for (let i = from; i < to; i++) {
      if (!test(source.slotAt(i))) continue;
      const t = source.time(i);
      const seq = source.seqAt(i);
      // arrived after the pattern was set: MatchIndex.add has it already
      if (index.indexOf(seq, t) >= 0) continue;
      found.push(seq);
      foundTimes.push(t);
    }
    this.tested += to - from;
    index.merge(found, foundTimes, source);
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
      // small stretches: a screen needs few matches
      if (!(dir === 1 ? this.newer(256) : this.older(256))) return;
      if (performance.now() >= end) return;
    }
  }

  /** Grows the region until it takes in the time `t` (all at once: the view jumped outside it). */
  reachTime(t: number): void {
    // at its edge (a new scan starts at t) is inside enough: fill() takes it from there
    while (t < this.lo && this.older());
    while (t > this.hi && this.newer());
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
