/**
 * The timeline's vocabulary, shared by the logs screen's panel and `burrow logs --histogram`:
 * status classes, bucket sizes (the zoom steps), reading and naming a bucket size, and choosing
 * the size that fits a span into a number of columns.
 */

/** The classes counted apart, in this order; anything else (1xx, 0, 600) counts in the total only. */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClassName = (typeof STATUS_CLASSES)[number];
/** Index of the "other" class in a bucket's counts. */
export const OTHER_CLASS = 4;
/** Counts kept per bucket: 2xx, 3xx, 4xx, 5xx, other. */
export const CLASS_SLOTS = 5;

/** 0 = 2xx ... 3 = 5xx, OTHER_CLASS for anything else. */
export function statusClassOf(status: number): number {
  const c = Math.floor(status / 100);
  return c >= 2 && c <= 5 ? c - 2 : OTHER_CLASS;
}

const S = 1000;
const M = 60 * S;
const H = 60 * M;

/** The zoom steps of the screen's panel, smallest first. */
export const BUCKET_STEPS: readonly number[] = [S, 5 * S, 10 * S, 30 * S, M, 5 * M, 15 * M, H];

/** The largest bucket `--bucket` takes, and the most buckets one histogram prints. */
export const MAX_BUCKET_MS = 24 * H;
export const MAX_BUCKETS = 100_000;

/** "1s", "30s", "5m", "1h", "90s" (a size that is not a whole unit stays in the smaller one). */
export function formatBucket(ms: number): string {
  if (ms % H === 0) return `${ms / H}h`;
  if (ms % M === 0) return `${ms / M}m`;
  return `${ms / S}s`;
}

/** "30s" / "5m" / "1h" / "1d" -> ms, or a message saying what is allowed. */
export function parseBucket(text: string): { ms: number } | { error: string } {
  const m = /^(\d{1,6})(s|m|h|d)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { s: S, m: M, h: H, d: 24 * H }[m[2] as 's' | 'm' | 'h' | 'd'] : Number.NaN;
  if (!m || !(ms >= S) || ms > MAX_BUCKET_MS) {
    return { error: `--bucket "${text}": use a duration like 1s, 10s, 1m, 5m or 1h (at least 1s, at most 1d)` };
  }
  return { ms };
}

/** Index of the first bucket (epoch-aligned) that holds time `t`. */
export function bucketIndex(t: number, size: number): number {
  return Math.floor(t / size);
}

/** Buckets of `size` from the one holding `start` to the one holding `end` (inclusive). */
export function bucketsSpanned(start: number, end: number, size: number): number {
  return bucketIndex(end, size) - bucketIndex(start, size) + 1;
}

/**
 * The zoom step (index into `steps`) whose buckets cover [start, end] in at most `columns`
 * buckets: the finest one that fits, or the coarsest when none does.
 */
export function chooseStep(start: number, end: number, columns: number, steps: readonly number[] = BUCKET_STEPS): number {
  for (let i = 0; i < steps.length; i++) if (bucketsSpanned(start, end, steps[i]!) <= Math.max(1, columns)) return i;
  return steps.length - 1;
}

/** The step at or just below a bucket size (for a zoom starting from any size). */
export function stepOf(size: number, steps: readonly number[] = BUCKET_STEPS): number {
  let best = 0;
  for (let i = 0; i < steps.length; i++) if (steps[i]! <= size) best = i;
  return best;
}
