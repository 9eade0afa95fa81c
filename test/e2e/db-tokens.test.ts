import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { BURROW_BIN, startBurrow } from '../helpers/pty';

// `burrow db tokens ...` through the real binary (npm run build first), against an in-process
// emulator; every token is then tried on the database endpoint itself.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-db-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = envFor(emu);

const burrow = (args: string[], extraEnv: Record<string, string> = env) =>
  runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...extraEnv },
  });

/** Runs one statement with a token on a database URL; returns the HTTP status and the first result. */
async function tryToken(
  token: string,
  sql: string,
  base = emu.info.databaseUrl,
): Promise<{ status: number; result: { type: string; error?: { code: string } } | null }> {
  const res = await request(`${base.replace(/\/$/, '')}/v2/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [{ type: 'execute', stmt: { sql } }, { type: 'close' }] }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, result: res.statusCode === 200 ? (JSON.parse(text) as { results: { type: string }[] }).results[0]! : null };
}

interface TokenJson {
  token: string;
  expires_at: string | null;
  db_id: string;
  authorization: string;
}

const created: string[] = [];

test('create: a full-access token for the primary database, printed in full once; it reads and writes', async () => {
  const r = await burrow(['db', 'tokens', 'create']);
  assert.equal(r.code, 0, r.stderr);
  const [header, row] = r.stdout.trimEnd().split('\n');
  assert.match(header!, /^DATABASE\s+AUTHORIZATION\s+EXPIRES\s+TOKEN$/);
  const token = row!.split(/\s+/).at(-1)!;
  assert.match(row!, /^burrow-demo\s+full-access\s+never\s+eyJ/);
  assert.match(r.stderr, /shown once/);
  created.push(token);
  assert.equal((await tryToken(token, "INSERT INTO products (sku, name, price) VALUES ('SKU-TOK', 't', 1)")).result?.type, 'ok');
});

test('create --read-only -o json, and --pair with --expiry: the JSON shape, and each token does what it says', async () => {
  const ro = await burrow(['db', 'tokens', 'create', '--read-only', '-o', 'json']);
  assert.equal(ro.code, 0, ro.stderr);
  const one = JSON.parse(ro.stdout) as TokenJson;
  assert.deepEqual(Object.keys(one), ['token', 'expires_at', 'db_id', 'authorization']);
  assert.equal(one.authorization, 'read-only');
  assert.equal(one.db_id, 'db_01KCHBG8C5KSFGG0VRNFQ7EK7X');
  assert.equal(one.expires_at, null);
  assert.equal((await tryToken(one.token, 'SELECT 1')).result?.type, 'ok');
  assert.equal((await tryToken(one.token, 'DELETE FROM products')).result?.error?.code, 'BLOCKED');

  const pair = await burrow(['db', 'tokens', 'create', '--pair', '--expiry', '1d', '-o', 'json']);
  assert.equal(pair.code, 0, pair.stderr);
  const both = JSON.parse(pair.stdout) as TokenJson[];
  assert.deepEqual(
    both.map((t) => t.authorization),
    ['full-access', 'read-only'],
  );
  for (const t of both) {
    const ms = Date.parse(t.expires_at!) - Date.now();
    assert.ok(ms > 23 * 3_600_000 && ms <= 24 * 3_600_000, t.expires_at!);
  }
  created.push(one.token, ...both.map((t) => t.token));
});

test('DB by name reaches the right database; several databases and no hint lists the candidates', async () => {
  const r = await burrow(['db', 'tokens', 'create', 'analytics-events', '--read-only', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const t = JSON.parse(r.stdout) as TokenJson;
  assert.equal(t.db_id, 'db_01KCHD2M7Q9X4T6V8W0Y3Z5N1P');
  const analytics = `${emu.info.databaseUrl}/db/analytics-events/`;
  assert.equal((await tryToken(t.token, 'SELECT count(*) FROM page_views', analytics)).result?.type, 'ok');
  assert.equal((await tryToken(t.token, 'SELECT 1')).status, 403, 'not a token of the primary database');

  const noHint = { ...env };
  delete (noHint as Record<string, string | undefined>).SERVICE_DATABASE_URL;
  const amb = await burrow(['db', 'tokens', 'create'], noHint as Record<string, string>);
  assert.equal(amb.code, 2);
  assert.match(amb.stderr, /3 databases: say which one .*burrow-demo \(db_01KCHBG8C5KSFGG0VRNFQ7EK7X\), analytics-events/);
});

test('read-only mode: invalidate and every token creation are refused; a bad expiry is explained', async () => {
  const inv = await burrow(['--read-only', 'db', 'tokens', 'invalidate', '--yes']);
  assert.equal(inv.code, 2);
  assert.match(inv.stderr, /read-only mode/);
  const pair = await burrow(['--read-only', 'db', 'tokens', 'create', '--pair']);
  assert.equal(pair.code, 2);
  // even a read-only token is a change to the account
  const ro = await burrow(['--read-only', 'db', 'tokens', 'create', '--read-only', '-o', 'json']);
  assert.equal(ro.code, 2);
  assert.match(ro.stderr, /read-only mode: creating a token is a change, so it is refused/);
  assert.equal(ro.stdout, '', 'no token printed');
  const exp = await burrow(['db', 'tokens', 'create', '--expiry', 'tomorrow']);
  assert.equal(exp.code, 2);
  assert.match(exp.stderr, /12h, 30d, 1w/);
  assert.equal((await tryToken(emu.info.databaseToken, 'SELECT 1')).status, 200, 'nothing was invalidated');
});

test('invalidate needs confirmation: refused without a terminal, declined at a terminal', async () => {
  const piped = await burrow(['db', 'tokens', 'invalidate']);
  assert.equal(piped.code, 2);
  assert.match(piped.stderr, /pass --yes/);
  const app = startBurrow(['db', 'tokens', 'invalidate'], { env });
  const question = await app.waitFor(/Invalidate EVERY token of database burrow-demo .*\[y\/N\]/s);
  assert.doesNotMatch(question, /\\x1b|\\u001b/, 'the question draws no escape sequence as text');
  await app.type('n\r');
  // the screen is read once it shows the answer: the program may exit before the pty has handed over its last output
  await app.waitFor('Nothing was invalidated');
  assert.equal((await app.exited).exitCode, 1);
  assert.equal((await tryToken(emu.info.databaseToken, 'SELECT 1')).status, 200);
});

test('invalidate --yes --regenerate: every old token fails on the database at once, the new pair works', async () => {
  const r = await burrow(['db', 'tokens', 'invalidate', '--yes', '--regenerate', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { db_id: string; invalidated: boolean; tokens: TokenJson[] };
  assert.equal(out.db_id, 'db_01KCHBG8C5KSFGG0VRNFQ7EK7X');
  assert.equal(out.invalidated, true);
  assert.deepEqual(
    out.tokens.map((t) => t.authorization),
    ['full-access', 'read-only'],
  );
  const old = [emu.info.databaseToken, emu.info.readOnlyDatabaseToken, ...created.slice(0, 4)];
  for (const t of old) {
    const res = await tryToken(t, 'SELECT 1');
    assert.equal(res.status, 401, 'an old token is refused');
  }
  assert.equal((await tryToken(out.tokens[0]!.token, "UPDATE products SET stock = stock WHERE sku = 'SKU-TOK'")).result?.type, 'ok');
  assert.equal((await tryToken(out.tokens[1]!.token, 'SELECT count(*) FROM customers')).result?.type, 'ok');
});

test('at a terminal, answering y invalidates', async () => {
  const fresh = await burrow(['db', 'tokens', 'create', '-o', 'json']);
  const token = (JSON.parse(fresh.stdout) as TokenJson).token;
  assert.equal((await tryToken(token, 'SELECT 1')).status, 200);
  const app = startBurrow(['db', 'tokens', 'invalidate'], { env });
  assert.doesNotMatch(await app.waitFor('[y/N]'), /\\x1b|\\u001b/, 'the question draws no escape sequence as text');
  await app.type('y\r');
  await app.waitFor('Invalidated every token of database burrow-demo');
  assert.equal((await app.exited).exitCode, 0);
  assert.equal((await tryToken(token, 'SELECT 1')).status, 401);
});
