import type { LogEntry } from '../../api/logs/index';
import { exportRecord } from '../../log-records/export';

/** The text a copy key puts on the clipboard for a record, or a message saying why there is none. */
export function copyTextOf(e: LogEntry | null, kind: 'id' | 'json', showSecrets: boolean): { text: string; what: string } | { error: string } {
  if (!e) return { error: 'no record selected' };
  if (kind === 'id') {
    if (e.requestId === null) return { error: 'this record has no request id' };
    return { text: e.requestId, what: `request id ${e.requestId}` };
  }
  return { text: JSON.stringify(exportRecord(e, showSecrets)), what: `the record of ${e.requestId ?? e.timestamp} as JSON` };
}
