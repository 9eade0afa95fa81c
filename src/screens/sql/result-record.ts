import { distinctKeys } from '../../api/database/index';
import type { Entry } from '../../state/sql/store';
import { isPendingRow } from '../../state/sql/paged-rows';
import type { RawRecord } from '../../text/raw-record';

/**
 * The raw view (`d`) of a result row: the selected row of the results grid, as an object of
 * column names to values with the declared column types beside. Values keep their types:
 * integers as JSON integers (64-bit exact), blobs as base64. 'loading': the row's page of a
 * large result is being read again.
 */
export function resultRowRecord(entry: Entry | null, index: number): RawRecord | 'loading' | null {
  if (!entry || entry.kind !== 'result') return null;
  const { columns, decltypes, rows } = entry.result;
  if (rows.length === 0 || index < 0 || index >= rows.length) return null;
  const row = rows[index]!;
  if (isPendingRow(row)) return 'loading';
  const keys = distinctKeys(columns);
  const values: Record<string, unknown> = {};
  const types: Record<string, string | null> = {};
  keys.forEach((k, i) => {
    values[k] = row[i] ?? null;
    types[k] = decltypes[i] ?? null;
  });
  return {
    title: `result row ${(index + 1).toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')}`,
    value: { values, declaredTypes: types },
  };
}
