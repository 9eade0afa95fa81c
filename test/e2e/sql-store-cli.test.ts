import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { clickhouseSkip, freePort, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';

// `burrow sql --store`: SQL on the log store from a script, through the real binary (npm run build first).

const skip = clickhouseSkip();
let ch: ClickHouseServer;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-store-'));
before(async () => {
  if (skip) return;
  ch = await startClickHouse();
  await ch.query('CREATE TABLE hits (zone UInt32, url String, bytes UInt64) ENGINE = MergeTree() ORDER BY zone');
  await ch.query('INSERT INTO hits FORMAT JSONEachRow', '{"zone":1,"url":"/a,\\"b\\"","bytes":18446744073709551615}\n{"zone":2,"url":"/ü","bytes":3}\n');
});
after(async () => {
  await ch?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const burrow = (args: string[], env: Record<string, string> = {}) =>
  runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...env },
  });

test('burrow sql --store -o csv|json|ndjson|table: rows of the store, exact', { skip }, async () => {
  const sql = 'SELECT zone, url, bytes FROM hits ORDER BY zone';
  const csv = await burrow(['sql', '--store-url', ch.storeUrl, '-o', 'csv', '-e', sql]);
  assert.equal(csv.code, 0, csv.stderr);
  assert.equal(csv.stdout, 'zone,url,bytes\n1,"/a,""b""",18446744073709551615\n2,/ü,3\n');
  const nd = await burrow(['sql', '--store', '-o', 'ndjson', '-e', sql], { BURROW_LOG_STORE: ch.storeUrl });
  assert.equal(nd.code, 0, nd.stderr);
  assert.deepEqual(
    nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown),
    [
      { zone: 1, url: '/a,"b"', bytes: 18446744073709551615 },
      { zone: 2, url: '/ü', bytes: 3 },
    ].map((r) => JSON.parse(JSON.stringify(r)) as unknown),
  );
  assert.match(nd.stdout, /"bytes":18446744073709551615/, 'a UInt64 is exact');
  const table = await burrow(['sql', '--store-url', ch.storeUrl, '-e', 'SELECT count() AS n FROM hits; SELECT 1 AS one']);
  assert.equal(table.code, 0, table.stderr);
  assert.equal(table.stdout, 'n\n2\n\none\n1\n', 'the table format, one result after the other');
});

test('burrow sql --store: ClickHouse errors, a store that is down, no store: clear messages and exit codes', { skip }, async () => {
  const bad = await burrow(['sql', '--store-url', ch.storeUrl, '-e', 'SELECT 1; SELEC 2; SELECT 3']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /statement 2 \(line 1\): ClickHouse error 62: Syntax error/);
  assert.match(bad.stderr, /the 1 statement\(s\) after it did not run/);
  const port = await freePort();
  const down = await burrow(['sql', '--store-url', `clickhouse://default@127.0.0.1:${port}/default`, '-e', 'SELECT 1']);
  assert.equal(down.code, 1);
  assert.match(down.stderr, new RegExp(`cannot reach the log store at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
  const none = await burrow(['sql', '--store', '-e', 'SELECT 1']);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no log store: pass --store-url clickhouse:\/\//);
});
