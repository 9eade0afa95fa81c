import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LogBuffer } from '../../src/log-engine/buffer';
import { LogPageReader } from '../../src/log-engine/page-reader';
import { readLogEntry, type LogEntry } from '../../src/api/logs/entry';
import { LogStats } from '../../src/log-records/stats';
import { logEntry } from '../helpers/log-entry';

// A page read into columns (the worker's batch) and inserted from them must leave the store exactly
// as inserting the page's records as objects does (that path is checked against a plain-array
// reference in logs-column-store.test.ts): same records in the same order, same evictions,
// duplicates and drops, same dedupe keys, and the listeners told the same slots and times.

const BASE = Date.UTC(2026, 7, 8, 12);
const hexId = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex'));
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('HIT', 'MISS', 'DE', 'curl/8.0', 'Mozilla/5.0 (X11)', 'ünïcødé ✓', 'quote " and \\', ''));
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 3 });
const ip = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('::1', '2001:DB8::1', '010.0.0.1', 'not an ip', 'fe80:0:0:0:0:0:0:1'));
const num = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(0, 2 ** 32 - 2, 2 ** 32, 2 ** 40, -1, 1.5));

/** A record in the platform's field order (so most take the worker's fast path), with every form the store treats differently. */
const arbEntry = fc
  .record({
    dt: fc.integer({ min: 0, max: 40 }),
    odd: fc.constantFrom('iso', 'iso', 'iso', 'iso', 'noMillis', 'offset', 'feb30', 'nan'),
    pullZoneId: fc.constantFrom(1, 2, 1058, 2 ** 40),
    requestId: fc.oneof(
      hexId,
      hexId,
      hexId,
      fc.integer({ min: 0, max: 40 }).map((n) => n.toString(16).padStart(32, '0')),
      fc.constant(null),
      hexId.map((s) => s.toUpperCase()),
      fc.constant('not-hex'),
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
  .map(({ dt, odd, urlForm, ...r }) => {
    const iso = new Date(BASE + dt * 1000 + (dt % 7)).toISOString();
    const timestamp =
      odd === 'iso'
        ? iso
        : odd === 'noMillis'
          ? iso.replace(/\.\d{3}Z$/, 'Z')
          : odd === 'offset'
            ? iso.replace('Z', '+00:00')
            : odd === 'feb30'
              ? '2026-02-30T10:00:00.000Z'
              : 'not a date';
    const url =
      urlForm === 'null'
        ? null
        : urlForm === 'built' && r.scheme && r.host && r.path !== null
          ? `${r.scheme}://${r.host}${r.path}`
          : `https://elsewhere.example${r.path ?? '/'}`;
    const { pullZoneId, requestId, cacheStatus, statusCode, bytesSent, remoteIp, countryCode, edgeLocation, scheme, host, path } = r;
    const { userAgent, referer, bodyBytesSent, contentRange, authorizationHeader, ja4Fingerprint, asn, asnOrganization } = r;
    return logEntry({
      timestamp,
      pullZoneId,
      requestId,
      cacheStatus,
      statusCode,
      bytesSent,
      remoteIp,
      countryCode,
      edgeLocation,
      scheme,
      host,
      path,
      url,
      userAgent,
      referer,
      bodyBytesSent,
      contentRange,
      authorizationHeader,
      ja4Fingerprint,
      asn,
      asnOrganization,
    });
  });

const bodyOf = (data: unknown[]) => JSON.stringify({ data, pagination: { offset: 0, limit: 100, returned: data.length, hasMore: false } });

/** What a store's listeners and counters say, and every record it holds. */
function watch(b: LogBuffer): { added: number[]; evicted: number[]; state: () => unknown } {
  const added: number[] = [];
  const evicted: number[] = [];
  b.onAdded((slots, times) => {
    assert.equal(slots.length, times.length);
    for (let i = 0; i < slots.length; i++) {
      assert.equal(b.columns.time(slots[i]!), times[i]);
      added.push(times[i]!);
    }
  });
  b.onEvicted((_slot, t) => evicted.push(t));
  return {
    added,
    evicted,
    state: () => ({
      held: b.toArray(),
      times: Array.from({ length: b.length }, (_, i) => b.time(i)),
      dropped: b.dropped,
      duplicates: b.duplicates,
      evictedUpTo: b.evictedUpTo,
    }),
  };
}

test('a page inserted from its columns leaves the store as inserting its records as objects does (dedupe, late records, eviction)', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.array(arbEntry, { maxLength: 30 }), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      (cap, pages, desc) => {
        const fromColumns = new LogBuffer(cap);
        const fromObjects = new LogBuffer(cap);
        const a = watch(fromColumns);
        const b = watch(fromObjects);
        for (const records of pages) {
          const data = desc ? [...records].reverse() : records;
          const text = bodyOf(data);
          const page = reader.readSync(text);
          const addedAt: number[] = [];
          const addedTimes: number[] = [];
          const kept = fromColumns.insertBatch(page.batch, addedAt, addedTimes);
          const entries = data.map((r) => readLogEntry(JSON.parse(JSON.stringify(r)))).filter((e): e is LogEntry => e !== null);
          const added: LogEntry[] = [];
          assert.equal(kept, fromObjects.insert(entries, undefined, added));
          assert.deepEqual(
            addedAt.map((i) => page.batch.entry(i)),
            added,
            'the batch indexes of the records kept',
          );
          assert.equal(addedTimes.length, kept);
          assert.deepEqual(a.state(), b.state());
          for (const e of entries) assert.equal(fromColumns.has(e.requestId ?? ''), fromObjects.has(e.requestId ?? ''));
        }
        assert.deepEqual(a.added, b.added, 'onAdded');
        assert.deepEqual(a.evicted, b.evicted, 'onEvicted');
      },
    ),
    { numRuns: 300 },
  );
});

