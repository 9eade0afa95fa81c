import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import { request } from 'undici';
import { createClient } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';
import type { RunningEmulator } from '../../src/emulator/server';

// The database engine runs in a supervised process: a libsql panic or a statement that will not
// stop must not take the emulator down, freeze its other origins, or leave a stream half alive.

const LIMIT_MS = 1500;
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';
/** Its first row comes at once; the second needs the endless count, on the engine's main thread. */
const RUNAWAY_LATE = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT 1 UNION ALL SELECT count(*) FROM c';
const ENDLESS_ROWS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x, printf('%0100d', x) FROM c";

type Body = {
  baton?: string | null;
  results?: { type: string; error?: { code: string; message: string }; response?: { result?: { rows: { value?: string }[][] }; is_autocommit?: boolean } }[];
  message?: string;
  code?: string;
};

async function pipeline(emu: RunningEmulator, body: unknown, signal?: AbortSignal) {
  const res = await request(`${emu.info.databaseUrl}/v3/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.info.databaseToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  const text = await res.body.text();
  const type = String(res.headers['content-type']);
  return { status: res.statusCode, type, text, json: type === 'application/json' ? (JSON.parse(text) as Body) : null };
}
const ex = (sql: string) => ({ type: 'execute', stmt: { sql } });
const value = (b: Body | null, i = 0) => b?.results?.[i]?.response?.result?.rows[0]?.[0]?.value;

async function managementAnswers(emu: RunningEmulator): Promise<void> {
  const res = await request(`${emu.info.baseUrl}/mc/limits`, { headers: { AccessKey: emu.info.accessKey } });
  assert.equal(res.statusCode, 200);
  await res.body.dump();
  const logs = await request(`${emu.info.loggingUrl}/v2/pullzones/${emu.info.pullZoneIds[0]}/logs?limit=1`, { headers: { AccessKey: emu.info.accessKey } });
  assert.equal(logs.statusCode, 200);
  await logs.body.dump();
}

const emu = await useEmulator({ logRate: 1, ingestDelayMs: 200, statementTimeoutMs: LIMIT_MS });
const engine = () => emu.databaseEngine;

test('a panic in the engine (invalid UTF-8 text) answers that request with a clear error; the engine restarts and the next query works', async () => {
  const open = await pipeline(emu, { requests: [ex('BEGIN'), ex("INSERT INTO products (sku, name, price) VALUES ('SKU-PANIC', 'lost', 1)")] });
  assert.equal(open.status, 200);
  const pidBefore = engine().pid;
  assert.ok(pidBefore);

  const crash = await pipeline(emu, { requests: [ex("SELECT CAST(x'ff' AS TEXT)")] });
  assert.equal(crash.status, 500);
  assert.equal(crash.type, 'application/json');
  assert.equal(crash.json!.code, 'ENGINE_RESTARTED');
  assert.match(crash.json!.message!, /crashed while running this request and was restarted \(killed by SIGABRT: .*Utf8Error/);

  await managementAnswers(emu);
  // the other stream's connection died with the engine: its baton fails as after a server restart
  const lost = await pipeline(emu, { baton: open.json!.baton, requests: [ex('COMMIT')] });
  assert.equal(lost.status, 400);
  assert.equal(lost.text, 'Received an invalid baton');

  const next = await pipeline(emu, { requests: [ex("SELECT count(*) FROM products WHERE sku = 'SKU-PANIC'")] });
  assert.equal(next.status, 200);
  assert.equal(value(next.json), '0', 'the lost transaction did not commit');
  assert.notEqual(engine().pid, pidBefore, 'a new engine process');
  assert.equal(engine().stats.crashes, 1);

  // @libsql/client, unchanged, sees the crash as an error and goes on working
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  try {
    await assert.rejects(client.execute("SELECT CAST(x'ff' AS TEXT)"), /ENGINE_RESTARTED|crashed/);
    assert.equal((await client.execute('SELECT 41 + 1 AS n')).rows[0]!.n, 42);
  } finally {
    client.close();
  }
});

test('a runaway query is interrupted at the limit (SQLITE_INTERRUPT, its transaction rolled back) while the other origins keep answering', async () => {
  const open = await pipeline(emu, { requests: [ex('BEGIN'), ex("INSERT INTO products (sku, name, price) VALUES ('SKU-RUNAWAY', 'rolled back', 1)")] });
  let finished = false;
  const runaway = pipeline(emu, { baton: open.json!.baton, requests: [ex(RUNAWAY), { type: 'get_autocommit' }] }).finally(() => (finished = true));
  await until('the statement running in the engine', () => engine().inFlight > 0);
  await managementAnswers(emu);
  assert.equal(finished, false, 'management and logging answered while the runaway query was still running');
  const other = await pipeline(emu, { requests: [ex('SELECT 7')] });
  assert.equal(value(other.json), '7', 'another stream is served meanwhile');
  assert.equal(finished, false);

  const r = await runaway;
  assert.equal(r.status, 200);
  assert.equal(r.json!.results![0]!.type, 'error');
  assert.equal(r.json!.results![0]!.error!.code, 'SQLITE_INTERRUPT');
  assert.match(r.json!.results![0]!.error!.message, new RegExp(`longer than ${LIMIT_MS} ms.*transaction was rolled back`));
  assert.equal(r.json!.results![1]!.response!.is_autocommit, true);
  const after = await pipeline(emu, { baton: r.json!.baton, requests: [ex("SELECT count(*) FROM products WHERE sku = 'SKU-RUNAWAY'")] });
  assert.equal(after.status, 200, 'the stream itself is still usable');
  assert.equal(value(after.json), '0');
});

test('endless rows fail with RESPONSE_TOO_LARGE or at the limit; a statement that cannot be interrupted gets its engine killed', async () => {
  const endless = await pipeline(emu, { requests: [ex(ENDLESS_ROWS)] });
  assert.equal(endless.status, 200);
  assert.ok(['RESPONSE_TOO_LARGE', 'SQLITE_INTERRUPT'].includes(endless.json!.results![0]!.error!.code), endless.text.slice(0, 200));

  const killedBefore = engine().stats.killedStuck;
  let finished = false;
  const stuck = pipeline(emu, { requests: [ex(RUNAWAY_LATE)] }).finally(() => (finished = true));
  await until('the statement running in the engine', () => engine().inFlight > 0);
  await managementAnswers(emu);
  assert.equal(finished, false);
  const r = await stuck;
  assert.equal(r.status, 500);
  assert.equal(r.json!.code, 'ENGINE_RESTARTED');
  assert.match(r.json!.message!, new RegExp(`did not stop at the ${LIMIT_MS} ms limit`));
  assert.equal(engine().stats.killedStuck, killedBefore + 1);
  assert.equal(value((await pipeline(emu, { requests: [ex('SELECT 3')] })).json), '3');
});

test('a client that cancels stops its statement: the write lock it held is freed at once', async () => {
  const slow = await useEmulator({ logRate: 0, statementTimeoutMs: 60_000 });
  const open = await pipeline(slow, { requests: [ex('BEGIN IMMEDIATE'), ex("INSERT INTO products (sku, name, price) VALUES ('SKU-CANCEL', 'x', 1)")] });
  assert.equal(open.status, 200);
  const abort = new AbortController();
  const cancelled = pipeline(slow, { baton: open.json!.baton, requests: [ex(RUNAWAY)] }, abort.signal).catch((e: Error) => e);
  await until('the statement running in the engine', () => slow.databaseEngine.inFlight > 0);
  abort.abort();
  assert.ok((await cancelled) instanceof Error);
  // without the interrupt the runaway would hold the write lock for a minute and this would fail SQLITE_BUSY after 5 s
  const write = await pipeline(slow, {
    requests: [
      ex("INSERT INTO products (sku, name, price) VALUES ('SKU-AFTER', 'y', 1)"),
      ex("SELECT count(*) FROM products WHERE sku IN ('SKU-CANCEL', 'SKU-AFTER')"),
    ],
  });
  assert.equal(write.json!.results![0]!.type, 'ok', write.text.slice(0, 300));
  assert.equal(value(write.json, 1), '1', 'the cancelled transaction was rolled back');
});

test('our session inside a transaction: a crash is reported as a lost stream with the reason, and the session carries on', async () => {
  const { DatabaseSession, StreamLostError } = await import('../../src/api/database/index');
  const session = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken, keepAliveMs: 60_000 });
  try {
    await session.execute('BEGIN');
    await session.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-SESSION', 'lost', 1)");
    assert.ok(session.status().transaction);
    const error = await session.execute("SELECT CAST(x'ff' AS TEXT)").catch((e: unknown) => e);
    assert.ok(error instanceof StreamLostError, String(error));
    assert.match(error.message, /ENGINE_RESTARTED.*crashed.*stream lost: the open transaction was rolled back/);
    assert.equal(session.status().transaction, null, 'the session no longer claims a transaction');
    const r = await session.execute("SELECT count(*) FROM products WHERE sku = 'SKU-SESSION'");
    assert.equal(r.rows[0]![0], 0n);
  } finally {
    await session.close();
  }
});
