import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, LibsqlError, type Client } from '@libsql/client';
import WebSocket from 'ws';
import { useEmulator } from '../helpers/emulator';

// The official @libsql/client over WebSocket (ws:// URLs) against the emulator, unchanged.

const emu = await useEmulator();
const wsUrl = emu.info.databaseUrl.replace(/^http:/, 'ws:');
const clients: Client[] = [];
const open = (authToken: string, url = wsUrl) => {
  const c = createClient({ url, authToken, intMode: 'bigint' });
  clients.push(c);
  return c;
};
after(() => clients.forEach((c) => c.close()));
const client = open(emu.info.databaseToken);

test('execute over ws://: stored SQL, 64-bit integers, blobs, unicode', async () => {
  assert.equal(client.protocol, 'ws');
  const rs = await client.execute({
    sql: 'SELECT ? AS big, ? AS t, ? AS b, ? AS n',
    args: [9223372036854775807n, 'žluťoučký 🐇', new Uint8Array([0, 1, 255]), null],
  });
  assert.deepEqual(rs.columns, ['big', 't', 'b', 'n']);
  assert.equal(rs.rows[0]!.big, 9223372036854775807n);
  assert.equal(rs.rows[0]!.t, 'žluťoučký 🐇');
  assert.deepEqual([...new Uint8Array(rs.rows[0]!.b as ArrayBuffer)], [0, 1, 255]);
  const count = await client.execute('SELECT count(*) AS n FROM customers');
  assert.ok((count.rows[0]!.n as bigint) > 0n);
});

test('batch in write mode commits, and a failing batch rolls back as a whole', async () => {
  const rs = await client.batch(
    [
      { sql: 'INSERT INTO products (sku, name, price) VALUES (?, ?, ?)', args: ['SKU-WS1', 'ws test', 1.5] },
      { sql: 'SELECT name FROM products WHERE sku = ?', args: ['SKU-WS1'] },
    ],
    'write',
  );
  assert.equal(rs[0]!.rowsAffected, 1);
  assert.equal(rs[1]!.rows[0]!.name, 'ws test');
  await assert.rejects(
    client.batch(
      ["INSERT INTO products (sku, name, price) VALUES ('SKU-WS2', 'x', 1)", "INSERT INTO products (sku, name, price) VALUES ('SKU-WS1', 'dup', 1)"],
      'write',
    ),
    (e: unknown) => e instanceof LibsqlError && e.code === 'SQLITE_CONSTRAINT',
  );
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-WS2'")).rows[0]!.n, 0n);
});

