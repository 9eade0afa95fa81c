import { LOG_FIELDS, type LogEntry } from '../../src/log-fields/fields';

/** What a field is when a test does not say: the required ones a plain value, every other null. */
const DEFAULTS: Readonly<Record<string, string | number | null>> = Object.fromEntries(
  LOG_FIELDS.map((f) => [
    f.name,
    !f.required ? null : f.storage === 'time' ? '2026-08-08T14:00:00.000Z' : f.name === 'statusCode' ? 200 : f.name === 'bytesSent' ? 100 : 1,
  ]),
);

/**
 * A LogEntry for a test: every field of the table, in its order; those not given are null (the
 * required ones: 2026-08-08T14:00:00.000Z, zone 1, status 200, 100 bytes).
 */
export function logEntry(fields: Partial<LogEntry> = {}): LogEntry {
  return { ...DEFAULTS, ...fields } as LogEntry;
}
