import type { LogEntry } from '../api/logs/entry';

/** A column of the `logs` table: its SQL type and how a record fills it. */
export interface LogsColumn {
  name: string;
  type: 'VARCHAR' | 'BIGINT' | 'INTEGER' | 'TIMESTAMP';
  /** Shown by `.schema`-like listings and the README. */
  doc: string;
  value(entry: LogEntry, timeMs: number): string | number | null;
}

/**
 * The `logs` table, in order. Times twice: ISO text for reading, epoch milliseconds for
 * arithmetic; `ts` is a TIMESTAMP (UTC) for date_trunc and friends.
 */
export const LOGS_COLUMNS: readonly LogsColumn[] = [
  { name: 'time', type: 'VARCHAR', doc: 'ISO 8601 time, UTC', value: (e) => e.timestamp },
  { name: 'time_ms', type: 'BIGINT', doc: 'epoch milliseconds', value: (_e, ms) => ms },
  { name: 'ts', type: 'TIMESTAMP', doc: 'the time as a TIMESTAMP (UTC)', value: (_e, ms) => ms },
  { name: 'pull_zone', type: 'BIGINT', doc: 'pull zone id', value: (e) => e.pullZoneId },
  { name: 'status', type: 'INTEGER', doc: 'HTTP status code', value: (e) => e.statusCode },
  { name: 'cache_status', type: 'VARCHAR', doc: 'HIT, MISS, BYPASS, ... or -', value: (e) => e.cacheStatus },
  { name: 'scheme', type: 'VARCHAR', doc: 'http or https', value: (e) => e.scheme },
  { name: 'host', type: 'VARCHAR', doc: 'requested host', value: (e) => e.host },
  { name: 'path', type: 'VARCHAR', doc: 'path with the query string', value: (e) => e.path },
  { name: 'url', type: 'VARCHAR', doc: 'the full URL', value: (e) => e.url },
  { name: 'bytes', type: 'BIGINT', doc: 'bytes sent (headers and body)', value: (e) => e.bytesSent },
  { name: 'country', type: 'VARCHAR', doc: 'ISO country code of the client', value: (e) => e.countryCode },
  { name: 'edge', type: 'VARCHAR', doc: 'edge location', value: (e) => e.edgeLocation },
  { name: 'remote_ip', type: 'VARCHAR', doc: 'client IP', value: (e) => e.remoteIp },
  { name: 'user_agent', type: 'VARCHAR', doc: 'User-Agent', value: (e) => e.userAgent },
  { name: 'referer', type: 'VARCHAR', doc: 'Referer', value: (e) => e.referer },
  { name: 'request_id', type: 'VARCHAR', doc: 'request id (32 hex characters)', value: (e) => e.requestId },
  { name: 'asn', type: 'BIGINT', doc: 'autonomous system number (extended logging)', value: (e) => e.asn },
];

export const LOGS_TABLE_DDL = `CREATE TABLE logs (${LOGS_COLUMNS.map((c) => `${c.name} ${c.type}`).join(', ')})`;
