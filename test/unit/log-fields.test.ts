import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOG_FIELDS, LOG_FIELD_NAMES, type LogEntry } from '../../src/log-fields/fields';
import { readLogEntry } from '../../src/api/logs/entry';

test('the field table names every key of a LogEntry read from the platform, once, in its order', () => {
  const raw: Record<string, unknown> = {};
  for (const f of LOG_FIELDS) raw[f.name] = f.name === 'timestamp' ? '2026-11-27T10:00:00.000Z' : f.type === 'number' ? 1 : 'x';
  const entry = readLogEntry(raw) as LogEntry;
  assert.ok(entry, 'a record with every field of the table is read');
  assert.deepEqual(Object.keys(entry), LOG_FIELD_NAMES);
  assert.equal(new Set(LOG_FIELD_NAMES).size, LOG_FIELD_NAMES.length);
});

test('filter keys, server filters and SQL columns are each unique', () => {
  for (const key of ['filterKey', 'serverFilter'] as const) {
    const values = LOG_FIELDS.map((f) => f[key]).filter((v) => v !== null);
    assert.equal(new Set(values).size, values.length, key);
  }
  const columns = LOG_FIELDS.flatMap((f) => (f.duckdb ? [f.duckdb.column] : []));
  assert.equal(new Set(columns).size, columns.length);
});
