import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';

// `burrow sql` output details through the real binary (npm run build first) against an
// in-process emulator: JSON keys for repeated column names, what --debug shows of the SQL, and
// that a password in a URL is masked wherever the URL is printed.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-out-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = envFor(emu);
const burrow = (args: string[]) =>
  runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...env },
  });

const JOIN = 'SELECT c.id, o.id, o.id AS id_2, c.name FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY o.id LIMIT 2';

test('-o json and ndjson: a repeated column name gets _2, _3..., never a key another column has', async () => {
  const json = await burrow(['sql', '-o', 'json', '-e', JOIN]);
  assert.equal(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
  assert.equal(rows.length, 2);
  assert.deepEqual(Object.keys(rows[0]!), ['id', 'id_3', 'id_2', 'name'], 'every column kept, in order');
  assert.equal(rows[0]!.id_3, rows[0]!.id_2, 'o.id and its alias are the same value');
  const nd = await burrow(['sql', '-o', 'ndjson', '-e', 'SELECT 1 AS n, 2 AS n, 3 AS n']);
  assert.deepEqual(JSON.parse(nd.stdout.trim()), { n: 1, n_2: 2, n_3: 3 });
});

const SECRET_SQL = "SELECT 'hunter2-password' AS pw, x'c0ffee' AS b, 42 AS answer";

test('--debug keeps the statements but hides string and blob literals; --debug-sql shows them', async () => {
  const plain = await burrow(['--debug', 'sql', '-o', 'json', '-e', SECRET_SQL]);
  assert.equal(plain.code, 0, plain.stderr);
  const sent = plain.stderr.split('\n').filter((l) => l.startsWith('debug: -> POST'));
  assert.ok(sent.length >= 1, plain.stderr);
  assert.ok(
    sent.some((l) => l.includes(`SELECT '…' AS pw, x'…' AS b, 42 AS answer`)),
    sent.join('\n'),
  );
  assert.doesNotMatch(plain.stderr, /hunter2|c0ffee/i, 'no literal in the debug log');
  assert.match(plain.stdout, /hunter2-password/, 'the result itself is untouched');

  const full = await burrow(['--debug-sql', 'sql', '-o', 'json', '-e', SECRET_SQL]);
  assert.equal(full.code, 0, full.stderr);
  assert.ok(
    full.stderr.split('\n').some((l) => l.startsWith('debug: -> POST') && l.includes("'hunter2-password'") && l.includes("x'c0ffee'")),
    full.stderr,
  );
});

test('a password in a URL is never printed, even with --debug', async () => {
  const r = await runBurrow(['--debug', '--base-url', 'http://alice:s3cr3t-pw@127.0.0.1:9', 'get', 'pull-zones'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'cfg'),
      XDG_STATE_HOME: path.join(dir, 'state'),
      BURROW_API_KEY: 'key-for-a-closed-port-0000',
    },
  });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /debug: -> GET http:\/\/alice:••••••••@127\.0\.0\.1:9\/pullzone/);
  assert.match(r.stderr, /burrow: GET \/pullzone: connection refused \(http:\/\/alice:••••••••@127\.0\.0\.1:9\); nothing was sent/);
  assert.doesNotMatch(r.stderr + r.stdout, /s3cr3t-pw/);
});
