import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LogBuffer } from '../../src/log-engine/buffer';
import { entryKey, parseTimestamp, type LogEntry } from '../../src/api/logs/entry';
import { formatIpv6, writeIpv6 } from '../../src/log-engine/columns/codecs';
import { columnTest, compilePattern, recordTest } from '../../src/log-records/filter';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12);
const hexId = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex'));
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('HIT', 'MISS', 'DE', 'US', 'curl/8.0', 'Mozilla/5.0 (X11)', 'ünïcødé ✓', 'a|b', ''));
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 3 });
const ip = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.constantFrom('::1', '2001:db8::1', '2001:DB8::1', '::ffff:1.2.3.4', '010.0.0.1', 'not an ip', '1.2.3.4.5', 'fe80:0:0:0:0:0:0:1'),
);
const num = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(0, 2 ** 32 - 2, 2 ** 32 - 1, 2 ** 32, 2 ** 40, -1, 1.5));

/** Any record the API could send, with fields in every form the store treats differently. */
const arbEntry = fc
  .record({
    dt: fc.integer({ min: 0, max: 60_000 }),
    odd: fc.constantFrom('iso', 'iso', 'iso', 'noMillis', 'offset'),
    pullZoneId: fc.constantFrom(1, 2, 1058, 2 ** 40),
    requestId: fc.oneof(
      hexId,
      hexId,
      hexId,
      fc.constant(null),
      hexId.map((s) => s.toUpperCase()),
      fc.constant('not-hex'),
      fc.uuid(),
    ),
    cacheStatus: nullable(fc.constantFrom('HIT', 'MISS', 'BYPASS', '-')),
    statusCode: fc.oneof(fc.constantFrom(200, 206, 304, 404, 500, 503), fc.constantFrom(0, 70_000, 99.5)),
    bytesSent: num,
    remoteIp: nullable(ip),
    countryCode: nullable(fc.constantFrom('DE', 'US', 'FR')),
    edgeLocation: nullable(text),
    scheme: nullable(fc.constantFrom('https', 'http')),
    host: nullable(fc.constantFrom('a.example', 'b.example', 'ünï.example')),
    path: nullable(
      fc.oneof(
        text.map((s) => `/${s}`),
        fc.constantFrom('/?q=1', '', '/x?y'),
      ),
    ),
    urlForm: fc.constantFrom('built', 'built', 'other', 'null'),
    userAgent: nullable(text),
    referer: nullable(text),
    bodyBytesSent: nullable(num),
    contentRange: nullable(fc.constantFrom('bytes 0-1023/4096', 'bytes 5-9/*')),
    authorizationHeader: nullable(fc.constantFrom('Bearer abc', 'Basic xyz')),
    ja4Fingerprint: nullable(fc.constantFrom('t13d1516h2_8daaf6152771', 'x')),
    asn: nullable(num),
    asnOrganization: nullable(text),
  })
  .map(({ dt, odd, urlForm, ...r }): LogEntry => {
    const t = BASE + dt;
    const iso = new Date(t).toISOString();
    const timestamp = odd === 'iso' ? iso : odd === 'noMillis' ? iso.replace(/\.\d{3}Z$/, 'Z') : iso.replace('Z', '+00:00');
    const url =
      urlForm === 'null'
        ? null
        : urlForm === 'built' && r.scheme && r.host && r.path !== null
          ? `${r.scheme}://${r.host}${r.path}`
          : `https://elsewhere.example${r.path ?? '/'}`;
    return { timestamp, ...r, url };
  });

test('a record stored in columns comes back equal field for field (every form: ids, IPs, URLs, numbers, odd timestamps, nulls)', () => {
  fc.assert(
    fc.property(fc.array(arbEntry, { minLength: 1, maxLength: 60 }), (entries) => {
      const b = new LogBuffer(1000);
      b.insert(entries);
      const want = new Map<string, LogEntry>();
      for (const e of entries) if (!want.has(e.requestId ?? entryKey(e))) want.set(e.requestId ?? entryKey(e), e);
      assert.equal(b.length, want.size);
      for (let i = 0; i < b.length; i++) {
        const got = b.get(i)!;
        assert.deepEqual(got, want.get(got.requestId ?? entryKey(got)));
        assert.equal(b.time(i), parseTimestamp(got.timestamp));
        if (i > 0) assert.ok(b.time(i - 1) <= b.time(i), 'time order');
      }
    }),
    { numRuns: 300 },
  );
});

test('IPv6 is kept as 16 bytes only in its canonical form, so the text always comes back the same', () => {
  const bytes = new Uint8Array(16);
  assert.equal(writeIpv6('2001:db8::1', bytes, 0), true);
  assert.equal(formatIpv6(bytes, 0), '2001:db8::1');
  assert.equal(writeIpv6('2001:DB8::1', bytes, 0), false);
  assert.equal(writeIpv6('fe80:0:0:0:0:0:0:1', bytes, 0), false);
  assert.equal(writeIpv6('1:0:0:2::3', bytes, 0), true, 'the longer zero run is the one compressed');
  assert.equal(writeIpv6('1::2:0:0:0:3', bytes, 0), false);
  assert.equal(writeIpv6('1:0:0:2:0:0:0:3', bytes, 0), false);
});

