import { LOG_FIELDS, type LogEntry } from '../log-fields/fields';
import { sqlIdentifier, sqlLiteral } from './sql-text';
import { StoreError, type LogStore } from './store';

/**
 * Reading records back from the store as LogEntry objects (what `burrow logs --store` prints):
 * the newest `limit` records of the zones in [from, to), oldest first.
 */
export async function readStoredWindow(store: LogStore, zones: readonly number[], from: number, to: number, limit: number): Promise<LogEntry[]> {
  const { database, table } = store.names;
  const [col] = await store.rows<{ type: string }>(
    `SELECT type FROM system.columns WHERE database = ${sqlLiteral(database)} AND table = ${sqlLiteral(table)} AND name = 'timestamp'`,
  );
  if (!col) throw new StoreError(`the store has no table ${database}.${table}: ship into it first (burrow ship)`);
  const ms = col.type.startsWith('DateTime64') ? 'toUnixTimestamp64Milli(timestamp)' : '(toUInt64(timestamp) * 1000 + timestampMs)';
  const cols = LOG_FIELDS.filter((f) => f.name !== 'timestamp').map((f) => sqlIdentifier(f.name));
  const rows = await store.rows<Record<string, unknown>>(
    `SELECT ${ms} AS t_ms, ${cols.join(', ')} FROM ${sqlIdentifier(database)}.${sqlIdentifier(table)} ` +
      `WHERE pullZoneId IN (${zones.map((z) => sqlLiteral(z)).join(', ')}) ` +
      `AND timestamp >= toDateTime(${sqlLiteral(Math.floor(from / 1000))}) AND timestamp <= toDateTime(${sqlLiteral(Math.floor(to / 1000))}) ` +
      `AND ${ms} >= ${sqlLiteral(from)} AND ${ms} < ${sqlLiteral(to)} ` +
      `ORDER BY t_ms DESC, requestId DESC LIMIT ${sqlLiteral(limit)}`,
  );
  const out: LogEntry[] = rows.reverse().map((row) => {
    const e: Record<string, unknown> = { timestamp: new Date(Number(row.t_ms)).toISOString() };
    for (const f of LOG_FIELDS) {
      if (f.name === 'timestamp') continue;
      const v = row[f.name];
      e[f.name] = v === null || v === undefined ? null : f.type === 'number' ? Number(v) : String(v);
    }
    if (e.requestId === '') e.requestId = null;
    return e as LogEntry;
  });
  return out;
}
