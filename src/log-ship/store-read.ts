import type { NormalizedFilter } from '../api/logs/query';
import { LOG_FIELDS, type LogEntry } from '../log-fields/fields';
import { keyColumn } from './schema';
import { sqlIdentifier, sqlLiteral } from './sql-text';
import { storeFilterSql } from './store-filter';
import { StoreError, type LogStore } from './store';

/** The record's id (the field kept as an id): the tie-break of every order by time, and what a follow leaves out twice. */
export const ID_FIELD = LOG_FIELDS.find((f) => f.storage === 'id')!.name;
const ID = sqlIdentifier(ID_FIELD);

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
    `SELECT type FROM system.columns WHERE database = ${sqlLiteral(database)} AND table = ${sqlLiteral(table)} AND name = ${sqlLiteral(keyColumn('time'))}`,
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
  const cols = LOG_FIELDS.filter((f) => f.storeKey !== 'time').map((f) => sqlIdentifier(f.name));
  return `${t.ms} AS t_ms, ${cols.join(', ')}`;
}

/** A row of recordColumnsSql as the LogEntry the platform would have sent. */
export function entryOfRow(row: Record<string, unknown>): LogEntry {
  const e: Record<string, unknown> = { timestamp: new Date(Number(row.t_ms)).toISOString() };
  for (const f of LOG_FIELDS) {
    if (f.storeKey === 'time') continue;
    const v = row[f.name];
    e[f.name] = v === null || v === undefined ? null : f.type === 'number' ? Number(v) : String(v);
  }
  if (e[ID_FIELD] === '') e[ID_FIELD] = null;
  return e as LogEntry;
}

/**
 * Reading records back from the store as LogEntry objects (what `burrow logs --store` prints):
 * the newest `limit` records of the selection, oldest first.
 */
export async function readStoredWindow(store: LogStore, selection: StoreSelection, limit: number, signal?: AbortSignal): Promise<LogEntry[]> {
  const t = await storedTable(store);
  const rows = await store.rows<Record<string, unknown>>(
    `SELECT ${recordColumnsSql(t)} FROM ${t.table} WHERE ${selectionSql(t, selection)} ORDER BY t_ms DESC, ${ID} DESC LIMIT ${sqlLiteral(limit)}`,
    signal,
  );
  return rows.reverse().map(entryOfRow);
}

/** One piece of a paged read: records oldest first with their epoch ms. */
export interface StoredPiece {
  entries: LogEntry[];
  times: number[];
}

/**
 * The newest `max` records of a selection (with a `to`), read in pieces of `pieceSize` oldest
 * first (so a reader that keeps the newest shows them as they come); `total` is how many the
 * selection holds (before `max`). Pieces follow one another by (time, request id), so none is
 * read twice or skipped.
 */
export async function readStoredPieces(
  store: LogStore,
  selection: StoreSelection & { to: number },
  max: number,
  pieceSize: number,
  onTotal: (total: number) => void,
  onPiece: (piece: StoredPiece) => void,
  signal?: AbortSignal,
): Promise<void> {
  const t = await storedTable(store);
  const where = selectionSql(t, selection);
  const [count] = await store.rows<{ n: string }>(`SELECT count() AS n FROM ${t.table} WHERE ${where}`, signal);
  const total = Number(count?.n ?? 0);
  onTotal(total);
  if (total === 0) return;
  let cursor: { t: number; id: string } | null = null;
  let from = '';
  if (total > max) {
    // start at the max-th newest record: the older ones would be evicted anyway
    const [start] = await store.rows<{ t_ms: string }>(
      `SELECT ${t.ms} AS t_ms FROM ${t.table} WHERE ${where} ORDER BY t_ms DESC, ${ID} DESC LIMIT 1 OFFSET ${sqlLiteral(max - 1)}`,
      signal,
    );
    if (start) from = ` AND ${t.ms} >= ${sqlLiteral(Number(start.t_ms))}`;
  }
  for (;;) {
    const after: string =
      cursor === null ? from : ` AND (${t.ms} > ${sqlLiteral(cursor.t)} OR (${t.ms} = ${sqlLiteral(cursor.t)} AND ${ID} > ${sqlLiteral(cursor.id)}))`;
    const rows = await store.rows<Record<string, unknown>>(
      `SELECT ${recordColumnsSql(t)} FROM ${t.table} WHERE ${where}${after} ORDER BY t_ms, ${ID} LIMIT ${sqlLiteral(pieceSize)}`,
      signal,
    );
    if (rows.length === 0) return;
    const entries = rows.map(entryOfRow);
    onPiece({ entries, times: rows.map((r) => Number(r.t_ms)) });
    const last = rows[rows.length - 1]!;
    cursor = { t: Number(last.t_ms), id: String(last[ID_FIELD]) };
    if (rows.length < pieceSize) return;
  }
}