/** Reference: every unique record (by request id), in time order (ties in arrival order), the oldest dropped beyond capacity. */
function reference(cap: number, batches: LogEntry[][]): { held: LogEntry[]; dropped: number; duplicates: number } {
  let held: { e: LogEntry; t: number; n: number }[] = [];
  const ever = new Set<string>();
  let dropped = 0;
  let duplicates = 0;
  let n = 0;
  for (const batch of batches) {
    const keys = new Set(held.map((h) => h.e.requestId!));
    const fresh: { e: LogEntry; t: number; n: number }[] = [];
    for (const e of batch) {
      if (keys.has(e.requestId!)) {
        duplicates++;
        continue;
      }
      keys.add(e.requestId!);
      ever.add(e.requestId!);
      fresh.push({ e, t: parseTimestamp(e.timestamp), n: 0 });
    }
    fresh.sort((a, b) => a.t - b.t);
    for (const f of fresh) f.n = n++;
    // equal times keep the records held first, then the batch in its order
    held = [...held, ...fresh].sort((a, b) => a.t - b.t || a.n - b.n);
    while (held.length > cap) {
      held.shift();
      dropped++;
    }
  }
  return { held: held.map((h) => h.e), dropped, duplicates };
}

test('dedupe by request id, late records in time order, eviction of the oldest: equal to a plain-array reference', () => {
  const record = fc.record({ id: fc.integer({ min: 0, max: 80 }), dt: fc.integer({ min: 0, max: 50 }) });
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.array(record, { maxLength: 25 }), { maxLength: 12 }), (cap, raw) => {
      // one time per id, so a duplicate is the same record sent again
      const batches = raw.map((batch) =>
        batch.map(({ id }) => {
          const t = BASE + ((id * 7919) % 51) * 1000;
          return { ...sample, requestId: id.toString(16).padStart(32, '0'), timestamp: new Date(t).toISOString(), bytesSent: id };
        }),
      );
      const b = new LogBuffer(cap);
      const evicted: string[] = [];
      b.onEvicted((slot) => evicted.push(b.columns.requestId(slot)!));
      for (const batch of batches) b.insert(batch);
      const want = reference(cap, batches);
      assert.deepEqual(
        b.toArray().map((e) => e.requestId),
        want.held.map((e) => e.requestId),
      );
      assert.equal(b.dropped, want.dropped, 'dropped');
      assert.equal(b.duplicates, want.duplicates, 'duplicates');
      for (const e of want.held) assert.equal(b.has(e.requestId!), true);
      for (const id of evicted)
        assert.equal(
          b.has(id),
          want.held.some((e) => e.requestId === id),
          'an evicted id is no longer held',
        );
      if (b.length) assert.equal(b.oldestTime, parseTimestamp(want.held[0]!.timestamp));
    }),
    { numRuns: 300 },
  );
});

const sample: LogEntry = logEntry({
  timestamp: new Date(BASE).toISOString(),
  cacheStatus: 'HIT',
  bytesSent: 1,
  remoteIp: '10.0.0.1',
  countryCode: 'DE',
  edgeLocation: 'DE',
  scheme: 'https',
  host: 'h.example',
  path: '/a',
  url: 'https://h.example/a',
  userAgent: 'curl/8.0',
});

test('the column test of a pattern equals the record test on every stored record (dictionary values tried once, ids reused)', () => {
  const patterns = ['^5', 'hit', 'MISS', '\\.example/', '10\\.0', 'curl', '::', '2026-08-08T12:00:0', 'ünï', '^[0-9a-f]{4}', 'de|fr', '/\\?q'];
  fc.assert(
    fc.property(
      fc.constantFrom(...patterns),
      fc.integer({ min: 5, max: 50 }),
      fc.array(fc.array(arbEntry, { maxLength: 30 }), { maxLength: 6 }),
      (source, cap, batches) => {
        const p = compilePattern(source);
        assert.ok(p.ok);
        const b = new LogBuffer(cap);
        const byColumns = columnTest(p, b.columns);
        const byRecord = recordTest(p);
        for (const batch of batches) {
          b.insert(batch);
          // tested after every batch: evictions give dictionary ids to new values
          for (let i = 0; i < b.length; i++) assert.equal(byColumns(b.slotAt(i)), byRecord(b.get(i)!), `${source} on ${JSON.stringify(b.get(i))}`);
        }
      },
    ),
    { numRuns: 200 },
  );
});

test('the byte arena lets chunks go as the records in them leave: a small store of long URLs stays small however much passes through', () => {
  const b = new LogBuffer(50);
  const long = 'x'.repeat(5000);
  for (let n = 0; n < 4000; n += 20) {
    b.insert(
      Array.from({ length: 20 }, (_, i) => ({
        ...sample,
        requestId: (n + i + 1).toString(16).padStart(32, '0'),
        timestamp: new Date(BASE + (n + i) * 10).toISOString(),
        url: `https://elsewhere.example/${n + i}/${long}`,
      })),
    );
  }
  assert.equal(b.length, 50);
  assert.equal(b.get(49)!.url, `https://elsewhere.example/3999/${long}`, 'the newest are held whole');
  // 20 MB went through; 50 records of 5 kB need one or two 1 MiB chunks
  assert.ok(b.columns.arenaBytes <= 3 * 2 ** 20, `arena holds ${b.columns.arenaBytes} bytes`);
});
