import { BUCKET_STEPS, bucketIndex, chooseStep, CLASS_SLOTS } from './timeline';
import { bucketTotal, type TimelineCounts } from './timeline-counts';

/** What the timeline panel draws: the buckets that fit, their counts, the cursor. */
export interface TimelineView {
  /** Bucket size, ms. */
  size: number;
  /** The size was chosen to fit the window (no zoom asked for). */
  auto: boolean;
  /** Start (epoch ms) of the first bucket shown. */
  first: number;
  /** Buckets shown (at most the columns). */
  n: number;
  /** CLASS_SLOTS counts per bucket shown: 2xx, 3xx, 4xx, 5xx, other. */
  counts: Float64Array;
  /** Largest bucket total shown (the bars' scale). */
  max: number;
  /** Index of the cursor's bucket among those shown. */
  cursor: number;
  /** The cursor sits on the newest bucket and moves on with it. */
  cursorLive: boolean;
  /** Buckets the whole window spans (more than `n` when zoomed in). */
  spanned: number;
  /** Index (among the spanned) of the first one shown. */
  offset: number;
}

export interface ViewRequest {
  /** The window: oldest and newest time to cover (epoch ms); null when there are no records. */
  start: number | null;
  end: number | null;
  columns: number;
  /** Zoom step asked for (index into BUCKET_STEPS); null: the one that fits. */
  step: number | null;
  /** Time inside the cursor's bucket; null: the newest bucket. */
  cursorAt: number | null;
  /** First bucket start shown last time (kept while the cursor stays in view). */
  scrollFirst: number | null;
}

/** The step used for a request: asked for, or the finest that fits the window in the columns. */
export function stepFor(req: Pick<ViewRequest, 'start' | 'end' | 'columns' | 'step'>): number {
  if (req.step !== null) return Math.max(0, Math.min(BUCKET_STEPS.length - 1, req.step));
  if (req.start === null || req.end === null) return 0;
  return chooseStep(req.start, req.end, req.columns);
}

/**
 * The panel's buckets for a window. Costs O(columns x granules per bucket) through
 * TimelineCounts, never O(records). When the window spans more buckets than fit, the ones shown
 * are a stretch that keeps the cursor in view (and stays put while it does).
 */
export function timelineView(counts: TimelineCounts, req: ViewRequest): TimelineView | null {
  if (req.start === null || req.end === null) return null;
  const step = stepFor(req);
  const size = BUCKET_STEPS[step]!;
  const columns = Math.max(1, req.columns);
  const firstIdx = bucketIndex(req.start, size);
  const lastIdx = Math.max(firstIdx, bucketIndex(req.end, size));
  const spanned = lastIdx - firstIdx + 1;
  const cursorLive = req.cursorAt === null || bucketIndex(req.cursorAt, size) >= lastIdx;
  const cursorIdx = cursorLive ? lastIdx : Math.max(firstIdx, bucketIndex(req.cursorAt!, size));
  const n = Math.min(columns, spanned);
  let shownFirst = req.scrollFirst === null ? lastIdx - n + 1 : bucketIndex(req.scrollFirst, size);
  if (cursorIdx < shownFirst) shownFirst = cursorIdx;
  if (cursorIdx > shownFirst + n - 1) shownFirst = cursorIdx - n + 1;
  shownFirst = Math.max(firstIdx, Math.min(lastIdx - n + 1, shownFirst));
  const c = counts.buckets(shownFirst * size, size, n);
  let max = 0;
  for (let b = 0; b < n; b++) max = Math.max(max, bucketTotal(c, b));
  return {
    size,
    auto: req.step === null,
    first: shownFirst * size,
    n,
    counts: c,
    max,
    cursor: cursorIdx - shownFirst,
    cursorLive,
    spanned,
    offset: shownFirst - firstIdx,
  };
}

/** The counts of bucket `b` of a view: total and one per class (2xx, 3xx, 4xx, 5xx). */
export function bucketOf(view: TimelineView, b: number): { start: number; end: number; total: number; classes: number[] } {
  const o = b * CLASS_SLOTS;
  const classes = [view.counts[o]!, view.counts[o + 1]!, view.counts[o + 2]!, view.counts[o + 3]!];
  return { start: view.first + b * view.size, end: view.first + (b + 1) * view.size, total: bucketTotal(view.counts, b), classes };
}
