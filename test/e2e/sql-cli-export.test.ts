import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { DatabaseSession } from '../../src/api/database/index';

// `burrow sql -o csv|json|ndjson` streams queries through /v3/cursor: past the 10 MB answer limit.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-export-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...envFor(emu) };
const burrow = (args: string[], stdin?: string) => runBurrow(args, { env, stdin, timeoutMs: 120_000 });

const ROWS = 120_000;
// about 110 bytes a row as the emulator counts it: the whole result is past the 10 MB limit
const WIDE = `SELECT id, printf('customer-%08d@example.com', id) AS email, id * 0.25 AS amount, printf('%040d', id) AS pad FROM wide ORDER BY id`;

const setup = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => setup.close());
const seeded = await setup.run([
  'CREATE TABLE wide (id INTEGER PRIMARY KEY)',
  `INSERT INTO wide SELECT x FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x FROM c)`,
]);
if (seeded.failed) throw seeded.failed.error;

test('a result past the 10 MB answer limit fails on the pipeline, and streams out whole as CSV', async () => {
  await assert.rejects(setup.execute(WIDE), (e: Error & { code?: string }) => e.code === 'RESPONSE_TOO_LARGE', 'the pipeline answer is limited, as on sqld');
  const r = await burrow(['sql', '-o', 'csv', '-e', WIDE]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, ROWS + 1);
  assert.equal(lines[0], 'id,email,amount,pad');
  assert.equal(lines[1], `1,customer-00000001@example.com,0.25,${'1'.padStart(40, '0')}`);
  assert.equal(lines[ROWS], `${ROWS},customer-${String(ROWS).padStart(8, '0')}@example.com,${ROWS * 0.25}.0,${String(ROWS).padStart(40, '0')}`);
});

test('json and ndjson stream with the same text as before: exact integers, empty results, several sets', async () => {
  const json = await burrow([
    'sql',
    '-o',
    'json',
    '-e',
    'SELECT snowflake_id FROM events ORDER BY id LIMIT 2',
    '-e',
    'SELECT 1 AS x WHERE 0',
    '-e',
    "SELECT 'a' AS t",
  ]);
  assert.equal(json.code, 0, json.stderr);
  const docs = json.stdout.trimEnd().split(/\n(?=\[)/);
  assert.equal(docs.length, 3);
  assert.ok(
    [...docs[0]!.matchAll(/"snowflake_id":(\d+)/g)].every((m) => BigInt(m[1]!) > 2n ** 53n),
    'exact 64-bit integers',
  );
  assert.equal(docs[1], '[]');
  assert.deepEqual(JSON.parse(docs[2]!), [{ t: 'a' }]);
  const nd = await burrow(['sql', '-o', 'ndjson', '-e', 'SELECT id FROM wide WHERE id <= 3 ORDER BY id']);
  assert.equal(nd.stdout, '{"id":1}\n{"id":2}\n{"id":3}\n');
});

test("inside a transaction a query runs on the session's stream and sees its uncommitted rows", async () => {
  const r = await burrow(
    ['sql', '-o', 'csv'],
    'BEGIN; INSERT INTO wide (id) VALUES (-7); SELECT id FROM wide WHERE id < 0; ROLLBACK; SELECT count(*) AS n FROM wide WHERE id < 0;',
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'id\n-7\n\nn\n0\n');
});

test('a query error on the cursor stops the script with the statement named', async () => {
  const r = await burrow(['sql', '-o', 'csv', '-e', 'SELECT 1 AS a; SELECT nope FROM wide; SELECT 2 AS b']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, 'a\n1\n');
  assert.match(r.stderr, /statement 2 .*no such column: nope/);
  assert.match(r.stderr, /1 statement\(s\) after it did not run/);
});
