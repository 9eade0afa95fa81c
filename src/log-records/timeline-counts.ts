import { CLASS_SLOTS } from './timeline';

/** Granules per chunk: a chunk of counts is allocated the first time one of its granules counts. */
const CHUNK = 1024;

/**
 * Counts per status class for every `granule` ms of time (epoch-aligned), in chunks of typed
 * arrays: memory follows the span of time that has records, not their number.
 */
class GranuleCounts {
  private readonly chunks = new Map<number, Int32Array>();
  /** Records counted in each chunk: an emptied chunk is let go (the window slides on for days). */
  private readonly held = new Map<number, number>();

  constructor(readonly granule: number) {}

  bump(t: number, cls: number, by: number): void {
    const g = Math.floor(t / this.granule);
    const c = Math.floor(g / CHUNK);
    let chunk = this.chunks.get(c);
    if (chunk === undefined) {
      chunk = new Int32Array(CHUNK * CLASS_SLOTS);
      this.chunks.set(c, chunk);
    }
    chunk[(g - c * CHUNK) * CLASS_SLOTS + cls]! += by;
    const left = (this.held.get(c) ?? 0) + by;
    if (left === 0) {
      this.chunks.delete(c);
      this.held.delete(c);
    } else this.held.set(c, left);
  }

  /** Chunks allocated now. */
  get size(): number {
    return this.chunks.size;
  }

  /** Adds the counts of granules [from, to) to `out` at `at` (CLASS_SLOTS values). */
  sum(from: number, to: number, out: Float64Array, at: number): void {
    let g = from;
    while (g < to) {
      const c = Math.floor(g / CHUNK);
      const end = Math.min(to, (c + 1) * CHUNK);
      const chunk = this.chunks.get(c);
      if (chunk !== undefined) {
        for (let x = (g - c * CHUNK) * CLASS_SLOTS, stop = (end - c * CHUNK) * CLASS_SLOTS; x < stop; x += CLASS_SLOTS) {
          for (let k = 0; k < CLASS_SLOTS; k++) out[at + k]! += chunk[x + k]!;
        }
      }
      g = end;
    }
  }

  clear(): void {
    this.chunks.clear();
    this.held.clear();
  }
}

const SECOND = 1000;
const MINUTE = 60_000;

/**
 * Requests per status class over time, kept incrementally: add() a record when it comes,
 * remove() it when it leaves. Counts are held per second and per minute, so the counts of any
 * buckets (a whole number of seconds, epoch-aligned) cost O(buckets x granules per bucket),
 * never O(records): what a frame of the timeline panel reads, and what `--histogram` prints.
 */
export class TimelineCounts {
  private readonly seconds = new GranuleCounts(SECOND);
  private readonly minutes = new GranuleCounts(MINUTE);
  private count = 0;
  private versionCounter = 0;

  /** Records counted now. */
  get records(): number {
    return this.count;
  }

  /** Chunks of counts allocated (memory follows the span of time with records). */
  get chunks(): number {
    return this.seconds.size + this.minutes.size;
  }

  /** Bumped by every change. */
  get version(): number {
    return this.versionCounter;
  }

  /** A record at epoch ms `t` of status class `cls` (statusClassOf) comes in. */
  add(t: number, cls: number): void {
    this.bump(t, cls, 1);
  }

  /** A record counted before leaves. */
  remove(t: number, cls: number): void {
    this.bump(t, cls, -1);
  }

  private bump(t: number, cls: number, by: number): void {
    if (!Number.isFinite(t)) return;
    this.seconds.bump(t, cls, by);
    this.minutes.bump(t, cls, by);
    this.count += by;
    this.versionCounter++;
  }

  clear(): void {
    this.seconds.clear();
    this.minutes.clear();
    this.count = 0;
    this.versionCounter++;
  }

  /**
   * Counts of `n` buckets of `size` ms (a whole number of seconds) from the one starting at
   * `first` (a multiple of `size`): CLASS_SLOTS values per bucket (2xx, 3xx, 4xx, 5xx, other).
   */
  buckets(first: number, size: number, n: number, out = new Float64Array(n * CLASS_SLOTS)): Float64Array {
    if (size < SECOND || size % SECOND !== 0) throw new RangeError(`bucket size must be a whole number of seconds, got ${size} ms`);
    out.fill(0, 0, n * CLASS_SLOTS);
    const level = size % MINUTE === 0 ? this.minutes : this.seconds;
    const per = size / level.granule;
    const g0 = Math.floor(first / level.granule);
    for (let b = 0; b < n; b++) level.sum(g0 + b * per, g0 + (b + 1) * per, out, b * CLASS_SLOTS);
    return out;
  }
}

/** A bucket's total (every class, "other" included). */
export function bucketTotal(counts: ArrayLike<number>, bucket: number): number {
  let n = 0;
  for (let k = 0; k < CLASS_SLOTS; k++) n += counts[bucket * CLASS_SLOTS + k]!;
  return n;
}
