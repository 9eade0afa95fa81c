import type { LogsSnapshot } from '../../state/sql/logs-backend';
import type { StoreSnapshot } from '../../state/sql/store-backend';

const two = (n: number) => String(n).padStart(2, '0');

/** "logs as of 14:05:03, 120,345 rows" (local time of the last sync), or what stands in its way. */
export function logsHeader(s: LogsSnapshot, noLogsScreen = false): string {
  if (s.error) return s.error;
  if (noLogsScreen && s.rows === 0) return 'no logs screen open: the table logs is empty (open :logs ZONE first)';
  if (s.asOf === null) return 'loading the logs table…';
  const d = new Date(s.asOf);
  const rows = `${s.rows.toLocaleString('en-US')} row${s.rows === 1 ? '' : 's'}`;
  return `logs as of ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}, ${rows}`;
}

/** "ClickHouse 18.16.1 · default@127.0.0.1:8123/default" (never a password: a store URL holds none), or why it cannot be reached. */
export function storeHeader(s: StoreSnapshot): string {
  const where = s.where.replace(/^clickhouses?:\/\//, '');
  if (s.error) return `ClickHouse ${where}: not connected`;
  return `ClickHouse${s.version ? ` ${s.version}` : ''} · ${where}`;
}
