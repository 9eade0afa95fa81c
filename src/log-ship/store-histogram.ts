import { LOG_FIELDS } from '../log-fields/fields';
import { sqlIdentifier, sqlLiteral } from './sql-text';
import { selectionSql, storedTable, type StoreSelection } from './store-read';
import type { LogStore } from './store';

/** The HTTP status column (the field filtered by `status`). */
const STATUS = sqlIdentifier(LOG_FIELDS.find((f) => f.filterKey === 'status')!.name);

/** One non-empty (bucket, status hundred) pair of a window and its count. */
export interface BucketCount {
  /** Bucket start, epoch ms (a multiple of the size). */
  start: number;
  /** The status code / 100, rounded down (2 for 2xx). */
  hundred: number;
  count: number;
}

/**
 * Requests per bucket and status hundred of a selection, counted by ClickHouse (GROUP BY: one row
 * per non-empty pair comes back, not the records). Buckets are aligned on multiples of `size`,
 * as the timeline's are.
 */
export async function storedBucketCounts(store: LogStore, selection: StoreSelection, size: number, signal?: AbortSignal): Promise<BucketCount[]> {
  const t = await storedTable(store);
  const rows = await store.rows<{ b: string; h: string; n: string }>(
    `SELECT intDiv(${t.ms}, ${sqlLiteral(size)}) AS b, intDiv(${STATUS}, 100) AS h, count() AS n FROM ${t.table} ` +
      `WHERE ${selectionSql(t, selection)} GROUP BY b, h`,
    signal,
  );
  return rows.map((r) => ({ start: Number(r.b) * size, hundred: Number(r.h), count: Number(r.n) }));
}
