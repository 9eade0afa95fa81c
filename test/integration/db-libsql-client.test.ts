import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, LibsqlError } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';

// The official @libsql/client (HTTP) must work against the emulator unchanged.

const emu = await useEmulator();
const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken, intMode: 'bigint' });
after(() => client.close());

test('execute: rows, column types, 64-bit integers, blobs, NULL and unicode', async () => {
  const rs = await client.execute({
    sql: 'SELECT id, name, avatar, country, ? AS big, ? AS f FROM customers WHERE avatar IS NOT NULL ORDER BY id LIMIT 1',
    args: [9223372036854775807n, 0.25],
  });
  assert.deepEqual(rs.columns, ['id', 'name', 'avatar', 'country', 'big', 'f']);
  assert.deepEqual(rs.columnTypes, ['INTEGER', 'TEXT', 'BLOB', 'TEXT', '', '']);
  const row = rs.rows[0]!;
  assert.equal(typeof row.id, 'bigint');
  assert.equal(row.big, 9223372036854775807n);
  assert.equal(row.f, 0.25);
  assert.ok(row.avatar instanceof ArrayBuffer && row.avatar.byteLength > 0);
  const echo = await client.execute({ sql: 'SELECT ? AS t, ? AS b, ? AS n', args: ['žluťoučký 🐇', new Uint8Array([0, 1, 255]), null] });
  assert.equal(echo.rows[0]!.t, 'žluťoučký 🐇');
  assert.deepEqual([...new Uint8Array(echo.rows[0]!.b as ArrayBuffer)], [0, 1, 255]);
  assert.equal(echo.rows[0]!.n, null);
  const snow = await client.execute('SELECT max(snowflake_id) AS s FROM events');
  assert.ok((snow.rows[0]!.s as bigint) > 2n ** 53n, 'the seed has integers beyond 2^53');
});

test('batch in write mode: stored SQL, conditions, lastInsertRowid, atomic rollback on failure', async () => {
  const rs = await client.batch(
    [
      { sql: 'INSERT INTO products (sku, name, price) VALUES (?, ?, ?)', args: ['SKU-LC1', 'Client test', 12.5] },
      { sql: 'SELECT name FROM products WHERE sku = ?', args: ['SKU-LC1'] },
    ],
    'write',
  );
  assert.equal(rs[0]!.rowsAffected, 1);
  assert.equal(typeof rs[0]!.lastInsertRowid, 'bigint');
  assert.equal(rs[1]!.rows[0]!.name, 'Client test');
  await assert.rejects(
    client.batch(
      ["INSERT INTO products (sku, name, price) VALUES ('SKU-LC2', 'x', 1)", "INSERT INTO products (sku, name, price) VALUES ('SKU-LC1', 'dup', 1)"],
      'write',
    ),
    (e: unknown) => e instanceof LibsqlError && e.code === 'SQLITE_CONSTRAINT',
  );
  const left = await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-LC2'");
  assert.equal(left.rows[0]!.n, 0n, 'the failed batch was rolled back');
});

test('interactive transaction: commit keeps, rollback discards, other connections do not see uncommitted rows', async () => {
  const tx = await client.transaction('write');
  await tx.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-TX1', 'in tx', 1)");
  const inside = await tx.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-TX1'");
  assert.equal(inside.rows[0]!.n, 1n);
  const outside = await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-TX1'");
  assert.equal(outside.rows[0]!.n, 0n);
  await tx.rollback();
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-TX1'")).rows[0]!.n, 0n);

  const tx2 = await client.transaction('write');
  await tx2.batch(["INSERT INTO products (sku, name, price) VALUES ('SKU-TX2', 'kept', 2)", "UPDATE products SET stock = 7 WHERE sku = 'SKU-TX2'"]);
  await tx2.commit();
  assert.equal((await client.execute("SELECT stock FROM products WHERE sku = 'SKU-TX2'")).rows[0]!.stock, 7n);

  const tx3 = await client.transaction('write');
  await tx3.execute("INSERT INTO products (sku, name, price) VALUES ('SKU-TX3', 'closed', 3)");
  const open = emu.databaseStreams().open;
  tx3.close();
  // close() sends the stream's close in the background
  await until('the server closed the stream', () => emu.databaseStreams().open < open);
  assert.equal((await client.execute("SELECT count(*) AS n FROM products WHERE sku = 'SKU-TX3'")).rows[0]!.n, 0n, 'close without commit rolls back');
});

test('executeMultiple and read transactions', async () => {
  await client.executeMultiple('CREATE TABLE lc_multi (x INTEGER); INSERT INTO lc_multi VALUES (1); INSERT INTO lc_multi VALUES (2);');
  assert.equal((await client.execute('SELECT sum(x) AS s FROM lc_multi')).rows[0]!.s, 3n);
  const tx = await client.transaction('read');
  assert.equal((await tx.execute('SELECT count(*) AS n FROM lc_multi')).rows[0]!.n, 2n);
  await tx.commit();
});

test('errors come back as LibsqlError with the server code', async () => {
  await assert.rejects(client.execute('SELEC 1'), (e: unknown) => e instanceof LibsqlError && e.code === 'SQL_PARSE_ERROR');
  await assert.rejects(
    client.execute('SELECT * FROM no_such_table'),
    (e: unknown) => e instanceof LibsqlError && e.code === 'SQL_INPUT_ERROR' && /no such table/.test(e.message),
  );
  const ro = createClient({ url: emu.info.databaseUrl, authToken: emu.info.readOnlyDatabaseToken });
  try {
    await assert.rejects(ro.execute('DELETE FROM products'), (e: unknown) => e instanceof LibsqlError && e.code === 'BLOCKED');
    assert.equal((await ro.execute('SELECT count(*) AS n FROM customers')).rows[0]!.n, 1200);
  } finally {
    ro.close();
  }
  const bad = createClient({ url: emu.info.databaseUrl, authToken: 'garbage' });
  try {
    await assert.rejects(bad.execute('SELECT 1'), (e: unknown) => e instanceof LibsqlError && /401/.test(e.message));
  } finally {
    bad.close();
  }
});

test('a non-primary database answers under its /db/{name}/ URL with its own token', async () => {
  const { databases } = (await (await fetch(`${emu.info.baseUrl}/database/v2/databases?page=1`, { headers: { AccessKey: emu.info.accessKey } })).json()) as {
    databases: { id: string; name: string; url: string }[];
  };
  const analytics = databases.find((d) => d.name === 'analytics-events')!;
  assert.match(analytics.url, /\/db\/analytics-events\/$/);
  const gen = await fetch(`${emu.info.baseUrl}/database/v2/databases/${analytics.id}/auth/generate`, {
    method: 'PUT',
    headers: { AccessKey: emu.info.accessKey, 'content-type': 'application/json' },
    body: JSON.stringify({ authorization: 'read-only' }),
  });
  const { token } = (await gen.json()) as { token: string };
  const c = createClient({ url: analytics.url, authToken: token });
  try {
    assert.equal((await c.execute('SELECT count(*) AS n FROM page_views')).rows[0]!.n, 2000);
  } finally {
    c.close();
  }
});
