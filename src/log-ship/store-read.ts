import type { NormalizedFilter } from '../api/logs/query';
import { LOG_FIELDS, type LogEntry } from '../log-fields/fields';
import { sqlIdentifier, sqlLiteral } from './sql-text';
import { storeFilterSql } from './store-filter';
import { StoreError, type LogStore } from './store';

/** What a read of the store selects: zones, the window [from, to) in epoch ms, the platform's filters. */
export interface StoreSelection {
  zones: readonly number[];
  from: number;
  /** Exclusive; null: no end. */
  to: number | null;
  filter: NormalizedFilter | null;
}

/** The records table as a read sees it: its qualified name and the expression of a record's epoch ms. */
export interface StoredTable {
  table: string;
  ms: string;
}

/** Checks the table is there and picks the time expression of its form (the form is read from the table, not the server). */
export async function storedTable(store: LogStore): Promise<StoredTable> {
  const { database, table } = store.names;
  const [col] = await store.rows<{ type: string }>(
    `SELECT type FROM system.columns WHERE database = ${sqlLiteral(database)} AND table = ${sqlLiteral(table)} AND name = 'timestamp'`,
  );
  if (!col) throw new StoreError(`the store has no table ${database}.${table}: ship into it first (burrow ship)`);
  const ms = col.type.startsWith('DateTime64') ? 'toUnixTimestamp64Milli(timestamp)' : '(toUInt64(timestamp) * 1000 + timestampMs)';
  return { table: `${sqlIdentifier(database)}.${sqlIdentifier(table)}`, ms };
}

/**
 * The WHERE condition of a selection: the zones, the window (whole seconds on `timestamp` first,
 * so the sorting key prunes, then the exact milliseconds) and the filters.
 */
export function selectionSql(t: StoredTable, s: StoreSelection): string {
  const parts = [`pullZoneId IN (${s.zones.map((z) => sqlLiteral(z)).join(', ')})`, `timestamp >= toDateTime(${sqlLiteral(Math.floor(s.from / 1000))})`];
  if (s.to !== null) parts.push(`timestamp <= toDateTime(${sqlLiteral(Math.floor(s.to / 1000))})`);
  parts.push(`${t.ms} >= ${sqlLiteral(s.from)}`);
  if (s.to !== null) parts.push(`${t.ms} < ${sqlLiteral(s.to)}`);
  const filter = s.filter ? storeFilterSql(s.filter) : null;
  if (filter !== null) parts.push(`(${filter})`);
  return parts.join(' AND ');
}

/** The select list of a whole record: its epoch ms as t_ms, then every other field. */
export function recordColumnsSql(t: StoredTable): string {
  const cols = LOG_FIELDS.filter((f) => f.name !== 'timestamp').map((f) => sqlIdentifier(f.name));
  return `${t.ms} AS t_ms, ${cols.join(', ')}`;
}

/** A row of recordColumnsSql as the LogEntry the platform would have sent. */
export function entryOfRow(row: Record<string, unknown>): LogEntry {
  const e: Record<string, unknown> = { timestamp: new Date(Number(row.t_ms)).toISOString() };
  for (const f of LOG_FIELDS) {
    if (f.name === 'timestamp') continue;
    const v = row[f.name];
    e[f.name] = v === null || v === undefined ? null : f.type === 'number' ? Number(v) : String(v);
  }
  if (e.requestId === '') e.requestId = null;
  return e as LogEntry;
}

/**
 * Reading records back from the store as LogEntry objects (what `burrow logs --store` prints):
 * the newest `limit` records of the selection, oldest first.
 */
export async function readStoredWindow(store: LogStore, selection: StoreSelection, limit: number, signal?: AbortSignal): Promise<LogEntry[]> {
  const t = await storedTable(store);
  const rows = await store.rows<Record<string, unknown>>(
    `SELECT ${recordColumnsSql(t)} FROM ${t.table} WHERE ${selectionSql(t, selection)} ORDER BY t_ms DESC, requestId DESC LIMIT ${sqlLiteral(limit)}`,
    signal,
  );
  return rows.reverse().map(entryOfRow);
}
