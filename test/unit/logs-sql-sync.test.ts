import fs from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LogBuffer } from '../../src/log-engine/buffer';
import type { LogEntry } from '../../src/api/logs/entry';
import { LogsSqlEngine } from '../../src/logs-sql/engine';
import { LogsTableSync } from '../../src/logs-sql/table-sync';
import { logEntry } from '../helpers/log-entry';

// The logs table kept equal to a screen's buffer: loaded from the columnar store, appended,
// evicted, made again for a new buffer; every row checked against the buffer's records.

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);
const hex = fc.stringMatching(/^[0-9a-f]{32}$/);

const entryArb: fc.Arbitrary<LogEntry> = fc
  .record({
    offsetMs: fc.integer({ min: 0, max: 600_000 }),
    pullZoneId: fc.constantFrom(1058, 1199, 4_000_000_000),
    // mostly ids of 32 hex digits; some other text and none (those go through the row appender)
    requestId: fc.oneof({ weight: 8, arbitrary: hex }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('req-1', 'XYZ') }),
    statusCode: fc.constantFrom(200, 204, 301, 304, 404, 429, 500, 503),
    cacheStatus: fc.option(fc.constantFrom('HIT', 'MISS', 'BYPASS', 'REVALIDATED', '-'), { nil: null }),
    bytesSent: fc.integer({ min: 0, max: 5_000_000_000 }),
    remoteIp: fc.oneof(
      { weight: 6, arbitrary: fc.ipV4() },
      { weight: 1, arbitrary: fc.constantFrom('2001:db8::1', '::1') },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
    countryCode: fc.option(fc.constantFrom('DE', 'US', 'FR', 'JP'), { nil: null }),
    edgeLocation: fc.option(fc.constantFrom('DE', 'NY', 'SG'), { nil: null }),
    host: fc.constantFrom('zone.b-cdn.net', 'cdn.example.com'),
    path: fc.option(
      fc.oneof(
        fc.constantFrom('/', '/a.js', '/img/x.png', "/api?q='1'"),
        fc.string({ maxLength: 40 }).map((s) => `/${s}`),
      ),
      { nil: null },
    ),
    userAgent: fc.option(fc.string({ maxLength: 60 }), { nil: null }),
    referer: fc.option(fc.constantFrom('https://example.com/', 'https://a.test/p?x=1'), { nil: null }),
    asn: fc.option(fc.integer({ min: 1, max: 400_000 }), { nil: null }),
  })
  .map((r) =>
    logEntry({
      timestamp: new Date(BASE + r.offsetMs).toISOString(),
      pullZoneId: r.pullZoneId,
      requestId: r.requestId,
      cacheStatus: r.cacheStatus,
      statusCode: r.statusCode,
      bytesSent: r.bytesSent,
      remoteIp: r.remoteIp,
      countryCode: r.countryCode,
      edgeLocation: r.edgeLocation,
      scheme: 'https',
      host: r.host,
      path: r.path,
      url: r.path === null ? null : `https://${r.host}${r.path}`,
      userAgent: r.userAgent,
      referer: r.referer,
      asn: r.asn,
    }),
  );

const COLUMNS =
  'time, time_ms, pull_zone, status, cache_status, scheme, host, path, bytes, country, edge, remote_ip, user_agent, referer, request_id, asn, url';

/** The row the table should hold for a record, computed in TypeScript. */
function expectedRow(e: LogEntry): unknown[] {
  const ms = Date.parse(e.timestamp);
  const url = e.scheme === null || e.host === null || e.path === null ? null : `${e.scheme}://${e.host}${e.path}`;
  return [
    new Date(ms).toISOString(),
    BigInt(ms),
    BigInt(e.pullZoneId),
    BigInt(e.statusCode),
    e.cacheStatus,
    e.scheme,
    e.host,
    e.path,
    BigInt(e.bytesSent),
    e.countryCode,
    e.edgeLocation,
    e.remoteIp,
    e.userAgent,
    e.referer,
    e.requestId,
    e.asn === null ? null : BigInt(e.asn),
    url,
  ];
}

