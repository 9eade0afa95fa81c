/**
 * How many records fall in a sliding time window, kept in time buckets: O(1) per record, and
 * moving the window costs one step per bucket it passes (never a look at the records again).
 *
 * Records are placed by their own timestamps. The window is the `buckets` buckets that end with
 * the one holding `end - 1` (so it slides in steps of one bucket, window / buckets long). A record
 * older than the window is not counted; a record newer than `end` (it arrived before the window
 * got to it: ingestion is not in order) waits in its bucket and counts once the window reaches it.
 */
export class SlidingCount {
  readonly bucketMs: number;
  private readonly counts = new Map<number, number>();
  /** The newest bucket in the window; null before the first advance(). */
  private last: number | null = null;
  private inWindow = 0;
  /** Before the first advance: the newest bucket seen, to drop what is far older. */
  private newestSeen = Number.NEGATIVE_INFINITY;

  constructor(
    readonly windowMs: number,
    readonly buckets = Math.max(1, Math.min(60, Math.round(windowMs / 1000))),
  ) {
    this.bucketMs = windowMs / buckets;
  }

  /** Records in the window as of the last advance(). */
  get count(): number {
    return this.inWindow;
  }

  private bucketOf(t: number): number {
    return Math.floor(t / this.bucketMs);
  }

  add(t: number, n = 1): void {
    const b = this.bucketOf(t);
    if (this.last === null) {
      // history arriving before the window is placed (a backfill): keep only what can still count
      if (b > this.newestSeen) this.newestSeen = b;
      if (b <= this.newestSeen - 2 * this.buckets - 600) return;
      this.counts.set(b, (this.counts.get(b) ?? 0) + n);
      if (this.counts.size > 4 * this.buckets + 2400) this.dropBefore(this.newestSeen - 2 * this.buckets - 600);
      return;
    }
    if (b <= this.last - this.buckets) return;
    this.counts.set(b, (this.counts.get(b) ?? 0) + n);
    if (b <= this.last) this.inWindow += n;
  }

  /** Moves the window to end at `end` (never back). Returns the count in it. */
  advance(end: number): number {
    const next = this.bucketOf(end - 1);
    if (this.last === null) {
      this.last = next;
      this.dropBefore(next - this.buckets + 1);
      this.inWindow = 0;
      for (const [b, c] of this.counts) if (b <= next) this.inWindow += c;
      return this.inWindow;
    }
    if (next <= this.last) return this.inWindow;
    const from = this.last;
    if (next - from > this.counts.size) {
      // a long jump: cheaper to go over the buckets held than over the ones passed
      this.dropBefore(next - this.buckets + 1);
      this.inWindow = 0;
      for (const [b, c] of this.counts) if (b <= next) this.inWindow += c;
    } else {
      for (let b = from + 1; b <= next; b++) {
        const leaving = b - this.buckets;
        const gone = this.counts.get(leaving);
        if (gone !== undefined) {
          this.inWindow -= gone;
          this.counts.delete(leaving);
        }
        const entering = this.counts.get(b);
        if (entering !== undefined) this.inWindow += entering;
      }
    }
    this.last = next;
    return this.inWindow;
  }

  /** Forget every record (a new query refills the store from scratch). */
  clear(): void {
    this.counts.clear();
    this.last = null;
    this.inWindow = 0;
    this.newestSeen = Number.NEGATIVE_INFINITY;
  }

  private dropBefore(bucket: number): void {
    for (const b of this.counts.keys()) if (b < bucket) this.counts.delete(b);
  }
}
