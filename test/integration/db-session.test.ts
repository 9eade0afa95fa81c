import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { DatabaseSession, SqlError, StreamLostError, splitStatements, type SessionStatus } from '../../src/api/database/index';
import { ApiError } from '../../src/api/errors';

// Our Hrana client against the emulator: streams, transactions, keep-alive, loss, values, errors.

const IDLE = 600;
const emu = await useEmulator({ streamIdleMs: IDLE });
const url = emu.info.databaseUrl;
const token = emu.info.databaseToken;
const sessions: DatabaseSession[] = [];
after(async () => {
  for (const s of sessions) await s.close().catch(() => undefined);
});

function open(extra: Partial<ConstructorParameters<typeof DatabaseSession>[0]> = {}): DatabaseSession {
  const s = new DatabaseSession({ url, authToken: token, ...extra });
  sessions.push(s);
  return s;
}
/**
 * Closes every session but `keep`, so the only streams left to expire are the test's own and
 * the emulator's count of expired streams says when one of them did.
 */
async function onlyThese(...keep: DatabaseSession[]): Promise<void> {
  for (const s of sessions.splice(0)) {
    if (keep.includes(s)) sessions.push(s);
    else await s.close().catch(() => undefined);
  }
}
const expired = () => emu.databaseStreams().expired;
/** Waits until the server has expired `n` more idle streams than it had at `from`. */
const expiredSince = (from: number, n = 1) => until(`${n} stream(s) expired by the server`, () => expired() >= from + n, IDLE * 10);
const count = async (s: DatabaseSession, where: string) => (await s.execute(`SELECT count(*) FROM products WHERE ${where}`)).rows[0]![0];

/**
 * A proxy in front of the database origin: can hide /v3 (a v2-only server) and hold answers back
 * (`held` counts requests the server has answered and the proxy keeps).
 */
