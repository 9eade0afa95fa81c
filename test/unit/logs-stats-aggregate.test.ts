import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import { LogStats, NO_CACHE_STATUS, pathKey, topOf } from '../../src/log-records/stats';
import { LogBuffer } from '../../src/log-engine/buffer';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12, 0, 0);
let seq = 0;
function rec(over: Partial<LogEntry> & { t?: number } = {}): LogEntry {
  const t = over.t ?? BASE;
  seq++;
  const { t: _t, ...rest } = over;
  return logEntry({
    timestamp: new Date(t).toISOString(),
    requestId: seq.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'a.example',
    path: '/x',
    url: 'https://a.example/x',
    userAgent: 'ua',
    ...rest,
  });
}

/** The snapshot computed the slow way, from the records themselves. */
function naive(entries: LogEntry[], top = 5) {
  const count = (f: (e: LogEntry) => string) => {
    const m = new Map<string, number>();
    for (const e of entries) m.set(f(e), (m.get(f(e)) ?? 0) + 1);
    return m;
  };
  const sorted = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, n)
      .map(([key, count]) => ({ key, count }));
  const cache = count((e) => e.cacheStatus ?? NO_CACHE_STATUS);
  const cacheable = entries.filter((e) => e.cacheStatus !== null && e.cacheStatus !== '-').length;
  const classes = [0, 0, 0, 0, 0, 0];
  for (const e of entries) {
    const c = Math.floor(e.statusCode / 100);
    classes[c >= 1 && c <= 5 ? c - 1 : 5]!++;
  }
  return {
    records: entries.length,
    bytes: entries.reduce((n, e) => n + e.bytesSent, 0),
    statusClasses: classes,
    cache: sorted(cache, cache.size),
    hitRatio: cacheable ? entries.filter((e) => e.cacheStatus === 'HIT').length / cacheable : null,
    topPaths: sorted(count(pathKey), top),
    topIps: sorted(
      count((e) => e.remoteIp ?? '(none)'),
      top,
    ),
    topCountries: sorted(
      count((e) => e.countryCode ?? '(none)'),
      top,
    ),
    topEdges: sorted(
      count((e) => e.edgeLocation ?? '(none)'),
      top,
    ),
  };
}

const CACHE = ['HIT', 'MISS', 'BYPASS', 'REVALIDATED', 'STALE', 'UPDATING', 'EXPIRED', '-', null] as const;
const arbRecord = fc.record({
  dt: fc.integer({ min: 0, max: 120_000 }),
  status: fc.constantFrom(200, 204, 301, 304, 404, 403, 500, 503, 101, 99),
  cache: fc.constantFrom(...CACHE),
  ip: fc.constantFrom('10.0.0.1', '10.0.0.2', '2001:db8::1', null),
  path: fc.constantFrom('/a', '/b?x=1', '/b?x=2', '/c', null),
  cc: fc.constantFrom('DE', 'US', 'FR', null),
  edge: fc.constantFrom('DE', 'NY', 'LA'),
  bytes: fc.integer({ min: 0, max: 10_000 }),
});

test('incremental stats over a ring buffer equal the stats recomputed from what it holds (adds, late records, evictions)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.array(arbRecord, { maxLength: 30 }), { maxLength: 12 }), (capacity, batches) => {
      const buffer = new LogBuffer(capacity);
      const stats = new LogStats();
      buffer.onEvicted((slot) => stats.applySlots(buffer.columns, [slot], -1));
      // as the view model does: records in and out read from the columns
      buffer.onAdded((slots) => stats.applySlots(buffer.columns, slots, 1));
      for (const batch of batches) {
        const entries = batch.map((r) =>
          rec({
            t: BASE + r.dt,
            statusCode: r.status,
            cacheStatus: r.cache,
            remoteIp: r.ip,
            path: r.path,
            countryCode: r.cc,
            edgeLocation: r.edge,
            bytesSent: r.bytes,
          }),
        );
        buffer.insert(entries);
      }
      const held = buffer.toArray();
      const snap = stats.snapshot();
      const want = naive(held);
      assert.equal(snap.records, want.records);
      assert.equal(snap.bytes, want.bytes);
      assert.deepEqual(snap.statusClasses, want.statusClasses);
      assert.deepEqual(snap.cache, want.cache);
      assert.equal(snap.hitRatio, want.hitRatio);
      assert.deepEqual(snap.topPaths, want.topPaths);
      assert.deepEqual(snap.topIps, want.topIps);
      assert.deepEqual(snap.topCountries, want.topCountries);
      assert.deepEqual(snap.topEdges, want.topEdges);
      // the rate series sums to the records in its seconds
      if (held.length) {
        const end = Math.floor(Date.parse(held[held.length - 1]!.timestamp) / 1000);
        const inSeries = held.filter((e) => Math.floor(Date.parse(e.timestamp) / 1000) > end - snap.rate.length).length;
        assert.equal(
          snap.rate.reduce((a, b) => a + b, 0),
          inSeries,
        );
        assert.equal(snap.rateEnd, end);
      } else {
        assert.deepEqual(snap.rate, []);
      }
    }),
    { numRuns: 150 },
  );
});

