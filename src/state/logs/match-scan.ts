import type { LogBuffer } from '../../log-engine/buffer';
import type { MatchIndex, OrderedSource } from '../../log-records/filter';
import { SCAN_DICT_FIELDS, type ScanDictionaries, type ScanStretchResult, type ScanWorker } from '../../log-records/scan-worker';

/** Records per stretch a worker thread scans before it reports (about 5-15 ms of its time). */
const WORKER_STRETCH = 32_768;

/** Whether sequence number `seq` was given before `next` (they count round at 2^32). */
function givenBefore(seq: number, next: number): boolean {
  const d = (next - seq) >>> 0;
  return d > 0 && d < 0x80000000;
}

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

  /**
   * Runs the scan of the records held now in worker threads (`workers`, the stretches dealt out in
   * turn), which read the store's columns in shared memory: stretches outward from the start,
   * newer and older in turn, as step() would. Each stretch's matches are checked here (a record evicted meanwhile is left
   * out; one that arrived meanwhile is MatchIndex.add's) and put in the index, and the region
   * grows. What the worker could not decide (rare field forms) is tested here. When the worker
   * cannot run, or something is left (records older than all that arrived meanwhile), the scan
   * goes on in slices (run()). The main thread's own scanning (fill, reach, newer, older) goes on
   * meanwhile; a stretch it already covered only adds what it did not.
   */
  runInWorker(workers: readonly ScanWorker[], buffer: LogBuffer, pattern: RegExp, sliceMs: number, onProgress: () => void, stretch = WORKER_STRETCH): void {
    if (this.cancelled || this.timer !== null || this.stopWorker !== null) return;
    // after the frame being built (it fills the screen's matches here first)
    const soon = setImmediate(() => {
      this.stopWorker = null;
      if (!this.cancelled) this.startWorkers(workers, buffer, pattern, sliceMs, onProgress, stretch);
    });
    this.stopWorker = () => clearImmediate(soon);
  }

  private startWorkers(workers: readonly ScanWorker[], buffer: LogBuffer, pattern: RegExp, sliceMs: number, onProgress: () => void, stretch: number): void {
    const cols = buffer.columns;
    const next = cols.nextSequence;
    const order = buffer.orderSnapshot();
    const n = order.length;
    // the plan: stretches of the records as they are now, never splitting a run of equal times
    const time = (i: number) => cols.time(order[i]!);
    const at = (t: number) => {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (time(mid) < t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const plan: { side: 1 | -1; from: number; to: number; edge: number }[] = [];
    const newer: typeof plan = [];
    for (let a = at(this.hi); a < n && !this.newerDone;) {
      let b = Math.min(n, a + stretch);
      while (b < n && time(b) === time(b - 1)) b++;
      newer.push({ side: 1, from: a, to: b, edge: b < n && time(b) <= this.end ? time(b) : Number.POSITIVE_INFINITY });
      a = b;
    }
    const older: typeof plan = [];
    for (let b = at(this.lo); b > 0 && !this.olderDone;) {
      let a = Math.max(0, b - stretch);
      while (a > 0 && time(a - 1) === time(a)) a--;
      older.push({ side: -1, from: a, to: b, edge: time(a) });
      b = a;
    }
    for (let i = 0; i < Math.max(newer.length, older.length); i++) {
      if (i < newer.length) plan.push(newer[i]!);
      if (i < older.length) plan.push(older[i]!);
    }
    const dicts = {} as ScanDictionaries;
    for (const f of SCAN_DICT_FIELDS) dicts[f] = cols.dicts[f].valuesSnapshot();
    const slices = () => {
      this.stopAll();
      this.run(sliceMs, onProgress);
    };
    if (plan.length === 0) return slices();
    // stretch i goes to worker i % k; results are put in the index in the plan's order (each side
    // grows stretch by stretch), those that come early wait for the ones before them
    const k = workers.length;
    const results: (ScanStretchResult | undefined)[] = [];
    let applied = 0;
    const busy = new Array<number>(k).fill(0);
    this.workerBusyMs = 0;
    const stops: (() => void)[] = [];
    workers.forEach((worker, w) => {
      const mine = plan.map((_, i) => i).filter((i) => i % k === w);
      if (mine.length === 0) return;
      const stretches = new Int32Array(mine.length * 2);
      mine.forEach((i, j) => {
        stretches[2 * j] = plan[i]!.from;
        stretches[2 * j + 1] = plan[i]!.to;
      });
      let left = mine.length;
      stops.push(
        worker.scan({ source: pattern.source, flags: pattern.flags, cols: cols.scanColumns(), order, stretches }, dicts, {
          onStretch: (r: ScanStretchResult) => {
            if (this.cancelled) return;
            busy[w] = r.busyMs;
            this.workerBusyMs = busy.reduce((x, y) => x + y, 0);
            if (--left === 0) worker.finished(r.id);
            results[mine[r.stretch]!] = r;
            let took = false;
            while (applied < plan.length && results[applied] !== undefined) {
              this.absorb(plan[applied]!, results[applied]!, order, buffer, next);
              results[applied++] = undefined;
              took = true;
            }
            if (!took) return;
            if (applied === plan.length) {
              this.stopWorker = null;
              if (!this.done) slices();
            }
            onProgress();
          },
          onFailure: () => {
            if (!this.cancelled) slices();
          },
        }),
      );
    });
    this.stopWorker = () => {
      for (const stop of stops) stop();
    };
  }

  private stopAll(): void {
    const stop = this.stopWorker;
    this.stopWorker = null;
    stop?.();
  }

  /** Time the worker threads spent on this scan so far (ms; for benchmarks). */
  workerBusyMs = 0;
  private stopWorker: (() => void) | null = null;

  /** One stretch's matches from the worker: checked, put among the matches, the region grown. */
  private absorb(s: { side: 1 | -1; from: number; to: number; edge: number }, r: ScanStretchResult, order: Int32Array, buffer: LogBuffer, next: number): void {
    const { index } = this;
    const cols = buffer.columns;
    const found: number[] = [];
    const foundTimes: number[] = [];
    const take = (slot: number, seq: number) => {
      // evicted (the slot is empty or another record's), or arrived after the scan started
      if (cols.seqs[slot] !== seq || !givenBefore(seq, next)) return;
      const t = cols.time(slot);
      if (index.indexOf(seq, t) >= 0) return;
      found.push(seq);
      foundTimes.push(t);
    };
    const { hits, seqs, unsure } = r;
    let i = 0;
    let j = 0;
    while (i < hits.length || j < unsure.length) {
      if (j >= unsure.length || (i < hits.length && hits[i]! < unsure[j]!)) {
        take(order[hits[i]!]!, seqs[i]!);
        i++;
      } else {
        const slot = order[unsure[j++]!]!;
        if (index.test(slot)) take(slot, cols.seqs[slot]!);
      }
    }
    index.merge(found, foundTimes, this.source);
    if (s.side === 1) this.hi = Math.max(this.hi, s.edge);
    else this.lo = Math.min(this.lo, s.edge);
    this.tested += s.to - s.from;
    this.versionCounter++;
  }

  cancel(): void {
    this.cancelled = true;
    this.stopWorker?.();
    this.stopWorker = null;
    if (this.timer !== null) {
      clearTimeout(this.timer as ReturnType<typeof setTimeout>);
      clearImmediate(this.timer as ReturnType<typeof setImmediate>);
      this.timer = null;
    }
  }
}
