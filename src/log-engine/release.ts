import type { LogEntry } from '../api/logs/entry';

/**
 * Turns records that arrive out of order into a stream in timestamp order, for outputs that
 * cannot insert in place (a pipe). Records wait until the watermark (FollowEngine.settledBefore)
 * passes them; a record older than what was already released is a straggler beyond the observed
 * lag: it is released at once (counted in `stragglers`) rather than lost.
 */
export class OrderedRelease {
  private entries: LogEntry[] = [];
  private times: number[] = [];
  private releasedUpTo = Number.NEGATIVE_INFINITY;
  stragglers = 0;

  constructor(private readonly emit: (entry: LogEntry, time: number) => void) {}

  get pending(): number {
    return this.entries.length;
  }

  add(entries: readonly LogEntry[], times: readonly number[]): void {
    for (let i = 0; i < entries.length; i++) {
      const t = times[i]!;
      if (t < this.releasedUpTo) {
        this.stragglers++;
        this.emit(entries[i]!, t);
        continue;
      }
      // Usually appended at the end; binary search keeps late ones in place.
      let lo = 0;
      let hi = this.times.length;
      if (hi === 0 || this.times[hi - 1]! <= t) lo = hi;
      else {
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (this.times[mid]! <= t) lo = mid + 1;
          else hi = mid;
        }
      }
      if (lo === this.times.length) {
        this.entries.push(entries[i]!);
        this.times.push(t);
      } else {
        this.entries.splice(lo, 0, entries[i]!);
        this.times.splice(lo, 0, t);
      }
    }
  }

  /** Emits, in order, every pending record older than `watermark`. */
  release(watermark: number | null): void {
    if (watermark === null) return;
    let n = 0;
    while (n < this.times.length && this.times[n]! < watermark) {
      this.emit(this.entries[n]!, this.times[n]!);
      n++;
    }
    if (n) {
      this.entries.splice(0, n);
      this.times.splice(0, n);
    }
    if (watermark > this.releasedUpTo) this.releasedUpTo = watermark;
  }

  /** Emits everything still pending (on exit). */
  flush(): void {
    this.release(Number.POSITIVE_INFINITY);
  }
}
