import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { NO_EXTENDED_FIELDS, type LogEntry } from '../../src/api/logs/entry';
import { LogsSqlEngine } from '../../src/logs-sql/engine';

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);

function entries(n: number): LogEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(BASE + i * 1000).toISOString(),
    pullZoneId: 1058,
    requestId: null,
    cacheStatus: 'HIT',
    statusCode: i % 7 === 0 ? 500 : 200,
    bytesSent: 100 + i,
    remoteIp: '198.51.100.7',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'zone.b-cdn.net',
    path: `/p/${i}`,
    url: `https://zone.b-cdn.net/p/${i}`,
    userAgent: 'ua',
    referer: 'https://ref.example/',
    ...NO_EXTENDED_FIELDS,
  }));
}

/** What must not change: the rows (count and a sum over every stored column), the columns, and what `logs` names. */
async function fingerprint(engine: LogsSqlEngine): Promise<string> {
  const [rows] = await engine.run('SELECT count(*), sum(hash(ts, pull_zone, status, cache_status, path, bytes, referer, user_agent)) FROM logs');
  const [cols] = await engine.run(
    "SELECT string_agg(column_name, ',' ORDER BY column_index) FROM duckdb_columns() WHERE database_name = 'memory' AND table_name = 'logs'",
  );
  const [named] = await engine.run('SELECT count(*) FROM logs');
  return JSON.stringify([rows!.rows, cols!.rows, named!.rows], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

/** Runs `sql`; true when it ran, false when the engine refused or failed it. */
async function attempt(engine: LogsSqlEngine, sql: string): Promise<boolean> {
  try {
    await engine.run(sql);
    return true;
  } catch {
    return false;
  }
}

/** The statements of issue 28 (each ran on the old text check), plus their near relatives. */
const HOSTILE_WRITES = [
  'DELETE FROM memory.logs',
  'UPDATE memory.logs SET status = 1',
  'INSERT INTO memory.logs (status) VALUES (1)',
  'CREATE OR REPLACE TABLE memory.logs AS SELECT 1 AS x',
  'DROP TABLE memory.logs',
  'EXPLAIN ANALYZE DELETE FROM logs',
  'SELECT $$; DELETE FROM mine$$; DELETE FROM logs',
  "WITH a AS (SELECT ') DELETE FROM mine') DELETE FROM logs",
  'ALTER TABLE memory.logs DROP COLUMN referer',
  'ALTER TABLE logs RENAME TO old_logs',
  'TRUNCATE logs',
  'MERGE INTO logs USING (SELECT 1 AS x) s ON false WHEN NOT MATCHED THEN INSERT (status) VALUES (s.x)',
  'CREATE OR REPLACE TABLE logs AS SELECT 1 AS x',
  'CREATE TEMP TABLE logs AS SELECT 1 AS x',
  'CREATE VIEW "LOGS" AS SELECT 1 AS x',
  'CREATE INDEX i ON logs (status)',
  'COMMENT ON COLUMN logs.status IS $$x$$',
  'DROP SCHEMA memory.main CASCADE',
  'CREATE TABLE memory.main.mine AS SELECT 1 AS x',
];

test('every write to logs in issue 28 is refused by the engine, and the table and its columns stay as they were', async () => {
  const engine = await LogsSqlEngine.open();
  try {
    await engine.load(entries(300));
    const before = await fingerprint(engine);
    for (const sql of HOSTILE_WRITES) {
      assert.equal(await attempt(engine, sql), false, `${sql} ran`);
      assert.equal(await fingerprint(engine), before, `${sql} changed the logs table`);
      // the engine still answers (after an ALTER ... DROP COLUMN every statement used to fail)
      const [r] = await engine.run('SELECT count(referer) FROM logs');
      assert.equal(r!.rows[0]![0], 300n, sql);
    }
    assert.equal(engine.rowCount, 300);
  } finally {
    engine.close();
  }
});

/** A statement written in one of many ways DuckDB reads the same: case, comments, quoting, names, EXPLAIN, a CTE. */
const variantArb = fc
  .record({
    verb: fc.constantFrom(
      (t: string) => `DELETE FROM ${t}`,
      (t: string) => `DELETE FROM ${t} WHERE status = 200`,
      (t: string) => `UPDATE ${t} SET status = 1`,
      (t: string) => `INSERT INTO ${t} (status) VALUES (7)`,
      (t: string) => `INSERT INTO ${t} SELECT * FROM ${t}`,
      (t: string) => `DROP TABLE ${t}`,
      (t: string) => `DROP TABLE IF EXISTS ${t} CASCADE`,
      (t: string) => `ALTER TABLE ${t} DROP COLUMN referer`,
      (t: string) => `ALTER TABLE ${t} ADD COLUMN x INTEGER`,
      (t: string) => `CREATE OR REPLACE TABLE ${t} AS SELECT 1 AS x`,
      (t: string) => `TRUNCATE ${t}`,
    ),
    table: fc.constantFrom('logs', 'main.logs', 'memory.logs', 'memory.main.logs', '"logs"', '"memory"."main"."logs"', 'LOGS', 'Memory.Main.Logs', '"LOGS"'),
    prefix: fc.constantFrom('', 'EXPLAIN ANALYZE ', 'explain analyze ', 'WITH a AS (SELECT 1) ', "WITH a AS (SELECT ';DELETE FROM mine') ", 'SELECT $$;$$; '),
    comment: fc.constantFrom('', ' /* x; */ ', ' -- ; \n', " /* ' */ "),
    upper: fc.boolean(),
  })
  .map(({ verb, table, prefix, comment, upper }) => {
    const sql = prefix + verb(table).replace(/ /g, (m) => (comment && Math.random() < 0.3 ? comment : m));
    return upper
      ? sql.replace(/\b(delete|from|update|insert|into|drop|alter|table|create|or|replace|explain|analyze|with|select)\b/gi, (w) => w.toUpperCase())
      : sql.toLowerCase().replace(/"logs"|"memory"|"main"/g, (q) => q);
  });

test('fuzzed writes to logs (case, comments, quoting, names, EXPLAIN, CTEs) never change it', async () => {
  const engine = await LogsSqlEngine.open();
  try {
    await engine.load(entries(120));
    const before = await fingerprint(engine);
    await fc.assert(
      fc.asyncProperty(variantArb, async (sql) => {
        await attempt(engine, sql);
        assert.equal(await fingerprint(engine), before, sql);
      }),
      { numRuns: 150, seed: 28 },
    );
  } finally {
    engine.close();
  }
});

test('no directory of the host is reachable: not <cwd>/.tmp (even a link to a secret), not <cwd>/:memory:.wal', async () => {
  const home = process.cwd();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'burrow-sandbox-'));
  const secret = path.join(dir, 'secret');
  mkdirSync(secret);
  writeFileSync(path.join(secret, 'passwd'), 'root:x:0:0\n');
  symlinkSync(secret, path.join(dir, '.tmp'));
  const work = path.join(dir, 'cwd');
  mkdirSync(work);
  symlinkSync(secret, path.join(work, '.tmp'));
  process.chdir(work);
  const engine = await LogsSqlEngine.open();
  try {
    await engine.load(entries(10));
    for (const sql of [
      "SELECT * FROM read_text('.tmp/passwd')",
      "SELECT * FROM glob('.tmp/*')",
      "SELECT * FROM glob('*')",
      "EXPLAIN ANALYZE COPY (SELECT * FROM logs) TO '.tmp/out.csv'",
      "EXPLAIN ANALYZE COPY (SELECT 1) TO ':memory:.wal'",
      "SELECT * FROM read_text(':memory:')",
      "SELECT * FROM read_csv('/etc/hostname')",
      "CREATE TEMP TABLE t AS SELECT * FROM read_text('.tmp/passwd')",
    ]) {
      assert.equal(await attempt(engine, sql), false, `${sql} ran`);
    }
    assert.deepEqual(readdirSync(secret), ['passwd'], 'nothing was written through the link');
    assert.deepEqual(readdirSync(work).sort(), ['.tmp'], 'nothing was written in the working directory');
    const [setting] = await engine.run(
      "SELECT len(current_setting('allowed_directories')), len(current_setting('allowed_paths')), current_setting('temp_directory')",
    );
    assert.deepEqual(setting!.rows[0], [0n, 0n, ''], 'no path is allowed and nothing spills');
  } finally {
    engine.close();
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(existsSync(dir), false);
});

test('no pragma or setting changes anything; profiling and the progress bar stay off', async () => {
  const engine = await LogsSqlEngine.open();
  try {
    const settings =
      "SELECT current_setting('enable_profiling'), current_setting('enable_progress_bar'), current_setting('enable_progress_bar_print'), current_setting('threads'), current_setting('enable_external_access'), current_setting('search_path')";
    const [before] = await engine.run(settings);
    for (const sql of [
      'PRAGMA enable_profiling',
      "PRAGMA enable_profiling = 'json'",
      'pragma ENABLE_PROFILING',
      'CALL enable_profiling()',
      'PRAGMA enable_progress_bar',
      'PRAGMA enable_print_progress_bar',
      'PRAGMA threads = 1',
      'SET enable_progress_bar = true',
      'SET enable_external_access = true',
      'SET lock_configuration = false',
      "SET search_path = 'memory.main'",
      'RESET threads',
      'USE memory',
      'SET VARIABLE x = 1',
      "ATTACH ':memory:' AS other",
      'DETACH work',
      'BEGIN TRANSACTION',
      'COMMIT',
      'INSTALL httpfs',
      'LOAD httpfs',
      'SELECT 1; PRAGMA enable_profiling',
    ]) {
      assert.equal(await attempt(engine, sql), false, `${sql} ran`);
      const [after] = await engine.run(settings);
      assert.deepEqual(after!.rows, before!.rows, sql);
    }
    // profiling never set; the progress bar (which DuckDB prints itself) off
    assert.deepEqual(before!.rows[0]!.slice(0, 3), [null, 0n, 0n]);
  } finally {
    engine.close();
  }
});

test("what the sandbox allows keeps working: SELECT, CTEs, EXPLAIN, the user's own tables, views, macros and sequences", async () => {
  const engine = await LogsSqlEngine.open();
  try {
    await engine.load(entries(70));
    const results = await engine.run(
      [
        'CREATE TEMP TABLE errors AS SELECT * FROM logs WHERE status >= 500',
        'CREATE VIEW ok AS SELECT * FROM logs WHERE status < 400',
        'CREATE TABLE mine (n INTEGER)',
        'INSERT INTO mine SELECT count(*) FROM ok',
        'UPDATE mine SET n = n + 1',
        'INSERT INTO errors SELECT * FROM logs WHERE status = 404',
        'CREATE MACRO double(a) AS a * 2',
        'CREATE TEMP SEQUENCE s',
        "WITH e AS (SELECT count(*) AS n FROM errors) SELECT e.n, (SELECT n FROM mine), double(e.n), nextval('s') FROM e",
      ].join(';\n'),
    );
    assert.deepEqual(results.at(-1)!.rows, [[10n, 61n, 20n, 1n]]);
    const [plan] = await engine.run('EXPLAIN SELECT count(*) FROM logs');
    assert.ok(plan!.rows.length > 0);
    const [dropped] = await engine.run('DROP VIEW ok; DROP TABLE mine; DROP TABLE errors; SELECT count(*) FROM logs').then((r) => r.slice(-1));
    assert.deepEqual(dropped!.rows, [[70n]]);
    const [described] = await engine.run("SELECT * FROM pragma_table_info('logs') WHERE name = 'status'");
    assert.equal(described!.rows.length, 1);
  } finally {
    engine.close();
  }
});

test("the shell's engine loads on every core first, and the user's first statement already finds one thread and a locked configuration", async () => {
  for (const sealFirst of [false, true]) {
    const engine = await LogsSqlEngine.open({ threads: 1 });
    try {
      await engine.load(entries(50));
      // a sync's seal and a statement's may meet: both must see the engine sealed once
      const [, results] = await Promise.all([
        sealFirst ? engine.seal() : Promise.resolve(),
        engine.run("SELECT current_setting('threads'), current_setting('lock_configuration')"),
      ]);
      assert.deepEqual(results[0]!.rows, [[1n, 1n]]);
      assert.equal(await attempt(engine, 'SET threads = 2'), false);
    } finally {
      engine.close();
    }
  }
});