test('dictionary ids learnt from one reader serve several stores, also after a store gave an id back and reused it', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const small = new LogBuffer(3);
  const big = new LogBuffer(1000);
  const agents = ['curl/8.5.0', 'Wget/1.21', 'Go-http-client/1.1', 'python-requests/2.32'];
  const want: LogEntry[] = [];
  for (let p = 0; p < 20; p++) {
    // one agent per page: the small store lets the old ones go (ids given back) and takes new ones
    const data = Array.from({ length: 3 }, (_, i) => {
      const n = p * 3 + i;
      return readLogEntry({
        timestamp: new Date(BASE + n * 1000).toISOString(),
        pullZoneId: 1 + (p % 2),
        requestId: n.toString(16).padStart(32, '0'),
        cacheStatus: 'HIT',
        statusCode: 200,
        bytesSent: n,
        remoteIp: '10.0.0.1',
        countryCode: 'DE',
        edgeLocation: 'FR',
        scheme: 'https',
        host: 'a.example',
        path: `/p/${p % 5}`,
        url: `https://a.example/p/${p % 5}`,
        userAgent: agents[(p * 7) % agents.length]!,
        referer: null,
      })!;
    });
    want.push(...data);
    const page = reader.readSync(bodyOf(data));
    small.insertBatch(page.batch);
    big.insertBatch(page.batch);
    assert.deepEqual(small.toArray(), want.slice(-3));
  }
  assert.deepEqual(big.toArray(), want);
});

test('statistics of records inserted from columns equal those of the same records inserted as objects', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  fc.assert(
    fc.property(fc.array(fc.array(arbEntry, { maxLength: 30 }), { minLength: 1, maxLength: 5 }), (pages) => {
      const sides = [new LogBuffer(25), new LogBuffer(25)].map((buffer) => {
        const stats = new LogStats();
        buffer.onAdded((slots) => stats.applySlots(buffer.columns, slots, 1));
        buffer.onEvicted((slot) => stats.applySlots(buffer.columns, [slot], -1));
        return { buffer, stats };
      });
      for (const records of pages) {
        sides[0]!.buffer.insertBatch(reader.readSync(bodyOf(records)).batch);
        sides[1]!.buffer.insert(records.map((r) => readLogEntry(r)).filter((e): e is LogEntry => e !== null));
      }
      assert.deepEqual(sides[0]!.stats.snapshot({ top: 50 }), sides[1]!.stats.snapshot({ top: 50 }));
    }),
    { numRuns: 100 },
  );
});

test('pages read by the worker thread insert the same as pages read on this thread', async () => {
  const threaded = new LogPageReader({ workerThreshold: 0 });
  const local = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  try {
    const pages = fc.sample(fc.array(arbEntry, { maxLength: 40 }), { numRuns: 20, seed: 11 }).map(bodyOf);
    const a = new LogBuffer(200);
    const b = new LogBuffer(200);
    for (const text of pages) {
      a.insertBatch((await threaded.read(Buffer.from(text))).batch);
      b.insertBatch(local.readSync(text).batch);
    }
    assert.ok(threaded.workerBusyMs > 0, 'the worker did the reading');
    assert.ok(a.length > 0);
    assert.deepEqual(a.toArray(), b.toArray());
  } finally {
    await threaded.close();
  }
});

test('pages read at the same time go to a second worker thread, with its own dictionaries, and insert the same', async () => {
  const two = new LogPageReader({ workerThreshold: 0 });
  const one = new LogPageReader({ workerThreshold: 0, workers: 1 });
  const local = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  try {
    const pages = fc.sample(fc.array(arbEntry, { minLength: 5, maxLength: 40 }), { numRuns: 12, seed: 5 }).map(bodyOf);
    const [fromTwo, fromOne] = await Promise.all([Promise.all(pages.map((t) => two.read(t))), Promise.all(pages.map((t) => one.read(t)))]);
    assert.equal(two.workersRunning, 2, 'two pages waiting: the second thread started');
    assert.equal(one.workersRunning, 1, 'workers: 1 keeps one thread');
    const stores = [new LogBuffer(300), new LogBuffer(300), new LogBuffer(300)];
    for (let i = 0; i < pages.length; i++) {
      stores[0]!.insertBatch(fromTwo[i]!.batch);
      stores[1]!.insertBatch(fromOne[i]!.batch);
      stores[2]!.insertBatch(local.readSync(pages[i]!).batch);
    }
    assert.ok(stores[2]!.length > 0);
    assert.deepEqual(stores[0]!.toArray(), stores[2]!.toArray());
    assert.deepEqual(stores[1]!.toArray(), stores[2]!.toArray());
  } finally {
    await Promise.all([two.close(), one.close()]);
  }
});

test('a URL that only looks like scheme://host + path because a part is null keeps its own text', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const base = logEntry({
    timestamp: new Date(BASE).toISOString(),
    cacheStatus: 'HIT',
    bytesSent: 1,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'FR',
    scheme: 'https',
    host: 'a.example',
    path: '/p',
    url: 'https://a.example/p',
  });
  const data = [
    base,
    { ...base, bytesSent: 2, scheme: null, url: '://a.example/p' },
    { ...base, bytesSent: 3, host: null, url: 'https:///p' },
    { ...base, bytesSent: 4, path: null, url: 'https://a.example' },
    { ...base, bytesSent: 5, url: 'https://a.example/q' },
  ];
  const page = reader.readSync(bodyOf(data));
  const store = new LogBuffer(10);
  store.insertBatch(page.batch);
  assert.deepEqual(page.entries, data);
  assert.deepEqual(store.toArray(), data);
});
