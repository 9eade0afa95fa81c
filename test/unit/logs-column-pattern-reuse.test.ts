import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogBuffer } from '../../src/log-engine/buffer';
import type { LogEntry } from '../../src/api/logs/entry';
import { columnTest, compilePattern, recordTest } from '../../src/log-records/filter';
import { logEntry } from '../helpers/log-entry';

const record = (n: number, host: string): LogEntry =>
  logEntry({
    timestamp: new Date(Date.UTC(2026, 7, 8, 12) + n).toISOString(),
    requestId: n.toString(16).padStart(32, '0'),
    bytesSent: 0,
    host,
    path: '',
    url: 'https://elsewhere.example',
  });

// Found by the property test in logs-column-store.test.ts (seed 660587618, 3000 runs): the host
// of an evicted record gave its dictionary id to a new host while the path kept its id.
test('a pattern on host + path is tried again when an evicted host id comes back holding another host', () => {
  const p = compilePattern('ünï');
  assert.ok(p.ok);
  const b = new LogBuffer(1);
  const byColumns = columnTest(p, b.columns);
  const byRecord = recordTest(p);
  b.insert([record(1, 'a.example')]);
  assert.equal(byColumns(b.slotAt(0)), false);
  b.insert([record(2, 'ünï.example')]);
  assert.equal(b.get(0)!.host, 'ünï.example');
  assert.equal(byRecord(b.get(0)!), true);
  assert.equal(byColumns(b.slotAt(0)), true, 'the column test agrees with the record test');
});
