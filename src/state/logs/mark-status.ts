import type { LogEntry } from '../../api/logs/entry';
import { pathText, visible } from '../../log-records/rows';
import { formatTime } from '../../text/time-format';

/** What the status bar says after `m`. */
export function markStatus(on: boolean, e: LogEntry, time: number, count: number): string {
  const what = `${formatTime(time, 'clockMs')} ${e.statusCode} ${visible(pathText(e))}`;
  const total = `${count} mark${count === 1 ? '' : 's'}`;
  return on ? `marked ${what} (${total}: M next, U previous, C clears all)` : `unmarked ${what} (${total} left)`;
}
