import type { HistogramRow } from '../log-records/timeline-histogram';
import { formatDateText } from '../text/time-format';
import type { Column } from './output';

/** Without --bucket: the finest zoom step giving at most this many buckets. */
export const AUTO_BUCKETS = 100;

export const HISTOGRAM_COLUMNS: Column<HistogramRow>[] = [
  // in the display zone (local, or UTC with --utc); json and ndjson keep the ISO UTC start
  { header: 'START', value: (r) => formatDateText(r.start, 'iso') },
  { header: 'TOTAL', value: (r) => r.total },
  { header: '2XX', value: (r) => r['2xx'] },
  { header: '3XX', value: (r) => r['3xx'] },
  { header: '4XX', value: (r) => r['4xx'] },
  { header: '5XX', value: (r) => r['5xx'] },
];
