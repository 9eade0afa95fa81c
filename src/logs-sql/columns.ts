import type { LogEntry } from '../api/logs/entry';

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

export const STORED_COLUMNS: readonly StoredColumn[] = [
  { name: 'ts', type: 'TIMESTAMP', doc: 'the time as a TIMESTAMP (UTC), for date_trunc and friends', value: (_e, ms) => ms },
  { name: 'pull_zone', type: 'UINTEGER', doc: 'pull zone id', value: (e) => e.pullZoneId },
  { name: 'status', type: 'INTEGER', doc: 'HTTP status code', value: (e) => e.statusCode },
  { name: 'cache_status', type: 'VARCHAR', doc: 'HIT, MISS, BYPASS, REVALIDATED, STALE, UPDATING, EXPIRED or -', value: (e) => e.cacheStatus },
  { name: 'scheme', type: 'VARCHAR', doc: 'http or https', value: (e) => e.scheme },
  { name: 'host', type: 'VARCHAR', doc: 'requested host', value: (e) => e.host },
  { name: 'path', type: 'VARCHAR', doc: 'path with the query string', value: (e) => e.path },
  { name: 'bytes', type: 'BIGINT', doc: 'bytes sent (headers and body)', value: (e) => e.bytesSent },
  { name: 'country', type: 'VARCHAR', doc: 'ISO country code of the client', value: (e) => e.countryCode },
  { name: 'edge', type: 'VARCHAR', doc: 'edge location', value: (e) => e.edgeLocation },
  { name: 'remote_ip', type: 'VARCHAR', doc: 'client IP', value: (e) => e.remoteIp },
  { name: 'user_agent', type: 'VARCHAR', doc: 'User-Agent', value: (e) => e.userAgent },
  { name: 'referer', type: 'VARCHAR', doc: 'Referer', value: (e) => e.referer },
  { name: 'request_id', type: 'VARCHAR', doc: 'request id (32 hex characters)', value: (e) => e.requestId },
  { name: 'asn', type: 'UINTEGER', doc: 'autonomous system number (extended logging)', value: (e) => e.asn },
];

export const COMPUTED_COLUMNS: readonly ComputedColumn[] = [
  { name: 'time', type: 'VARCHAR', doc: 'ISO 8601 time, UTC (2026-11-24T14:05:00.123Z)', expression: "strftime(ts, '%Y-%m-%dT%H:%M:%S.%g') || 'Z'" },
  { name: 'time_ms', type: 'BIGINT', doc: 'epoch milliseconds', expression: 'epoch_ms(ts)' },
  { name: 'url', type: 'VARCHAR', doc: 'the full URL (scheme, host and path)', expression: "scheme || '://' || host || path" },
];

/** time first, as a reader expects; DuckDB keeps the order given here. */
export const LOGS_TABLE_DDL = `CREATE TABLE logs (${[
  `time ${COMPUTED_COLUMNS[0]!.type} GENERATED ALWAYS AS (${COMPUTED_COLUMNS[0]!.expression})`,
  `time_ms ${COMPUTED_COLUMNS[1]!.type} GENERATED ALWAYS AS (${COMPUTED_COLUMNS[1]!.expression})`,
  ...STORED_COLUMNS.map((c) => `${c.name} ${c.type}`),
  `url ${COMPUTED_COLUMNS[2]!.type} GENERATED ALWAYS AS (${COMPUTED_COLUMNS[2]!.expression})`,
].join(', ')})`;
