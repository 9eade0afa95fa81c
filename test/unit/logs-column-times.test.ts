import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LogBuffer } from '../../src/log-engine/buffer';
import type { LogEntry } from '../../src/api/logs/entry';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12);
const DAY = 86_400_000;

function record(id: number, time: number): LogEntry {
  return logEntry({
    timestamp: new Date(Math.floor(time)).toISOString(),
    requestId: id.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    bytesSent: id,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'FR',
    scheme: 'https',
    host: 'example.com',
    path: '/a',
    url: 'https://example.com/a',
    userAgent: 'curl/8.0',
  });
}

/** Every record held: its time as given, its timestamp text as given, oldest first. */
function checkHeld(b: LogBuffer, given: Map<string, { time: number; text: string }>): void {
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < b.length; i++) {
    const e = b.get(i)!;
    const want = given.get(e.requestId!)!;
    assert.ok(Object.is(b.time(i), want.time), `record ${i}: time ${b.time(i)}, given ${want.time}`);
    assert.equal(e.timestamp, want.text);
    assert.ok(b.time(i) >= last, 'oldest first');
    last = b.time(i);
  }
}

test('times months apart, fractional and far in the past come back exact, in order, through evictions and a moving base', () => {
  const time = fc.oneof(
    fc.integer({ min: -60_000, max: 60_000 }).map((d) => BASE + d),
    fc.integer({ min: -400, max: 400 }).map((d) => BASE + d * DAY + 17),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((d) => BASE + d),
    fc.constantFrom(0, -DAY, 2 ** 31, -(2 ** 31), 8.64e15),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 30 }), fc.array(fc.array(time, { maxLength: 20 }), { maxLength: 12 }), (cap, batches) => {
      const b = new LogBuffer(cap);
      const given = new Map<string, { time: number; text: string }>();
      let id = 0;
      for (const times of batches) {
        const batch = times.map((t) => {
          const e = record(++id, t);
          given.set(e.requestId!, { time: t, text: e.timestamp });
          return e;
        });
        b.insert(batch, times);
        checkHeld(b, given);
      }
    }),
  );
});

test('a store following for months moves its time base: no time is kept aside, and a store emptied takes a new base', () => {
  const b = new LogBuffer(500);
  const given = new Map<string, { time: number; text: string }>();
  let id = 0;
  // 300 days of a slow zone: a page of 100 records every 6 hours
  for (let page = 0; page < 1200; page++) {
    const times = Array.from({ length: 100 }, (_, i) => BASE + page * 6 * 3_600_000 + i * 1000);
    const batch = times.map((t) => {
      const e = record(++id, t);
      given.set(e.requestId!, { time: t, text: e.timestamp });
      return e;
    });
    b.insert(batch, times);
  }
  checkHeld(b, given);
  assert.equal(b.memoryBreakdown()['times kept aside'], 0);
  // emptied, then records from years before: a new base, nothing aside
  b.clear();
  const old = Array.from({ length: 50 }, (_, i) => Date.UTC(2019, 0, 1) + i);
  b.insert(
    old.map((t) => {
      const e = record(++id, t);
      given.set(e.requestId!, { time: t, text: e.timestamp });
      return e;
    }),
    old,
  );
  checkHeld(b, given);
  assert.equal(b.length, 50);
  assert.equal(b.memoryBreakdown()['times kept aside'], 0);
});
