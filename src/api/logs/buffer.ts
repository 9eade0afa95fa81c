import { entryKey, parseTimestamp, type LogEntry } from './entry';
import { KeySet } from './key-set';

export const DEFAULT_BUFFER_CAPACITY = 100_000;

export type BufferListener = (version: number) => void;

/**
 * Log records in timestamp order, outside React: a circular array with a fixed capacity.
 *
 * - insert() dedupes by request id, sorts the batch and merges it in place: appending newer
 *   records and prepending older ones cost O(batch); a late record lands in place at
 *   O(records after it), which is small because late records are recent.
 * - When full, the oldest records go first; every record that could not be kept (evicted, or
 *   older than everything in a full buffer) counts in `dropped`.
 * - Index 0 is the oldest record. Indexes move when records are inserted or evicted: read
 *   `version` (bumped on every change) and re-read what you show when it changes.
 * - Equal timestamps keep their arrival order.
 */
export class LogBuffer {
  readonly capacity: number;
  private entries: (LogEntry | undefined)[];
  private times: Float64Array;
  private head = 0;
  private size = 0;
  private readonly keys: KeySet;
  private readonly listeners = new Set<BufferListener>();
  private versionCounter = 0;
  /** Records that could not be kept for lack of room. */
  dropped = 0;
  /** Records refused because the buffer already held the same request id. */
  duplicates = 0;
  /** Timestamp of the newest record evicted so far (-Infinity while nothing was evicted). */
  evictedUpTo = Number.NEGATIVE_INFINITY;

