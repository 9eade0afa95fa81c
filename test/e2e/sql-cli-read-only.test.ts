import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { BURROW_BIN } from '../helpers/pty';

// `burrow sql` in read-only mode (--read-only or a profile's readOnly) through the real binary
// (npm run build first), with a full-access token: the refusal is burrow's, not the token's.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-ro-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The binary with a clean environment: only what `env` says (plus PATH and a temp HOME). */
const burrow = (args: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) =>
  runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...opts.env },
    stdin: opts.stdin,
  });

const env = envFor(emu);

async function count(table: string): Promise<number> {
  const r = await burrow(['sql', '-o', 'csv', '-e', `SELECT count(*) AS n FROM ${table}`], { env });
  assert.equal(r.code, 0, r.stderr);
  return Number(r.stdout.split('\n')[1]);
}

test('--read-only with -e: reads run; a write is refused with the statement named, and nothing runs', async () => {
  const before = await count('customers');
  const reads = await burrow(['--read-only', 'sql', '-o', 'csv', '-e', 'SELECT count(*) AS n FROM customers', '-e', 'PRAGMA table_info(customers)'], { env });
  assert.equal(reads.code, 0, reads.stderr);
  assert.match(reads.stdout, new RegExp(`^n\\n${before}\\n`));

  const r = await burrow(
    ['sql', '--read-only', '-e', 'SELECT count(*) AS n FROM customers', '-e', "INSERT INTO customers (name, email) VALUES ('ro', 'ro@example.com')"],
    { env },
  );
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '', 'not even the SELECT before it ran');
  assert.match(r.stderr, /statement 2 \(-e 2 line 1\): read-only mode \(--read-only\): "INSERT INTO customers \(name, email\)/);
  assert.match(r.stderr, /would write to the database, so nothing was run/);
  assert.equal(await count('customers'), before);
});

test('--read-only with SQL piped on stdin: the DELETE in the middle of the script is refused', async () => {
  const before = await count('orders');
  const script = 'SELECT 1 AS one;\n\nDELETE FROM orders\n  WHERE id < 10;\nSELECT 2 AS two;\n';
  const r = await burrow(['--read-only', 'sql'], { env, stdin: script });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /statement 2 \(stdin line 3\): read-only mode \(--read-only\): "DELETE FROM orders WHERE id < 10" would write/);
  assert.equal(await count('orders'), before);
  // the same script without read-only mode deletes (so the test above is about the mode)
  const rw = await burrow(['sql'], { env, stdin: 'BEGIN; DELETE FROM order_items WHERE order_id < 10; SELECT changes() > 0 AS deleted; ROLLBACK;' });
  assert.equal(rw.code, 0, rw.stderr);
  assert.match(rw.stdout, /deleted\s*\n\s*1\b/);
});

test("a profile's readOnly: true refuses writes as --read-only does (DDL too)", async () => {
  const cfg = path.join(dir, 'ro-config.yaml');
  fs.writeFileSync(cfg, 'defaultProfile: ops\nprofiles:\n  ops:\n    readOnly: true\n', { mode: 0o600 });
  const r = await burrow(['sql', '-e', 'CREATE TABLE ro_t (x INTEGER)'], { env: { ...env, BURROW_CONFIG: cfg } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /read-only \(profile ops, readOnly: true\): "CREATE TABLE ro_t/, 'the profile is named, not a --read-only that was not given');
  const tables = await burrow(['sql', '-o', 'csv', '-e', "SELECT count(*) AS n FROM sqlite_schema WHERE name = 'ro_t'"], { env });
  assert.equal(tables.stdout, 'n\n0\n');
});
