import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator } from '../helpers/emulator';

// `burrow sql --database NAME|ID`: the database found with the API key, a token made for the run.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-database-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
// an API key and nothing about any database: the token must come from the management API
const env = {
  PATH: process.env.PATH ?? '',
  HOME: dir,
  XDG_CONFIG_HOME: path.join(dir, 'cfg'),
  XDG_STATE_HOME: path.join(dir, 'state'),
  BURROW_API_KEY: emu.info.accessKey,
  BURROW_BASE_URL: emu.info.baseUrl,
  BURROW_LOGGING_URL: emu.info.loggingUrl,
};
const burrow = (args: string[]) => runBurrow(args, { env });

test('--database NAME opens that database with a short-lived token, said on stderr', async () => {
  const r = await burrow(['sql', '--database', 'inventory-eu', '-o', 'csv', '-e', "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name LIMIT 1"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^name\n\S+\n$/);
  assert.match(r.stderr, /inventory-eu: using a full-access token made for this session; it is not revoked at exit .* expires at 20\d\d-/);
  const other = await burrow(['sql', '--database', 'burrow-demo', '-o', 'csv', '-e', 'SELECT count(*) AS n FROM customers']);
  assert.equal(other.code, 0, other.stderr);
  assert.match(other.stdout, /^n\n[1-9]\d*\n$/);
});

test('--database by id; --read-only makes a read-only token; an unknown name lists the databases', async () => {
  const list = await burrow(['db', 'list', '-o', 'json']);
  const id = (JSON.parse(list.stdout) as { id: string; name: string }[]).find((d) => d.name === 'analytics-events')!.id;
  const ro = await burrow(['--read-only', 'sql', '--database', id, '-e', 'CREATE TABLE nope (x)']);
  assert.notEqual(ro.code, 0);
  assert.match(ro.stderr, /read-only token/);
  const unknown = await burrow(['sql', '--database', 'no-such-db', '-e', 'SELECT 1']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no database "no-such-db" in this account: one of .*burrow-demo/);
});