test('every cache status is listed (the none and "-" too) and the hit ratio is HIT over records with a cache status', () => {
  const stats = new LogStats();
  const entries = [
    ...Array.from({ length: 6 }, () => rec({ cacheStatus: 'HIT' })),
    ...Array.from({ length: 2 }, () => rec({ cacheStatus: 'MISS' })),
    rec({ cacheStatus: 'EXPIRED' }),
    rec({ cacheStatus: 'STALE' }),
    rec({ cacheStatus: 'UPDATING' }),
    rec({ cacheStatus: 'REVALIDATED' }),
    rec({ cacheStatus: 'BYPASS' }),
    rec({ cacheStatus: '-' }),
    rec({ cacheStatus: '-' }),
    rec({ cacheStatus: null }),
  ];
  stats.add(entries);
  const s = stats.snapshot();
  assert.deepEqual(s.cache.map((c) => c.key).sort(), ['-', '(none)', 'BYPASS', 'EXPIRED', 'HIT', 'MISS', 'REVALIDATED', 'STALE', 'UPDATING'].sort());
  assert.equal(s.cache[0]!.key, 'HIT');
  assert.equal(s.cacheable, 13);
  assert.equal(s.hitRatio, 6 / 13);
  stats.remove(entries);
  const empty = stats.snapshot();
  assert.equal(empty.records, 0);
  assert.equal(empty.hitRatio, null);
  assert.deepEqual(empty.cache, []);
  assert.equal(empty.oldest, null);
});

test('rate series: per second, ends at the given time, counts only its seconds', () => {
  const stats = new LogStats();
  const at = (s: number, n: number) => Array.from({ length: n }, () => rec({ t: BASE + s * 1000 + 5 }));
  stats.add([...at(0, 3), ...at(1, 1), ...at(3, 4), ...at(9, 2)]);
  const s = stats.snapshot({ rateSeconds: 5 });
  assert.deepEqual(s.rate, [0, 0, 0, 0, 2]);
  const early = stats.snapshot({ rateSeconds: 5, rateEndMs: BASE + 3500 });
  assert.deepEqual(early.rate, [3, 1, 0, 4]);
  assert.equal(early.ratePerSecond, 2);
});

test('topOf keeps the n largest, ties by key', () => {
  const m = new Map([
    ['b', 2],
    ['a', 2],
    ['c', 5],
    ['d', 1],
  ]);
  assert.deepEqual(topOf(m, 3), [
    { key: 'c', count: 5 },
    { key: 'a', count: 2 },
    { key: 'b', count: 2 },
  ]);
  assert.deepEqual(topOf(m, 0), []);
});

test('the buffer reports exactly the records it let go', () => {
  const buffer = new LogBuffer(3);
  const gone: LogEntry[] = [];
  buffer.onEvicted((slot) => gone.push(buffer.columns.entry(slot)));
  const [a, b, c, d, e] = [1, 2, 3, 4, 5].map((s) => rec({ t: BASE + s * 1000 }));
  buffer.insert([a!, b!, c!]);
  assert.deepEqual(gone, []);
  buffer.insert([e!]);
  assert.deepEqual(gone, [a]);
  buffer.insert([d!]); // late, lands in the middle; the oldest goes
  assert.deepEqual(gone, [a, b]);
  assert.deepEqual(buffer.toArray(), [c, d, e]);
});
