import { bucketIndex, CLASS_SLOTS, MAX_BUCKETS, OTHER_CLASS, statusClassOf } from './timeline';
import { TimelineCounts } from './timeline-counts';

/** One line of `burrow logs --histogram`. */
export interface HistogramRow {
  /** Bucket start, ISO 8601 UTC. */
  start: string;
  total: number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
}

/** The buckets a window [from, to) spans: from the one holding `from` to the one holding `to - 1`. */
export function windowBuckets(from: number, to: number, size: number): { first: number; n: number } {
  const first = bucketIndex(from, size);
  const last = bucketIndex(Math.max(from, to - 1), size);
  return { first: first * size, n: last - first + 1 };
}

/** Whether a window in buckets of `size` stays within MAX_BUCKETS; a message when not. */
export function checkBucketCount(from: number, to: number, size: number): string | null {
  const { n } = windowBuckets(from, to, size);
  return n > MAX_BUCKETS
    ? `that makes ${n.toLocaleString('en-US')} buckets; at most ${MAX_BUCKETS.toLocaleString('en-US')} (use a larger --bucket or a shorter window)`
    : null;
}

/**
 * Counts per bucket of the records (times and status codes, same order) inside [from, to),
 * every bucket of the window listed, empty ones too. Counted with TimelineCounts, as the
 * screen's timeline counts.
 */
export function histogram(times: ArrayLike<number>, statuses: ArrayLike<number>, from: number, to: number, size: number): HistogramRow[] {
  const counts = new TimelineCounts();
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (t >= from && t < to) counts.add(t, statusClassOf(statuses[i]!));
  }
  const { first, n } = windowBuckets(from, to, size);
  const c = counts.buckets(first, size, n);
  const rows: HistogramRow[] = [];
  for (let b = 0; b < n; b++) {
    const o = b * CLASS_SLOTS;
    rows.push({
      start: new Date(first + b * size).toISOString(),
      total: c[o]! + c[o + 1]! + c[o + 2]! + c[o + 3]! + c[o + OTHER_CLASS]!,
      '2xx': c[o]!,
      '3xx': c[o + 1]!,
      '4xx': c[o + 2]!,
      '5xx': c[o + 3]!,
    });
  }
  return rows;
}
