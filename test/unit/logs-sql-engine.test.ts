import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import { LogsSqlEngine, LogsSqlRefusal } from '../../src/logs-sql/engine';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);

const entryArb: fc.Arbitrary<LogEntry> = fc
  .record({
    offsetMs: fc.integer({ min: 0, max: 3_600_000 }),
    pullZoneId: fc.constantFrom(1058, 1199),
    statusCode: fc.constantFrom(200, 204, 301, 304, 404, 429, 500, 503),
    cacheStatus: fc.option(fc.constantFrom('HIT', 'MISS', 'BYPASS', '-'), { nil: null }),
    bytesSent: fc.integer({ min: 0, max: 5_000_000 }),
    countryCode: fc.option(fc.constantFrom('DE', 'US', 'FR', 'JP'), { nil: null }),
    path: fc.option(fc.constantFrom('/', '/a.js', '/img/x.png', '/api?q=1'), { nil: null }),
    // any text, lone surrogates and controls included: the engine must take it, never abort
    userAgent: fc.option(fc.string({ unit: 'binary', maxLength: 30 }), { nil: null }),
  })
  .map((r) =>
    logEntry({
      timestamp: new Date(BASE + r.offsetMs).toISOString(),
      pullZoneId: r.pullZoneId,
      cacheStatus: r.cacheStatus,
      statusCode: r.statusCode,
      bytesSent: r.bytesSent,
      remoteIp: '198.51.100.7',
      countryCode: r.countryCode,
      edgeLocation: 'DE',
      scheme: 'https',
      host: 'zone.b-cdn.net',
      path: r.path,
      url: r.path === null ? null : `https://zone.b-cdn.net${r.path}`,
      userAgent: r.userAgent,
    }),
  );

/** GROUP BY in plain TypeScript: key -> [count, sum of bytes]. */
function groupBy(entries: LogEntry[], key: (e: LogEntry) => string): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const e of entries) {
    const k = key(e);
    const v = out.get(k) ?? [0, 0];
    v[0]++;
    v[1] += e.bytesSent;
    out.set(k, v);
  }
  return out;
}

test('GROUP BY status, country over random records equals the same sums in TypeScript', async () => {
  const engine = await LogsSqlEngine.open();
  try {
    let loaded: LogEntry[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { maxLength: 200 }), async (batch) => {
        // the table grows batch by batch, as while following
        await engine.append(batch);
        loaded = loaded.concat(batch);
        const [result] = await engine.run('SELECT status, country, count(*) AS n, sum(bytes) AS bytes FROM logs GROUP BY 1, 2');
        const got = new Map(result!.rows.map((r) => [`${r[0]}|${r[1] ?? ''}`, [Number(r[2]), Number(r[3])] as [number, number]]));
        assert.deepEqual(
          got,
          groupBy(loaded, (e) => `${e.statusCode}|${e.countryCode ?? ''}`),
        );
        assert.equal(engine.rowCount, loaded.length);
      }),
      { numRuns: 40 },
    );
  } finally {
    engine.close();
  }
});

test('time columns, filters and top-N agree with TypeScript', async () => {
  const entries = fc.sample(entryArb, { numRuns: 2000, seed: 7 });
  const engine = await LogsSqlEngine.open();
  try {
    await engine.append(entries);
    const cut = BASE + 1_800_000;
    const [late] = await engine.run(`SELECT count(*) FROM logs WHERE cache_status = 'MISS' AND time_ms >= ${cut}`);
    assert.equal(Number(late!.rows[0]![0]), entries.filter((e) => e.cacheStatus === 'MISS' && Date.parse(e.timestamp) >= cut).length);
    const [top] = await engine.run('SELECT path, sum(bytes) AS b FROM logs WHERE path IS NOT NULL GROUP BY path ORDER BY b DESC, path LIMIT 2');
    const expected = [
      ...groupBy(
        entries.filter((e) => e.path !== null),
        (e) => e.path!,
      ),
    ]
      .sort((a, b) => b[1][1] - a[1][1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 2);
    assert.deepEqual(
      top!.rows.map((r) => [r[0], Number(r[1])]),
      expected.map(([p, [, b]]) => [p, b]),
    );
    const [times] = await engine.run(`SELECT time, time_ms, strftime(ts, '%Y-%m-%dT%H:%M:%S.%g') FROM logs ORDER BY time_ms LIMIT 1`);
    const first = [...entries].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))[0]!;
    assert.deepEqual(times!.rows[0], [first.timestamp, BigInt(Date.parse(first.timestamp)), first.timestamp.slice(0, -1)]);
    assert.equal(engine.asOfMs, Math.max(...entries.map((e) => Date.parse(e.timestamp))));
  } finally {
    engine.close();
  }
});

test("the logs table is read-only; tables and views of the user's own are not", async () => {
  const engine = await LogsSqlEngine.open();
  try {
    await engine.append(fc.sample(entryArb, { numRuns: 50, seed: 1 }));
    for (const sql of [
      'DELETE FROM logs',
      'delete from "logs" where status = 200',
      'UPDATE main.logs SET status = 1',
      'INSERT INTO logs (status) VALUES (1)',
      '/* sneaky */ DROP TABLE logs',
      'DROP TABLE IF EXISTS memory.main.logs',
      'ALTER TABLE logs ADD COLUMN x INTEGER',
      'CREATE OR REPLACE TABLE logs AS SELECT 1',
      'CREATE INDEX i ON logs (status)',
      'SELECT 1; DELETE FROM logs',
    ]) {
      await assert.rejects(engine.run(sql), LogsSqlRefusal, sql);
    }
    const [count] = await engine.run('SELECT count(*) FROM logs');
    assert.equal(count!.rows[0]![0], 50n, 'nothing was changed');
    const results = await engine.run(
      'CREATE TEMP TABLE errors AS SELECT * FROM logs WHERE status >= 500; CREATE VIEW ok AS SELECT * FROM logs WHERE status < 400; INSERT INTO errors SELECT * FROM logs WHERE status = 404; SELECT count(*) FROM errors',
    );
    const last = results[results.length - 1]!;
    const [expected] = await engine.run('SELECT count(*) FROM logs WHERE status >= 500 OR status = 404');
    assert.deepEqual(last.rows, expected!.rows);
  } finally {
    engine.close();
  }
});

test('the engine cannot reach files, settings or extensions', async () => {
  const engine = await LogsSqlEngine.open();
  try {
    for (const sql of [
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/hostname')",
      "COPY (SELECT 1) TO '/tmp/burrow-logs-sql-test.csv'",
      "ATTACH '/tmp/burrow-logs-sql-test.duckdb' AS x",
      'SET enable_external_access = true',
      'INSTALL httpfs',
      'LOAD httpfs',
      "EXPORT DATABASE '/tmp/burrow-logs-sql-export'",
    ]) {
      await assert.rejects(engine.run(sql), Error, sql);
    }
  } finally {
    engine.close();
  }
});
