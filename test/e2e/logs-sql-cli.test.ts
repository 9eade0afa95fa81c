import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { generatedLogRecords } from '../../src/emulator/logging/index';

// `burrow logs ZONE... --from --to --sql` through the built binary against the emulator: the
// answer must be what the same computation gives over the records the emulator generated.

const emu = await useEmulator({ seed: 43, logRate: 10, ingestDelayMs: 500 });
const [ZONE_A, ZONE_B] = emu.info.pullZoneIds as [number, number];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-sql-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_CACHE_HOME: path.join(dir, 'cache'), ...envFor(emu) };
const burrow = (args: string[]) => runBurrow(args, { env, timeoutMs: 60_000 });

// a finished window in the past: every record in it is visible, so the answer is exact
const FROM = Date.now() - 40 * 60_000;
const TO = Date.now() - 30 * 60_000;
const window = ['--from', new Date(FROM).toISOString(), '--to', new Date(TO).toISOString()];
type Generated = { statusCode: number; countryCode: string | null; bytesSent: number; pullZoneId: number };
const recordsOf = (zone: number) => generatedLogRecords(emu.world, zone, FROM, TO) as Generated[];

function expectedByStatus(records: Generated[]): Record<string, { n: number; bytes: number }> {
  const out: Record<string, { n: number; bytes: number }> = {};
  for (const r of records) {
    const v = (out[r.statusCode] ??= { n: 0, bytes: 0 });
    v.n++;
    v.bytes += r.bytesSent;
  }
  return out;
}

test('--sql over one zone: GROUP BY status equals the sums over the generated records', async () => {
  const r = await burrow([
    'logs',
    String(ZONE_A),
    ...window,
    '--sql',
    'SELECT status, count(*) AS n, sum(bytes) AS bytes FROM logs GROUP BY status ORDER BY status',
    '-o',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as { status: number; n: number; bytes: number }[];
  const got = Object.fromEntries(rows.map((x) => [String(x.status), { n: Number(x.n), bytes: Number(x.bytes) }]));
  const expected = expectedByStatus(recordsOf(ZONE_A));
  assert.ok(Object.keys(expected).length > 1, 'the window has traffic of several statuses');
  assert.deepEqual(got, expected);
});

test('--sql over two zones: each zone fetched, counted under its pull_zone', async () => {
  const r = await burrow([
    'logs',
    String(ZONE_A),
    String(ZONE_B),
    ...window,
    '--sql',
    'SELECT pull_zone, count(*) FROM logs GROUP BY 1 ORDER BY 1',
    '-o',
    'csv',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const expected = [ZONE_A, ZONE_B].sort((a, b) => a - b).map((z) => `${z},${recordsOf(z).length}`);
  assert.deepEqual(r.stdout.trim().split('\n'), ['pull_zone,count_star()', ...expected]);
});

test("--sql refuses to change the logs table, and says how to make a table of one's own", async () => {
  const r = await burrow(['logs', String(ZONE_A), ...window, '--sql', 'DELETE FROM logs WHERE status = 200']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /the logs table is read-only: make your own, e\.g\. CREATE TEMP TABLE/);
  const own = await burrow([
    'logs',
    String(ZONE_A),
    ...window,
    '--sql',
    'CREATE TEMP TABLE e AS SELECT * FROM logs WHERE status >= 400; SELECT count(*) AS n FROM e',
    '-o',
    'ndjson',
  ]);
  assert.equal(own.code, 0, own.stderr);
  assert.deepEqual(JSON.parse(own.stdout.trim()), { n: recordsOf(ZONE_A).filter((x) => x.statusCode >= 400).length });
});

test('--sql: bad SQL and bad combinations get a clear message', async () => {
  const bad = await burrow(['logs', String(ZONE_A), ...window, '--sql', 'SELEC nonsense']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^burrow: .*syntax error/m);
  const follow = await burrow(['logs', String(ZONE_A), '--follow', '--sql', 'SELECT 1']);
  assert.equal(follow.code, 2);
  assert.match(follow.stderr, /--sql queries a window of records: use --since or --from\/--to, not --follow/);
});

test('--sql: control characters from the data or an error never reach the output raw', async () => {
  // chr(27) and the bidi override come from the query here; record fields take the same path
  const hostile = "chr(27) || ']0;pwned' || chr(7) || chr(27) || '[2J' || chr(8238)";
  const table = await burrow(['logs', String(ZONE_A), ...window, '--sql', `SELECT ${hostile} AS x`]);
  assert.equal(table.code, 0, table.stderr);
  assert.ok(!/[\x1b\x07\u202e]/.test(table.stdout), `table output is escaped: ${JSON.stringify(table.stdout)}`);
  assert.match(table.stdout, /\\x1b\]0;pwned/);
  const json = await burrow(['logs', String(ZONE_A), ...window, '--sql', `SELECT ${hostile} AS x`, '-o', 'json']);
  assert.ok(!/[\x1b\u202e]/.test(json.stdout), 'json escapes them as \\u');
  assert.equal((JSON.parse(json.stdout) as { x: string }[])[0]!.x, '\x1b]0;pwned\x07\x1b[2J\u202e', 'and keeps the value');
  const error = await burrow(['logs', String(ZONE_A), ...window, '--sql', `SELECT error(${hostile})`]);
  assert.equal(error.code, 1);
  assert.ok(!/[\x1b\x07\u202e]/.test(error.stderr), `the error is escaped: ${JSON.stringify(error.stderr)}`);
});

test('--sql: nothing DuckDB prints itself reaches the terminal (profiling and progress-bar pragmas are refused)', async () => {
  for (const sql of [
    'PRAGMA enable_profiling; SELECT 1 AS one',
    'CALL enable_profiling(); SELECT 1 AS one',
    'PRAGMA enable_progress_bar; SELECT count(*) FROM logs',
    "SELECT 1; PRAGMA enable_profiling = 'json'; SELECT 2",
  ]) {
    const r = await burrow(['logs', String(ZONE_A), ...window, '--sql', sql, '-o', 'csv']);
    assert.equal(r.code, 1, sql);
    assert.match(r.stderr, /is not available on the logs table's engine/, sql);
    assert.doesNotMatch(r.stdout + r.stderr, /Query Profiling|Total Time|QUERY|\d+%/, sql);
  }
});
