import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { BURROW_BIN, startBurrow } from '../helpers/pty';

// `burrow sql` through the real binary (npm run build first) against an in-process emulator.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The binary with a clean environment: only what `env` says (plus PATH and a temp HOME). */
const burrow = (args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) =>
  runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...opts.env },
    stdin: opts.stdin,
  });

const env = envFor(emu);

test('-e: each statement in order, table output with NULL and blobs shown distinctly', async () => {
  const r = await burrow(
    [
      'sql',
      '-e',
      "SELECT id, name, avatar IS NULL AS no_avatar, x'00ff' AS b, NULL AS n FROM customers WHERE id <= 2 ORDER BY id",
      '-e',
      'SELECT count(*) AS orders FROM orders',
    ],
    { env },
  );
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^id\s+name\s+no_avatar\s+b\s+n$/);
  assert.match(lines[1]!, /^1\s+\S.*\s+[01]\s+x'00ff'\s+NULL$/);
  assert.equal(lines[3], '');
  assert.deepEqual(lines.slice(4), ['orders', '3000']);
});

test('a FILE stops at the first error: exit 1, statement number and line, the rest did not run', async () => {
  const file = path.join(dir, 'script.sql');
  fs.writeFileSync(
    file,
    '-- setup\nCREATE TABLE cli_t (x INTEGER);\nINSERT INTO cli_t VALUES (1);\n\nINSERT INTO cli_t\n  VALUES (nope);\nINSERT INTO cli_t VALUES (3);\n',
  );
  const r = await burrow(['sql', file], { env });
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`statement 3 \\(${file.replace(/[/\\.]/g, '\\$&')} line 5\\): SQL_INPUT_ERROR: SQL input error: no such column: nope`));
  assert.match(r.stderr, /the 1 statement\(s\) after it did not run/);
  const check = await burrow(['sql', '-o', 'csv', '-e', 'SELECT group_concat(x) AS xs FROM cli_t'], { env });
  assert.equal(check.stdout, 'xs\n1\n');
});

test('SQL on stdin, -o json: exact 64-bit integers, reals with a point, blobs tagged', async () => {
  const r = await burrow(['sql', '-o', 'json'], {
    env,
    stdin: "SELECT snowflake_id, 2.0 AS r, 'ž' AS t, x'0001' AS b FROM events ORDER BY id LIMIT 2;\nSELECT 1 AS one;",
  });
  assert.equal(r.code, 0, r.stderr);
  const docs = r.stdout.trim().split(/\n(?=\[)/);
  assert.equal(docs.length, 2);
  const first = docs[0]!;
  const ids = [...first.matchAll(/"snowflake_id":(\d+)/g)].map((m) => BigInt(m[1]!));
  assert.equal(ids.length, 2);
  assert.ok(
    ids.every((id) => id > 2n ** 53n),
    'printed exactly, not rounded through a double',
  );
  assert.match(first, /"r":2\.0,"t":"ž","b":\{"base64":"AAE="\}/);
  assert.deepEqual(JSON.parse(docs[1]!), [{ one: 1 }]);
});

test('-o csv and -o ndjson; 10,000 rows stream out', async () => {
  const csv = await burrow(['sql', '-o', 'csv', '-e', "SELECT 'a,b' AS t, NULL AS n, 1.5 AS f"], { env });
  assert.equal(csv.stdout, 't,n,f\n"a,b",,1.5\n');
  const big = await burrow(
    [
      'sql',
      '-o',
      'ndjson',
      '-e',
      'SELECT e.id, e.kind, k.k FROM events e, (SELECT 1 AS k UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) k LIMIT 10000',
    ],
    { env },
  );
  assert.equal(big.code, 0, big.stderr);
  const rows = big.stdout.trimEnd().split('\n');
  assert.equal(rows.length, 10000);
  assert.deepEqual(Object.keys(JSON.parse(rows[9999]!)), ['id', 'kind', 'k']);
});

test('URL argument with ?authToken=: used, and the token never shows, even with --debug', async () => {
  const url = `${emu.info.databaseUrl}/?authToken=${emu.info.databaseToken}`;
  const r = await burrow(['--debug', 'sql', url, '-e', 'SELECT 42 AS answer'], { env: {} });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /answer\n42/);
  assert.match(r.stderr, /debug: -> POST/, 'the debug log is on');
  assert.ok(!r.stdout.includes(emu.info.databaseToken) && !r.stderr.includes(emu.info.databaseToken));
});

test('a read-only token: reads work, a write exits 1 with the explanation', async () => {
  const ro = { ...env, SERVICE_DATABASE_AUTH_TOKEN: emu.info.readOnlyDatabaseToken };
  const r = await burrow(['sql', '-e', 'SELECT count(*) FROM products; DELETE FROM products'], { env: ro });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /count\(\*\)\n\d+/);
  assert.match(r.stderr, /statement 2 \(line 1\): BLOCKED: .*token is read-only/);
});

test('a refused token says what to do; no database anywhere says how to give one', async () => {
  const bad = await burrow(['sql', '-e', 'SELECT 1'], { env: { ...env, SERVICE_DATABASE_AUTH_TOKEN: 'nope.nope.nope' } });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /401 Unauthorized.*\n.*refused the token.*burrow db tokens create/);
  const none = await burrow(['sql', '-e', 'SELECT 1'], { env: {} });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no database to talk to: .*SERVICE_DATABASE_URL.*--demo/);
  const demo = await burrow(['sql', '--demo', '-o', 'csv', '-e', 'SELECT count(*) AS n FROM customers'], { env: {} });
  assert.equal(demo.stdout, 'n\n1200\n', demo.stderr);
});

test('a transaction left open is rolled back, and said so', async () => {
  const r = await burrow(['sql', '-e', "BEGIN; INSERT INTO products (sku, name, price) VALUES ('SKU-E2E', 'x', 1);"], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /left a transaction open: it was rolled back/);
  const check = await burrow(['sql', '-o', 'csv', '-e', "SELECT count(*) AS n FROM products WHERE sku = 'SKU-E2E'"], { env });
  assert.equal(check.stdout, 'n\n0\n');
});

test('usage mistakes exit 2 with what is allowed', async () => {
  const both = await burrow(['sql', path.join(dir, 'x.sql'), '-e', 'SELECT 1'], { env });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /either with -e or as FILE/);
  const fmt = await burrow(['sql', '-o', 'yaml', '-e', 'SELECT 1'], { env });
  assert.equal(fmt.code, 2);
  assert.match(fmt.stderr, /table, csv, json, ndjson/);
  const missing = await burrow(['sql', path.join(dir, 'missing.sql')], { env });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read .*missing\.sql: ENOENT/);
});

test('at a terminal with no SQL it opens the interactive shell (.quit leaves it)', async () => {
  const app = startBurrow(['sql'], { env });
  await app.waitFor('.help lists the commands');
  await app.type('.quit\r');
  assert.equal((await app.exited).exitCode, 0);
});
