import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, LibsqlError, type Client, type Transaction } from '@libsql/client';
import WebSocket from 'ws';
import { useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { MAX_STREAMS } from '../../src/emulator/database/hrana-ws';
import { MAX_CONNECTIONS } from '../../src/emulator/database/engine-protocol';

/*
 * One client must never take the database engine from the others: a WebSocket has at most
 * MAX_STREAMS streams (past it open_stream fails as a stream that could not open), idle streams
 * give their engine connection back, and the engine holds at most MAX_CONNECTIONS connections
 * (past it a request is refused in-band, the engine keeps running).
 */

const IDLE_MS = 300;
const emu = await useEmulator({ wsStreamIdleMs: IDLE_MS });
// no idle expiry within the test: every stream keeps its connection until its socket closes
const busy = await useEmulator();
const token = emu.info.databaseToken;
const wsUrl = emu.info.databaseUrl.replace(/^http:/, 'ws:');
const clients: Client[] = [];
const open = (url = wsUrl) => {
  const c = createClient({ url, authToken: emu.info.databaseToken, intMode: 'number' });
  clients.push(c);
  return c;
};
after(() => clients.forEach((c) => c.close()));

test(`one socket opens at most ${MAX_STREAMS} streams; past that @libsql/client gets STREAM_NOT_OPEN and others are served`, async () => {
  const greedy = open();
  const extra = 10;
  const settled = await Promise.allSettled(
    Array.from({ length: MAX_STREAMS + extra }, async () => {
      const tx = await greedy.transaction('deferred');
      await tx.execute('SELECT count(*) FROM customers');
      return tx;
    }),
  );
  const held = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  try {
    assert.equal(held.length, MAX_STREAMS);
    assert.equal(errors.length, extra);
    for (const e of errors) {
      assert.ok(e instanceof LibsqlError, String(e));
      assert.equal(e.code, 'STREAM_NOT_OPEN');
      assert.match(e.message, /has failed to open: this connection already has \d+ streams open/);
    }
    assert.equal(emu.databaseStreams().ws.refused, extra);
    // another client is served meanwhile, and so is the greedy one on the streams it holds
    const other = open();
    assert.equal((await other.execute('SELECT 7 AS n')).rows[0]!.n, 7);
    assert.equal((await held[0]!.execute('SELECT 8 AS n')).rows[0]!.n, 8);
  } finally {
    await Promise.all(held.map((tx: Transaction) => tx.rollback().catch(() => undefined)));
    held.forEach((tx) => tx.close());
  }
  // the streams closed, the socket may open new ones
  await until('the greedy socket closed its streams', () => emu.databaseStreams().ws.open === 0);
  const again = await greedy.transaction('deferred');
  assert.equal((await again.execute('SELECT 1 AS one')).rows[0]!.one, 1);
  again.close();
});

/** A bare hrana2 socket: the client library never leaves a stream idle outside a transaction. */
async function rawSocket(url = wsUrl, jwt = token): Promise<{ request(r: Record<string, unknown>): Promise<Record<string, unknown>>; close(): void }> {
  const ws = new WebSocket(url, ['hrana2']);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let next = 1;
  const waiting = new Map<number, (msg: Record<string, unknown>) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(String(data)) as Record<string, unknown>;
    if (typeof msg.request_id === 'number') waiting.get(msg.request_id)?.(msg);
  });
  ws.send(JSON.stringify({ type: 'hello', jwt }));
  return {
    request(r) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ type: 'request', request_id: id, request: r }));
      });
    },
    close: () => ws.close(),
  };
}

test('an idle stream in autocommit gives its engine connection back and keeps working', async () => {
  const sock = await rawSocket();
  try {
    assert.equal((await sock.request({ type: 'open_stream', stream_id: 1 })).type, 'response_ok');
    const run = () => sock.request({ type: 'execute', stream_id: 1, stmt: { sql: 'SELECT 42', want_rows: true } });
    assert.equal((await run()).type, 'response_ok');
    assert.equal(emu.databaseStreams().ws.connected, 1);
    await until('the idle stream gave its connection back', () => emu.databaseStreams().ws.connected === 0, 10_000);
    assert.equal(emu.databaseStreams().ws.open, 1, 'the stream itself stays open');
    const again = await run();
    assert.equal(again.type, 'response_ok', JSON.stringify(again));
  } finally {
    sock.close();
  }
});

test('an idle stream in a transaction expires: rolled back, and its next request gets STREAM_EXPIRED', async () => {
  const client = open();
  const expiredBefore = emu.databaseStreams().ws.expired;
  const tx = await client.transaction('write');
  await tx.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-IDLE', 'idle', 1)");
  await until('the idle transaction expired', () => emu.databaseStreams().ws.expired > expiredBefore, 10_000);
  await assert.rejects(tx.execute('SELECT 1'), (e: unknown) => e instanceof LibsqlError && e.code === 'STREAM_EXPIRED');
  tx.close();
  // rolled back: the row is not there, and the write lock is free for others
  await open().execute("INSERT INTO products (sku, name, price) VALUES ('SKU-AFTER-IDLE', 'after', 1)");
  assert.equal((await open().execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-IDLE'")).rows[0]!.n, 0);
});

test(`the engine holds at most ${MAX_CONNECTIONS} connections: past it a request is refused in-band and the engine keeps running`, async () => {
  const busyUrl = busy.info.databaseUrl.replace(/^http:/, 'ws:');
  const sockets = await Promise.all(Array.from({ length: Math.ceil(MAX_CONNECTIONS / MAX_STREAMS) + 1 }, () => rawSocket(busyUrl, busy.info.databaseToken)));
  try {
    const answers: Record<string, unknown>[] = [];
    let id = 0;
    for (const sock of sockets) {
      for (let s = 0; s < MAX_STREAMS; s++) {
        const streamId = id++;
        await sock.request({ type: 'open_stream', stream_id: streamId });
        answers.push(sock.request({ type: 'execute', stream_id: streamId, stmt: { sql: 'BEGIN', want_rows: false } }) as unknown as Record<string, unknown>);
      }
    }
    const settled = (await Promise.all(answers)) as { type: string; error?: { code: string } }[];
    const ok = settled.filter((a) => a.type === 'response_ok').length;
    const refused = settled.filter((a) => a.error?.code === 'TOO_MANY_CONNECTIONS').length;
    assert.equal(ok, MAX_CONNECTIONS);
    assert.equal(refused, settled.length - MAX_CONNECTIONS);
    assert.deepEqual({ ...busy.databaseEngine.stats, starts: 1 }, { starts: 1, crashes: 0, killedStuck: 0 }, 'the engine was not restarted');
    // over HTTP too, a pipeline and a cursor (a batch) are refused in-band while the engine is full
    const http = createClient({ url: busy.info.databaseUrl, authToken: busy.info.databaseToken, intMode: 'number' });
    clients.push(http);
    const full = (e: unknown) => e instanceof LibsqlError && e.code === 'TOO_MANY_CONNECTIONS';
    await assert.rejects(http.execute('SELECT 1'), full);
    await assert.rejects(http.batch(['SELECT 1'], 'read'), full);
  } finally {
    sockets.forEach((s) => s.close());
  }
  await until('the sockets closed their streams', () => busy.databaseStreams().ws.open === 0);
  const after = createClient({ url: busy.info.databaseUrl, authToken: busy.info.databaseToken, intMode: 'number' });
  clients.push(after);
  assert.equal((await after.execute('SELECT 5 AS n')).rows[0]!.n, 5);
});