const order = (a: unknown[], b: unknown[]) => {
  const x = JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  const y = JSON.stringify(b, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  return x < y ? -1 : x > y ? 1 : 0;
};

async function assertMirrors(engine: LogsSqlEngine, buffer: LogBuffer, when: string): Promise<void> {
  const [result] = await engine.run(`SELECT ${COLUMNS} FROM logs`);
  const actual = result!.rows.map((r) => [...r]).sort(order);
  const expected = buffer.toArray().map(expectedRow).sort(order);
  assert.equal(engine.rowCount, buffer.length, `${when}: the row count is the buffer's`);
  assert.deepEqual(actual, expected, `${when}: every row is the buffer's record`);
}

test('the logs table mirrors the buffer through loads, appends and evictions, on random records', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(entryArb, { minLength: 1, maxLength: 120 }), { minLength: 2, maxLength: 5 }),
      fc.integer({ min: 20, max: 150 }),
      async (batches, capacity) => {
        const engine = await LogsSqlEngine.open();
        let buffer = new LogBuffer(capacity);
        // the first batch is there before the shell opens
        buffer.insert(batches[0]!);
        const sync = new LogsTableSync(
          engine,
          () => buffer,
          async () => undefined,
        );
        try {
          let report = await sync.sync();
          assert.equal(report.reloaded, true);
          await assertMirrors(engine, buffer, 'first load');
          for (const batch of batches.slice(1)) {
            buffer.insert(batch);
            report = await sync.sync();
            assert.equal(report.rebuilt, false, 'appends and evictions are mirrored without making the table again');
            await assertMirrors(engine, buffer, `after a batch of ${batch.length}`);
          }
          // a new query: a new buffer, the table made again from it
          buffer = new LogBuffer(capacity);
          buffer.insert(batches[batches.length - 1]!);
          report = await sync.sync();
          assert.equal(report.reloaded, true);
          await assertMirrors(engine, buffer, 'a new buffer');
        } finally {
          sync.detach();
          engine.close();
        }
      },
    ),
    { numRuns: 25, endOnFailure: true },
  );
});

test('GROUP BY status, country over a loaded buffer equals the same sums in TypeScript', async () => {
  const records = fc.sample(entryArb, { numRuns: 5000, seed: 11 });
  const buffer = new LogBuffer(10_000);
  buffer.insert(records);
  const engine = await LogsSqlEngine.open();
  const sync = new LogsTableSync(engine, () => buffer);
  try {
    await sync.sync();
    const [r] = await engine.run('SELECT status, country, count(*) AS n, sum(bytes) AS b FROM logs GROUP BY 1, 2');
    const got = new Map(r!.rows.map(([s, c, n, b]) => [`${s}|${c}`, [Number(n), Number(b)]]));
    const want = new Map<string, number[]>();
    for (const e of buffer.toArray()) {
      const k = `${e.statusCode}|${e.countryCode}`;
      const v = want.get(k) ?? [0, 0];
      v[0]! += 1;
      v[1]! += e.bytesSent;
      want.set(k, v);
    }
    assert.deepEqual(got, want);
  } finally {
    sync.detach();
    engine.close();
  }
});

test('a record that leaves the store while a sliced load waits is not loaded as another', async () => {
  const regular = fc
    .sample(entryArb, { numRuns: 15_000, seed: 5 })
    .filter((e) => e.requestId !== null && /^[0-9a-f]{32}$/.test(e.requestId) && e.remoteIp !== null && !e.remoteIp.includes(':'));
  // three generations of 3000 records, each newer than the last
  const generation = (g: number) =>
    regular.slice(g * 3000, g * 3000 + 3000).map((e, i) => ({ ...e, timestamp: new Date(BASE + g * 3_600_000 + i).toISOString() }));
  assert.ok(regular.length >= 9000);
  const buffer = new LogBuffer(3000);
  buffer.insert(generation(0));
  const engine = await LogsSqlEngine.open();
  let moveUnder = false;
  let moved = 0;
  // between two slices of a load, the follow brings newer records: the ones being loaded leave
  // and their slots hold other records
  const sync = new LogsTableSync(
    engine,
    () => buffer,
    async () => {
      if (!moveUnder) return;
      moveUnder = false;
      moved = buffer.insert(generation(2));
    },
    0,
  );
  try {
    assert.equal((await sync.sync()).rebuilt, false);
    buffer.insert(generation(1));
    moveUnder = true;
    assert.equal((await sync.sync()).rebuilt, false);
    assert.equal(moved, 3000, 'the records moved in the middle of the load');
    assert.equal((await sync.sync()).rebuilt, false, 'the records that moved were told apart, not mended afterwards');
    await assertMirrors(engine, buffer, 'after the records moved under a load');
  } finally {
    sync.detach();
    engine.close();
  }
});

test("the README's incident queries for the logs shell run on a loaded buffer", async () => {
  const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /From the logs screen[\s\S]*?```sql\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'the README has the block');
  const queries = block.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('--'));
  assert.equal(queries.length, 3);
  const buffer = new LogBuffer(5000);
  buffer.insert(fc.sample(entryArb, { numRuns: 3000, seed: 3 }));
  const engine = await LogsSqlEngine.open();
  const sync = new LogsTableSync(engine, () => buffer);
  try {
    await sync.sync();
    for (const q of queries) {
      const [r] = await engine.run(q);
      assert.ok(r!.rows.length > 0, `${q} gives rows`);
    }
  } finally {
    sync.detach();
    engine.close();
  }
});