test('interactive transactions: commit keeps, rollback and close discard, uncommitted rows stay private', async () => {
  const tx = await client.transaction('write');
  await tx.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-WTX1', 'in tx', 1)");
  assert.equal((await tx.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-WTX1'")).rows[0]!.n, 1n);
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-WTX1'")).rows[0]!.n, 0n);
  await tx.rollback();
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-WTX1'")).rows[0]!.n, 0n);

  const tx2 = await client.transaction('write');
  await tx2.batch(["INSERT INTO products (sku, name, price) VALUES ('SKU-WTX2', 'kept', 2)", "UPDATE products SET stock = 7 WHERE sku = 'SKU-WTX2'"]);
  await tx2.commit();
  assert.equal((await client.execute("SELECT stock FROM products WHERE sku = 'SKU-WTX2'")).rows[0]!.stock, 7n);

  const tx3 = await client.transaction('write');
  await tx3.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-WTX3', 'closed', 3)");
  tx3.close();
  // the client does not wait for its close_stream: this write queues until the rollback frees the lock
  await client.batch(["INSERT INTO products (sku, name, price) VALUES ('SKU-WTX4', 'after', 4)"], 'write');
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-WTX3'")).rows[0]!.n, 0n);
});

test("a writer waiting for another stream's lock does not block the other streams on the same socket", async () => {
  const tx = await client.transaction('write');
  await tx.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-WL1', 'holder', 1)");
  // this write queues behind tx's lock; meanwhile reads and tx's own commit must go through
  const waiting = client.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-WL2', 'waiter', 1)");
  const read = await client.execute('SELECT count(*) AS n FROM products');
  assert.ok((read.rows[0]!.n as bigint) > 0n);
  await tx.commit();
  await waiting;
  const both = await client.execute("SELECT count(*) AS n FROM products WHERE sku IN ('SKU-WL1', 'SKU-WL2')");
  assert.equal(both.rows[0]!.n, 2n);
});

test('executeMultiple runs a sequence', async () => {
  await client.executeMultiple('CREATE TABLE ws_multi (x INTEGER); INSERT INTO ws_multi VALUES (1); INSERT INTO ws_multi VALUES (2);');
  assert.equal((await client.execute('SELECT sum(x) AS s FROM ws_multi')).rows[0]!.s, 3n);
});

test('SQL errors are LibsqlErrors with the server code and the socket stays usable', async () => {
  await assert.rejects(client.execute('SELEC 1'), (e: unknown) => e instanceof LibsqlError && e.code === 'SQL_PARSE_ERROR');
  await assert.rejects(client.execute('SELECT * FROM no_such_table'), (e: unknown) => e instanceof LibsqlError && /no such table/.test(e.message));
  assert.equal((await client.execute('SELECT 41 + 1 AS x')).rows[0]!.x, 42n);
});

test('a read-only token reads but every write is refused with BLOCKED', async () => {
  const ro = open(emu.info.readOnlyDatabaseToken);
  assert.ok(((await ro.execute('SELECT count(*) AS n FROM customers')).rows[0]!.n as bigint) > 0n);
  await assert.rejects(
    ro.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-RO', 'no', 1)"),
    (e: unknown) => e instanceof LibsqlError && e.code === 'BLOCKED',
  );
  await assert.rejects(ro.batch(['DELETE FROM products'], 'write'), (e: unknown) => e instanceof LibsqlError && e.code === 'BLOCKED');
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-RO'")).rows[0]!.n, 0n);
});

test('a bad or missing token gets hello_error with an AUTH code', async () => {
  const forged = emu.info.databaseToken.slice(0, -4) + (emu.info.databaseToken.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  await assert.rejects(open(forged).execute('SELECT 1'), (e: unknown) => e instanceof LibsqlError && e.code === 'AUTH_JWT_INVALID');
  await assert.rejects(open('not-a-jwt').execute('SELECT 1'), (e: unknown) => e instanceof LibsqlError && e.code === 'AUTH_JWT_INVALID');
});

test('the other databases answer under /db/{name}/ and a token opens only its own database', async () => {
  await assert.rejects(
    open(emu.info.databaseToken, `${wsUrl}/db/inventory-eu/`).execute('SELECT 1'),
    (e: unknown) => e instanceof LibsqlError && e.code === 'AUTH_NAMESPACE_FORBIDDEN',
  );
});

test('handshake: hrana2 is negotiated, an unknown path is 404, no known subprotocol is 400', async () => {
  const protocol = await new Promise<string>((resolve, reject) => {
    const ws = new WebSocket(wsUrl, ['hrana3-protobuf', 'hrana2', 'hrana1']);
    ws.once('open', () => {
      resolve(ws.protocol);
      ws.close();
    });
    ws.once('error', reject);
  });
  assert.equal(protocol, 'hrana2');
  const status = (url: string, protocols: string[]) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(url, protocols);
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('open', () => {
        resolve(101);
        ws.close();
      });
      ws.once('error', () => {});
    });
  assert.equal(await status(`${wsUrl}/nowhere`, ['hrana2']), 404);
  assert.equal(await status(wsUrl, ['hrana3-protobuf']), 400);
});

test('a request before hello closes the socket with 1008', async () => {
  const code = await new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(wsUrl, ['hrana2']);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'request', request_id: 0, request: { type: 'open_stream', stream_id: 0 } })));
    ws.once('close', (c) => resolve(c));
    ws.once('error', reject);
  });
  assert.equal(code, 1008);
});

test('closing the client rolls back its open transactions; a revoked token is refused on the next request', async () => {
  const apiUrl = `${emu.info.baseUrl}/database/v2/databases`;
  const headers = { AccessKey: emu.info.accessKey, 'content-type': 'application/json' };
  const list = (await (await fetch(`${apiUrl}?page=1`, { headers })).json()) as { databases: { id: string; name: string }[] };
  const idOf = (name: string) => list.databases.find((d) => d.name === name)!.id;
  const tokenFor = async (id: string) =>
    (
      (await (await fetch(`${apiUrl}/${id}/auth/generate`, { method: 'PUT', headers, body: JSON.stringify({ authorization: 'full-access' }) })).json()) as {
        token: string;
      }
    ).token;
  const own = open(await tokenFor(idOf('burrow-demo')));
  const tx = await own.transaction('write');
  await tx.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-WCLOSE', 'left open', 1)");
  own.close();
  // the socket's close rolled the transaction back: this write gets the lock (it would wait 5 s and fail otherwise)
  await client.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-WAFTER', 'after close', 1)");
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-WCLOSE'")).rows[0]!.n, 0n);

  // revocation on another database, so the tokens the other tests use stay valid
  const inventory = idOf('inventory-eu');
  const live = open(await tokenFor(inventory), `${wsUrl}/db/inventory-eu/`);
  assert.equal((await live.execute('SELECT 1 AS one')).rows[0]!.one, 1n);
  assert.equal((await fetch(`${apiUrl}/${inventory}/auth/revoke`, { method: 'POST', headers })).status, 204);
  await assert.rejects(live.execute('SELECT 1'), (e: unknown) => e instanceof LibsqlError && e.code === 'AUTH_JWT_INVALID');
});
