import type { LogsSnapshot } from '../../state/sql/logs-backend';

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
