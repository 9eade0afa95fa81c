import { distinctKeys } from '../../api/database/index';
import type { Entry } from '../../state/sql-store';
import type { RawRecord } from '../../text/raw-record';

/**
 * The raw view (`d`) of a result row: the row at the top of the results window (the first of
 * "rows 5–30"), as an object of column names to values with the declared column types beside.
 * Values keep their types: integers as JSON integers (64-bit exact), blobs as base64.
 */
export function resultRowRecord(entry: Entry | null, top: number): RawRecord | null {
  if (!entry || entry.kind !== 'result') return null;
  const { columns, decltypes, rows } = entry.result;
  if (rows.length === 0) return null;
  const perRow = entry.mode === 'line' ? columns.length + 1 : 1;
  const index = Math.max(0, Math.min(rows.length - 1, Math.floor(top / perRow)));
  const row = rows[index]!;
  const keys = distinctKeys(columns);
  const values: Record<string, unknown> = {};
  const types: Record<string, string | null> = {};
  keys.forEach((k, i) => {
    values[k] = row[i] ?? null;
    types[k] = decltypes[i] ?? null;
  });
  return {
    title: `result row ${(index + 1).toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} (the first row shown)`,
    value: { values, declaredTypes: types },
  };
}
