import type { BucketCount } from '../log-ship/store-histogram';
import { CLASS_SLOTS, statusClassOf } from '../log-records/timeline';
import { windowBuckets, type HistogramRow } from '../log-records/timeline-histogram';

/** The store's grouped counts as the rows `logs --histogram` prints: every bucket of [from, to), empty ones as zeros. */
export function histogramOfCounts(counts: readonly BucketCount[], from: number, to: number, size: number): HistogramRow[] {
  const { first, n } = windowBuckets(from, to, size);
  const slots = new Float64Array(n * CLASS_SLOTS);
  for (const c of counts) {
    const b = (c.start - first) / size;
    if (b >= 0 && b < n) slots[b * CLASS_SLOTS + statusClassOf(c.hundred * 100)]! += c.count;
  }
  const rows: HistogramRow[] = [];
  for (let b = 0; b < n; b++) {
    const o = b * CLASS_SLOTS;
    let total = 0;
    for (let k = 0; k < CLASS_SLOTS; k++) total += slots[o + k]!;
    rows.push({ start: new Date(first + b * size).toISOString(), total, '2xx': slots[o]!, '3xx': slots[o + 1]!, '4xx': slots[o + 2]!, '5xx': slots[o + 3]! });
  }
  return rows;
}
