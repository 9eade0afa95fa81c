import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { startBurrow, type PtySession } from '../helpers/pty';
import { until } from '../helpers/wait';
import { LogStore } from '../../src/log-ship/store';
import { parseStoreUrl } from '../../src/config/store-url';

// `:sql store` in the console: the SQL shell on a real ClickHouse started for this file (npm run build first).

const skip = clickhouseSkip();
let ch: ClickHouseServer;
before(async () => {
  if (skip) return;
  ch = await startClickHouse();
  // the table as `burrow ship` makes it, with a few records in it
  const store = new LogStore({ url: parseStoreUrl(ch.storeUrl), password: '', table: 'cdn_logs', cluster: null });
  await store.prepare();
  await store.close();
  const rows = [
    { pullZoneId: 7, timestamp: '2026-11-27 10:00:00', timestampMs: 12, statusCode: 503, url: '/checkout', requestId: 'a1' },
    { pullZoneId: 7, timestamp: '2026-11-27 10:00:01', timestampMs: 99, statusCode: 200, url: '/home', requestId: 'a2' },
    { pullZoneId: 8, timestamp: '2026-11-27 10:00:02', timestampMs: 5, statusCode: 404, url: '/missing\u001b[2J', requestId: 'a3' },
  ];
  await ch.query('INSERT INTO cdn_logs FORMAT JSONEachRow', rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-store-shell-'));
after(async () => {
  await ch?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const SLOW = 'SELECT count() AS n FROM numbers(100000000000)';
const runningLike = async (pattern: string) =>
  (await ch.query(`SELECT count() FROM system.processes WHERE query LIKE '${pattern}' AND query NOT LIKE '%system.processes%'`)).trim() !== '0';
const slowRunning = () => runningLike('%numbers(100000000000)%');
/** Hours of counting: only a KILL QUERY ends it within the test. */
const ENDLESS = 'SELECT count() AS n FROM numbers(10000000000000)';
const endlessRunning = () => runningLike('%numbers(10000000000000)%');

async function openStoreSql(app: PtySession): Promise<string> {
  await app.waitFor('Screens');
  await app.press('app.palette');
  await app.type('sql store');
  await app.press('enter');
  return app.waitFor(/^ch:default>/m, 20_000);
}

test(
  ':sql store: the header names the store, a query over the shipped table in the grid, .tables, .schema, completion, ctrl-c kills the query on the server',
  { skip },
  async () => {
    const app = startBurrow(['--store-url', ch.storeUrl], { cols: 120, rows: 34, cwd: dir });
    await openStoreSql(app);
    await app.waitFor(/ClickHouse 18\.\d+\.\d+ · default@127\.0\.0\.1:\d+\/default/, 20_000);

    await app.type('SELECT pullZoneId, statusCode, url FROM cdn_logs ORDER BY statusCode;\r');
    const grid = await app.waitFor(/\|\s+8\s+\|\s+404\s+\|\s+\/missing\\x1b\[2J\s+\|/, 20_000);
    assert.match(grid, /\|\s+pullZoneId\s+\|\s+statusCode\s+\|\s+url\s+\|/);
    assert.match(grid, /\|\s+7\s+\|\s+503\s+\|\s+\/checkout\s+\|/);
    assert.match(grid, /3 rows/);

    await app.type('.tables\r');
    await app.waitFor(/^cdn_logs\s+cdn_logs_rejected\s+cdn_logs_ship\s*$/m);
    await app.type('.schema cdn_logs\r');
    await app.waitFor(/CREATE TABLE default\.cdn_logs \(\n\s+timestamp DateTime\('UTC'\) COMMENT/);

    // completion from the store's columns
    await app.type('SELECT timestam');
    await app.press('sql.complete');
    await app.waitFor(/^ch:default> SELECT timestamp/m);
    await app.press('app.interrupt');
    await app.waitFor(/^ch:default>\s*$/m);

    // ctrl-c: the query stops on the server, the shell stays
    await app.type(`${SLOW};\r`);
    await app.waitFor(/running \d+\.\d s… ctrl-c cancels/);
    await until('the query running on the server', slowRunning, 30_000, 50);
    await app.press('app.interrupt');
    await app.waitFor(/cancelled: the server stopped the query \(KILL QUERY [0-9a-f-]{36}\)/, 20_000);
    assert.equal(await slowRunning(), false, 'no longer in system.processes');
    await app.type('SELECT 6 * 7 AS answer;\r');
    await app.waitFor(/\|\s+42\s+\|/, 20_000);

    await app.type('SELEC 1;\r');
    await app.waitFor(/ClickHouse error 62: Syntax error/);

    // output modes and export: .mode json on screen, .mode csv into a file
    await app.type('.mode json\r');
    await app.type('SELECT requestId, statusCode FROM cdn_logs ORDER BY requestId LIMIT 2;\r');
    await app.waitFor(/\{"requestId":"a1","statusCode":503\}/);
    await app.type('.mode csv\r');
    await app.type('.output codes.csv\r');
    await app.waitFor(/results go to codes\.csv/);
    await app.type('SELECT requestId, statusCode FROM cdn_logs ORDER BY requestId;\r');
    await app.waitFor(/3 rows.*written to codes\.csv \(csv\)/);
    await app.type('.output\r');
    assert.equal(fs.readFileSync(path.join(dir, 'codes.csv'), 'utf8'), 'requestId,statusCode\na1,503\na2,200\na3,404\n');

    // quitting the console while a query runs stops it on the server too
    await app.type(`${ENDLESS};\r`);
    await until('the query running on the server', endlessRunning, 30_000, 50);
    await app.press('app.back');
    await app.press('app.quit');
    // without the kill the console would wait on the request for hours
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the console did not exit; the screen is:\n${app.screenText()}`)), 20_000);
    });
    const { exitCode } = await Promise.race([app.exited, late]).finally(() => clearTimeout(timer));
    assert.equal(exitCode, 0);
    assert.equal(await endlessRunning(), false, 'the query did not outlive the console');
  },
);

test(':sql store with a wrong password (BURROW_LOG_STORE and its password from the environment): says so, never shows it', { skip }, async () => {
  const app = startBurrow([], { cols: 120, rows: 26, env: { BURROW_LOG_STORE: ch.storeUrl, BURROW_LOG_STORE_PASSWORD: 'only-in-env' } });
  await openStoreSql(app);
  const screen = await app.waitFor(/the log store refused the login of user default: Wrong password/, 20_000);
  assert.match(screen, /ClickHouse default@127\.0\.0\.1:\d+\/default: not connected/);
  assert.ok(!app.rawOutput().includes('only-in-env'), 'the password is never shown');
  app.kill();
});

test(':sql store with no store configured says how to configure one', { skip }, async () => {
  const app = startBurrow([], { cols: 140, rows: 26 });
  await app.waitFor('Screens');
  await app.press('app.palette');
  await app.type('sql store');
  await app.press('enter');
  await app.waitFor(/no log store configured: start burrow with --store-url clickhouse:\/\//, 20_000);
  app.kill();
});