  constructor(capacity = DEFAULT_BUFFER_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`buffer capacity must be a whole number of at least 1, got ${capacity}`);
    this.capacity = capacity;
    this.keys = new KeySet(Math.min(capacity, 1 << 17));
    this.entries = new Array<LogEntry | undefined>(capacity);
    this.times = new Float64Array(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** Bumped on every change; subscribers get it too. */
  get version(): number {
    return this.versionCounter;
  }

  /** The record at `index` (0 = oldest). */
  get(index: number): LogEntry | undefined {
    if (index < 0 || index >= this.size) return undefined;
    return this.entries[this.phys(index)];
  }

  /** Epoch ms of the record at `index`, NaN when out of range. */
  time(index: number): number {
    if (index < 0 || index >= this.size) return Number.NaN;
    return this.times[this.phys(index)]!;
  }

  get oldestTime(): number | null {
    return this.size ? this.times[this.head]! : null;
  }

  get newestTime(): number | null {
    return this.size ? this.times[this.phys(this.size - 1)]! : null;
  }

  /** Whether a record with this request id (or stand-in key) is held. */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** First index whose time is >= t (binary search). */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[this.phys(mid)]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose time is > t. */
  upperBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[this.phys(mid)]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Records [start, end) as a new array (for the rows a screen shows). */
  slice(start = 0, end = this.size): LogEntry[] {
    const s = Math.max(0, start);
    const e = Math.min(this.size, end);
    const out: LogEntry[] = [];
    for (let i = s; i < e; i++) out.push(this.entries[this.phys(i)]!);
    return out;
  }

  toArray(): LogEntry[] {
    return this.slice();
  }

  /** Indexes of the records that pass `test`, oldest first, written into `out` (cleared first). */
  scan(test: (e: LogEntry) => boolean, out: number[] = [], start = 0, end = this.size): number[] {
    out.length = 0;
    const cap = this.capacity;
    let p = this.head + Math.max(0, start);
    if (p >= cap) p -= cap;
    const stop = Math.min(this.size, end);
    for (let i = Math.max(0, start); i < stop; i++) {
      if (test(this.entries[p]!)) out.push(i);
      if (++p === cap) p = 0;
    }
    return out;
  }

  subscribe(listener: BufferListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.entries = new Array<LogEntry | undefined>(this.capacity);
    this.head = 0;
    this.size = 0;
    this.keys.clear();
    this.evictedUpTo = Number.NEGATIVE_INFINITY;
    this.bump();
  }

  /**
   * Adds records (any order, duplicates allowed). Returns how many were new and kept; when `added`
   * is given, the new records are appended to it in timestamp order (and their times to
   * `addedTimes`). `times` (epoch ms, same order as `batch`) saves parsing the timestamps again.
   */
  insert(batch: readonly LogEntry[], times?: ArrayLike<number>, added?: LogEntry[], addedTimes?: number[]): number {
    const fresh: LogEntry[] = [];
    const freshTimes: number[] = [];
    const keys = this.keys;
    for (let i = 0; i < batch.length; i++) {
      const e = batch[i]!;
      const t = times ? times[i]! : parseTimestamp(e.timestamp);
      if (Number.isNaN(t)) continue;
      // One hash lookup: add, and see whether it was there.
      if (!keys.add(e.requestId ?? entryKey(e))) {
        this.duplicates++;
        continue;
      }
      fresh.push(e);
      freshTimes.push(t);
    }
    const k = fresh.length;
    if (k === 0) return 0;
    sortBatch(fresh, freshTimes);
    const droppedBefore = this.dropped;
    this.merge(fresh, freshTimes);
    let kept = k;
    if (this.dropped === droppedBefore) {
      if (added) for (let i = 0; i < k; i++) added.push(fresh[i]!);
      if (addedTimes) for (let i = 0; i < k; i++) addedTimes.push(freshTimes[i]!);
    } else {
      // Some new records may have been dropped at once (older than everything in a full buffer).
      kept = 0;
      for (let i = 0; i < k; i++) {
        const e = fresh[i]!;
        if (!keys.has(e.requestId ?? entryKey(e))) continue;
        kept++;
        added?.push(e);
        addedTimes?.push(freshTimes[i]!);
      }
    }
    this.bump();
    return kept;
  }

  private phys(index: number): number {
    const p = this.head + index;
    return p >= this.capacity ? p - this.capacity : p;
  }

  private bump(): void {
    this.versionCounter++;
    for (const l of this.listeners) l(this.versionCounter);
  }

  private forget(e: LogEntry, t: number): void {
    this.keys.delete(e.requestId ?? entryKey(e));
    this.dropped++;
    if (t > this.evictedUpTo) this.evictedUpTo = t;
  }

  private evictHead(count: number): void {
    for (let i = 0; i < count; i++) {
      const e = this.entries[this.head]!;
      this.forget(e, this.times[this.head]!);
      this.entries[this.head] = undefined;
      if (++this.head === this.capacity) this.head = 0;
      this.size--;
    }
  }

  private merge(batch: LogEntry[], bt: number[]): void {
    const k = batch.length;
    const cap = this.capacity;
    // Newer than everything: append, evicting the oldest when full.
    if (this.size === 0 || bt[0]! >= this.times[this.phys(this.size - 1)]!) {
      let from = 0;
      if (k > cap) {
        for (let i = 0; i < k - cap; i++) this.forget(batch[i]!, bt[i]!);
        from = k - cap;
      }
      const overflow = this.size + (k - from) - cap;
      if (overflow > 0) this.evictHead(overflow);
      for (let i = from; i < k; i++) {
        const p = this.phys(this.size);
        this.entries[p] = batch[i];
        this.times[p] = bt[i]!;
        this.size++;
      }
      return;
    }
    // Older than everything: prepend the newest of them that fit.
    if (bt[k - 1]! < this.times[this.head]!) {
      for (let i = k - 1; i >= 0; i--) {
        if (this.size === cap) {
          this.forget(batch[i]!, bt[i]!);
          continue;
        }
        this.head = this.head === 0 ? cap - 1 : this.head - 1;
        this.entries[this.head] = batch[i];
        this.times[this.head] = bt[i]!;
        this.size++;
      }
      return;
    }
    // In between: merge the batch with the records after its first timestamp.
    const p = this.upperBound(bt[0]!);
    const m = this.size - p;
    const mergedE: LogEntry[] = new Array(m + k);
    const mergedT = new Float64Array(m + k);
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < m || j < k) {
      const ti = i < m ? this.times[this.phys(p + i)]! : Number.POSITIVE_INFINITY;
      if (j >= k || ti <= bt[j]!) {
        mergedE[o] = this.entries[this.phys(p + i)]!;
        mergedT[o++] = ti;
        i++;
      } else {
        mergedE[o] = batch[j]!;
        mergedT[o++] = bt[j]!;
        j++;
      }
    }
    // The records before p stay; if the result is too long, the oldest of (before p ++ merged) go.
    let overflow = this.size + k - cap;
    let start = p;
    let skip = 0;
    if (overflow > 0) {
      const fromHead = Math.min(overflow, p);
      this.evictHead(fromHead);
      start = p - fromHead;
      overflow -= fromHead;
      for (; skip < overflow; skip++) this.forget(mergedE[skip]!, mergedT[skip]!);
    }
    this.size = start;
    for (let q = skip; q < m + k; q++) {
      const ph = this.phys(this.size);
      this.entries[ph] = mergedE[q];
      this.times[ph] = mergedT[q]!;
      this.size++;
    }
  }
}

/** Sorts the batch by time in place; pages arrive ascending or descending, so those are cheap. */
function sortBatch(entries: LogEntry[], times: number[]): void {
  const k = times.length;
  let asc = true;
  let desc = true;
  for (let i = 1; i < k && (asc || desc); i++) {
    if (times[i]! < times[i - 1]!) asc = false;
    if (times[i]! > times[i - 1]!) desc = false;
  }
  if (asc) return;
  if (desc) {
    entries.reverse();
    times.reverse();
    return;
  }
  const order = Array.from({ length: k }, (_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const e2 = order.map((i) => entries[i]!);
  const t2 = order.map((i) => times[i]!);
  for (let i = 0; i < k; i++) {
    entries[i] = e2[i]!;
    times[i] = t2[i]!;
  }
}
