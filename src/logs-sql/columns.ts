import type { LogEntry } from '../api/logs/entry';
import { LOG_FIELDS, urlPartField, type UrlPart } from '../log-fields/fields';

/** A stored column of the `logs` table: its SQL type and how a record fills it. */
export interface StoredColumn {
  name: string;
  type: 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'UINTEGER' | 'TIMESTAMP';
  doc: string;
  value(entry: LogEntry, timeMs: number): string | number | null;
}

/** A column DuckDB computes from the stored ones when it is read (costs nothing to load). */
export interface ComputedColumn {
  name: string;
  type: 'VARCHAR' | 'BIGINT';
  doc: string;
  expression: string;
}

/** The fields the field table gives a DuckDB column, in the table's order (the time as a TIMESTAMP). */
export const STORED_COLUMNS: readonly StoredColumn[] = LOG_FIELDS.flatMap((f): StoredColumn[] => {
  if (!f.duckdb) return [];
  const name: keyof LogEntry = f.name;
  const value: StoredColumn['value'] = f.storage === 'time' ? (_e, ms) => ms : (e) => e[name];
  const doc = f.storage === 'time' ? 'the time as a TIMESTAMP (UTC), for date_trunc and friends' : f.doc;
  return [{ name: f.duckdb.column, type: f.duckdb.type, doc, value }];
});

/** The stored column of a part of the URL. */
const urlPartColumn = (part: UrlPart): string => urlPartField(part).duckdb.column;

/** The field DuckDB computes instead of storing (the URL, from its scheme, host and path), named as the field. */
const derived = LOG_FIELDS.find((f) => f.storage === 'derived' && f.duckdb === null);
if (!derived) throw new Error('the field table has no derived field for the logs table');

export const COMPUTED_COLUMNS: readonly ComputedColumn[] = [
  { name: 'time', type: 'VARCHAR', doc: 'ISO 8601 time, UTC (2026-11-24T14:05:00.123Z)', expression: "strftime(ts, '%Y-%m-%dT%H:%M:%S.%g') || 'Z'" },
  { name: 'time_ms', type: 'BIGINT', doc: 'epoch milliseconds', expression: 'epoch_ms(ts)' },
  {
    name: derived.name,
    type: 'VARCHAR',
    doc: derived.doc,
    expression: `${urlPartColumn('url scheme')} || '://' || ${urlPartColumn('url host')} || ${urlPartColumn('url path')}`,
  },
];

/** time first, as a reader expects; DuckDB keeps the order given here. */
export const LOGS_TABLE_DDL = `CREATE TABLE logs (${[
  `time ${COMPUTED_COLUMNS[0]!.type} GENERATED ALWAYS AS (${COMPUTED_COLUMNS[0]!.expression})`,
  `time_ms ${COMPUTED_COLUMNS[1]!.type} GENERATED ALWAYS AS (${COMPUTED_COLUMNS[1]!.expression})`,
  ...STORED_COLUMNS.map((c) => `${c.name} ${c.type}`),
  `${COMPUTED_COLUMNS[2]!.name} ${COMPUTED_COLUMNS[2]!.type} GENERATED ALWAYS AS (${COMPUTED_COLUMNS[2]!.expression})`,
].join(', ')})`;
