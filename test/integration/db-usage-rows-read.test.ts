import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from '../contract/call';

/*
 * `rows_read` in the usage routes (what `burrow db usage` and the databases screen show) counts
 * the rows a statement read, as sqld does (libsql's LIBSQL_STMTSTATUS_ROWS_READ), not the rows
 * it returned: a scan that finds nothing still read the table, and count(*) reads the b-tree's
 * pages. Driven through @libsql/client over HTTP and WebSocket.
 */

const emu = await useEmulator();
const dbs = obj((await call(emu, 'GET', '/database/v2/databases?page=1')).json).databases as { id: string; name: string }[];
const primary = dbs.find((d) => d.name === 'burrow-demo')!.id;
const clients: Client[] = [];
const open = (url: string) => {
  const c = createClient({ url, authToken: emu.info.databaseToken, intMode: 'number' });
  clients.push(c);
  return c;
};
after(() => clients.forEach((c) => c.close()));
const http = open(emu.info.databaseUrl);
const ws = open(emu.info.databaseUrl.replace(/^http:/, 'ws:'));

const ROWS = 3000;
await http.execute('CREATE TABLE rr (id INTEGER PRIMARY KEY, label TEXT, amount REAL)');
await http.execute(`INSERT INTO rr (label, amount) SELECT 'row ' || value, value * 1.5 FROM generate_series(1, ${ROWS})`);

async function rowsRead(): Promise<number> {
  const q = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`;
  return obj((await call(emu, 'GET', `/database/v2/databases/${primary}/usage?${q}`)).json).rows_read as number;
}

/** rows_read that one statement added to the database's usage. */
async function readBy(client: Client, sql: string): Promise<number> {
  const before = await rowsRead();
  await client.execute(sql);
  return (await rowsRead()) - before;
}

for (const [transport, client] of [
  ['HTTP', http],
  ['WebSocket', ws],
] as const) {
  test(`${transport}: a scan that returns nothing counts every row it read`, async () => {
    const read = await readBy(client, "SELECT * FROM rr WHERE label = 'nobody'");
    assert.ok(read >= ROWS && read <= ROWS + 1, `rows_read ${read}, expected about ${ROWS}`);
    // in a batch (over HTTP @libsql/client runs it as a cursor)
    const before = await rowsRead();
    await client.batch(["SELECT * FROM rr WHERE label = 'nobody'"], 'read');
    const batched = (await rowsRead()) - before;
    assert.ok(batched >= ROWS && batched <= ROWS + 1, `rows_read ${batched} in a batch`);
  });

  test(`${transport}: an UPDATE over a whole table counts the rows it read`, async () => {
    const read = await readBy(client, "UPDATE rr SET amount = amount WHERE label = 'nobody'");
    assert.ok(read >= ROWS && read <= ROWS + 1, `rows_read ${read}, expected about ${ROWS}`);
  });
}

test('a lookup by key counts one row; a scan returning all rows counts each once', async () => {
  assert.equal(await readBy(http, 'SELECT * FROM rr WHERE id = 5'), 1);
  const all = await readBy(http, 'SELECT id FROM rr');
  assert.ok(all >= ROWS && all <= ROWS + 1, `rows_read ${all}`);
});

test('count(*) counts the b-tree pages it visits, as libsql does (not 1, not every row)', async () => {
  const pages = Number((await http.execute("SELECT count(*) AS n FROM dbstat WHERE name = 'rr' AND pagetype = 'leaf'")).rows[0]!.n);
  assert.ok(pages > 1 && pages < ROWS, `the table has ${pages} leaf pages`);
  assert.equal(await readBy(http, 'SELECT count(*) FROM rr'), pages);
  assert.equal(await readBy(ws, 'SELECT count(*) FROM rr'), pages);
});

test('a statement that reads no table counts nothing', async () => {
  assert.equal(await readBy(http, 'SELECT 1 + 1'), 0);
});