async function proxy(opts: { hideV3?: boolean; holdAnswers?: boolean }): Promise<{ url: string; held: () => number }> {
  let held = 0;
  const server = http.createServer(async (req, res) => {
    if (opts.hideV3 && req.url?.startsWith('/v3')) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await request(`${url}${req.url}`, {
      method: req.method as 'POST',
      headers: { 'content-type': 'application/json', authorization: String(req.headers.authorization ?? '') },
      body: Buffer.concat(chunks),
    });
    const body = Buffer.from(await upstream.body.arrayBuffer());
    if (opts.holdAnswers) {
      held++;
      return;
    }
    if (res.destroyed) return;
    res.writeHead(upstream.statusCode, { 'content-type': String(upstream.headers['content-type'] ?? '') }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, held: () => held };
}

test('an interactive transaction spans separate calls on one stream; status says since when', async () => {
  const s = open();
  const seen: SessionStatus[] = [];
  s.subscribe((st) => seen.push(st));
  await s.execute('BEGIN');
  const since = s.transactionSince;
  assert.ok(since !== null && since <= Date.now());
  assert.equal(s.status().protocol, 3);
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-S1', 'session', 1)");
  assert.equal(await count(s, "sku = 'SKU-S1'"), 1n);
  const other = open();
  assert.equal(await count(other, "sku = 'SKU-S1'"), 0n, 'not visible outside the transaction');
  await s.rollback();
  assert.equal(s.transactionSince, null);
  assert.equal(await count(s, "sku = 'SKU-S1'"), 0n);
  assert.ok(seen.some((st) => st.transaction?.since === since) && seen.at(-1)!.transaction === null);
});

test('keep-alive holds an open transaction well past the server idle limit', async () => {
  await onlyThese();
  const s = open({ keepAliveMs: 150 });
  await s.execute('BEGIN');
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-KA', 'kept alive', 1)");
  // a stream used after ours and then left alone: once the server expires it, ours has been idle
  // longer than the limit too, but for the keep-alive
  const from = expired();
  await open({ keepAliveMs: 0 }).execute('SELECT 1');
  await expiredSince(from);
  assert.equal(expired(), from + 1, 'only the stream without keep-alive expired');
  assert.notEqual(s.transactionSince, null);
  assert.equal(await count(s, "sku = 'SKU-KA'"), 1n, 'still inside the same transaction');
  await s.commit();
  assert.equal(await count(open(), "sku = 'SKU-KA'"), 1n);
});

test('without keep-alive the idle stream expires: the transaction is rolled back and the session says so', async () => {
  await onlyThese();
  const s = open({ keepAliveMs: 0 });
  await s.execute('BEGIN');
  const from = expired();
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-EXP', 'lost', 1)");
  await expiredSince(from);
  await assert.rejects(s.execute("UPDATE products SET stock = 1 WHERE sku = 'SKU-EXP'"), (e: unknown) => {
    assert.ok(e instanceof StreamLostError);
    assert.match(e.message, /^stream lost: the open transaction was rolled back \(the server expired the stream/);
    assert.equal(e.loss.rolledBack, true);
    return true;
  });
  assert.equal(s.status().transaction, null);
  assert.ok(s.status().lost);
  assert.equal(await count(s, "sku = 'SKU-EXP'"), 0n, 'the insert was rolled back; the next call runs on a new stream');
  assert.equal(s.status().lost, null, 'cleared by the next successful request');
});

test('a loss found by the keep-alive is reported by the next call, which does not run', async () => {
  const s = open({ keepAliveMs: IDLE + 300 });
  const losses: boolean[] = [];
  s.subscribe((st) => losses.push(st.lossPending));
  await s.execute('BEGIN');
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-KL', 'x', 1)");
  await until('the keep-alive finds the loss', () => s.status().lossPending, IDLE * 10);
  assert.ok(losses.includes(true));
  await assert.rejects(s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-KL2', 'must not run', 1)"), StreamLostError);
  assert.equal(await count(s, "sku IN ('SKU-KL', 'SKU-KL2')"), 0n);
});

test('idle stream outside a transaction is replaced silently', async () => {
  await onlyThese();
  const s = open({ keepAliveMs: 0 });
  const from = expired();
  await s.execute('SELECT 1');
  await expiredSince(from);
  assert.equal((await s.execute('SELECT 2')).rows[0]![0], 2n);
  assert.equal(s.status().lost, null);
});

test('values round-trip faithfully: 64-bit integers, reals, text, blobs, NULL, booleans', async () => {
  const s = open();
  const blob = new Uint8Array(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
  const args = [
    9223372036854775807n,
    -9223372036854775808n,
    2n ** 53n + 1n,
    0.1,
    -2.5e-300,
    1e308,
    1,
    'žluť 🐇 e\u0301',
    '',
    blob,
    new Uint8Array(0),
    null,
    true,
    false,
  ] as const;
  const r = await s.execute(`SELECT ${args.map(() => '?').join(', ')}`, [...args]);
  assert.deepEqual(r.rows[0], [
    9223372036854775807n,
    -9223372036854775808n,
    2n ** 53n + 1n,
    0.1,
    -2.5e-300,
    1e308,
    1,
    'žluť 🐇 e\u0301',
    '',
    blob,
    new Uint8Array(0),
    null,
    1n,
    0n,
  ]);
  const t = await s.execute("SELECT typeof(?), typeof(?), 1.0, 1, x'00ff'", [1, 1n]);
  assert.deepEqual(t.rows[0], ['real', 'integer', 1, 1n, new Uint8Array([0, 255])]);
  assert.equal(typeof t.rows[0]![2], 'number', 'a REAL stays a number');
  assert.equal(typeof t.rows[0]![3], 'bigint', 'an INTEGER is always a bigint');
  const named = await s.execute('SELECT :a || @b', { a: 'x', '@b': 'y' });
  assert.equal(named.rows[0]![0], 'xy');
  const snow = await s.execute('SELECT snowflake_id FROM events ORDER BY id LIMIT 1');
  assert.ok((snow.rows[0]![0] as bigint) > 2n ** 53n);
  assert.deepEqual(snow.decltypes, ['INTEGER']);
  const ins = await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-V', 'v', 1)");
  assert.equal(ins.rowsAffected, 1);
  assert.equal(typeof ins.lastInsertRowid, 'bigint');
  assert.ok(ins.durationMs >= 0);
});

test('a read-only token reads, and a write gets a clear explanation', async () => {
  const s = open({ authToken: emu.info.readOnlyDatabaseToken });
  assert.equal(s.tokenAccess, 'read-only');
  assert.equal(open().tokenAccess, 'full-access');
  assert.equal((await s.execute('SELECT count(*) FROM customers')).rows[0]![0], 1200n);
  await assert.rejects(s.execute('UPDATE customers SET name = name'), (e: unknown) => {
    assert.ok(e instanceof SqlError);
    assert.equal(e.code, 'BLOCKED');
    assert.equal(e.readOnlyRefusal, true);
    assert.match(e.message, /token is read-only/);
    assert.match(e.message, /burrow db tokens create/);
    return true;
  });
});

test('errors carry the server code; a refused token is an HTTP error that names it', async () => {
  const s = open();
  await assert.rejects(
    s.execute("INSERT INTO customers (id, email, name, created_at) VALUES (1, 'a@b.c', 'x', 'now')"),
    (e: unknown) => e instanceof SqlError && e.code === 'SQLITE_CONSTRAINT' && /UNIQUE constraint failed: customers.id/.test(e.message),
  );
  await assert.rejects(s.execute('SELEC 1'), (e: unknown) => e instanceof SqlError && e.code === 'SQL_PARSE_ERROR');
  const bad = open({ authToken: 'x.y.z' });
  await assert.rejects(bad.execute('SELECT 1'), (e: unknown) => e instanceof ApiError && e.status === 401 && /The JWT is invalid/.test(e.message));
});

test('run: several statements per request, in order, stopping at the first error', async () => {
  const s = open({ statementsPerRequest: 3 });
  const script = splitStatements(`
    CREATE TABLE run_t (x INTEGER);
    INSERT INTO run_t VALUES (1);
    INSERT INTO run_t VALUES (2);
    SELECT sum(x) FROM run_t;
    INSERT INTO run_t VALUES ('three' || nope);
    INSERT INTO run_t VALUES (4);
  `);
  const seen: number[] = [];
  const out = await s.run(script, { onResult: (i) => void seen.push(i) });
  assert.deepEqual(seen, [0, 1, 2, 3]);
  assert.equal(out.ran, 4);
  assert.equal(out.failed?.index, 4);
  assert.equal(out.failed?.error.code, 'SQL_INPUT_ERROR');
  assert.equal((await s.execute('SELECT count(*) FROM run_t')).rows[0]![0], 2n, 'the statement after the error did not run');
  // a statement that does not parse makes sqld refuse the whole batch: the session finds which one
  const parse = await s.run(['INSERT INTO run_t VALUES (10)', 'SELEC 2', 'INSERT INTO run_t VALUES (11)'], { keepResults: true });
  assert.equal(parse.failed?.index, 1);
  assert.equal(parse.failed?.error.code, 'SQL_PARSE_ERROR');
  assert.equal(parse.results.length, 1);
  assert.equal((await s.execute('SELECT count(*) FROM run_t WHERE x >= 10')).rows[0]![0], 1n);
});

test('falls back to /v2 when the server has no v3, and follows the transaction from the statements', async () => {
  await onlyThese();
  const { url: base } = await proxy({ hideV3: true });
  const s = new DatabaseSession({ url: base, authToken: token, keepAliveMs: 150 });
  sessions.push(s);
  await s.execute('SAVEPOINT outer_sp');
  assert.equal(s.status().protocol, 2);
  assert.notEqual(s.transactionSince, null, 'a SAVEPOINT outside a transaction starts one');
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-V2', 'v2', 1)");
  await s.execute('SAVEPOINT "inner sp"');
  await s.execute('ROLLBACK TO "inner sp"');
  assert.notEqual(s.transactionSince, null);
  const from = expired();
  await open({ keepAliveMs: 0 }).execute('SELECT 1');
  await expiredSince(from);
  assert.equal(expired(), from + 1, 'only the stream without keep-alive expired');
  await s.execute('RELEASE outer_sp');
  assert.equal(s.transactionSince, null, 'releasing the outermost savepoint commits');
  assert.equal(await count(s, "sku = 'SKU-V2'"), 1n, 'the keep-alive (empty v2 pipelines) kept the stream');
  await s.run(['BEGIN', "UPDATE products SET stock = 5 WHERE sku = 'SKU-V2'"]);
  assert.notEqual(s.transactionSince, null);
  await s.execute('COMMIT');
  assert.equal(s.transactionSince, null);
});

test('cancelling: before the server takes the request the transaction is intact; after, the stream is lost and said so', async () => {
  const s = open();
  await s.execute('BEGIN');
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-C1', 'c', 1)");
  const early = new AbortController();
  early.abort();
  await assert.rejects(s.execute('SELECT 1', [], { signal: early.signal }), (e: unknown) => e instanceof ApiError && e.kind === 'aborted');
  assert.notEqual(s.transactionSince, null);
  assert.equal(await count(s, "sku = 'SKU-C1'"), 1n, 'same transaction');
  await s.rollback();

  const holdOpts = { holdAnswers: false };
  const holding = await proxy(holdOpts);
  const slow = new DatabaseSession({ url: holding.url, authToken: token });
  sessions.push(slow);
  await slow.execute('BEGIN');
  await slow.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-C2', 'c', 1)");
  holdOpts.holdAnswers = true;
  const late = new AbortController();
  const update = slow.execute("UPDATE products SET stock = 3 WHERE sku = 'SKU-C2'", [], { signal: late.signal });
  const from = expired();
  await until('the server answered and the proxy holds the answer', () => holding.held() === 1);
  late.abort();
  holdOpts.holdAnswers = false;
  await assert.rejects(update, (e: unknown) => {
    assert.ok(e instanceof StreamLostError, String(e));
    assert.match(e.message, /^cancelled; stream lost/);
    return true;
  });
  assert.equal(slow.transactionSince, null);
  await onlyThese(slow);
  await expiredSince(from);
  assert.equal(await count(open(), "sku = 'SKU-C2'"), 0n, 'the server rolled the transaction back when the stream expired');
});

test('close rolls back an open transaction and reports it', async () => {
  const s = open();
  await s.execute('BEGIN');
  await s.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-CL', 'c', 1)");
  assert.deepEqual(await s.close(), { rolledBack: true });
  assert.equal(s.status().closed, true);
  await assert.rejects(s.execute('SELECT 1'), /closed/);
  assert.equal(await count(open(), "sku = 'SKU-CL'"), 0n);
});
