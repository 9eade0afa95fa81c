import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';

// Concurrent writers through the official client over HTTP: every acknowledged write commits and
// is visible to the next request, as on sqld (writers are serialized, none is lost).

const emu = await useEmulator();
const open = (): Client => createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken, intMode: 'number' });
const clients: Client[] = [];
after(() => clients.forEach((c) => c.close()));
const client = (): Client => {
  const c = open();
  clients.push(c);
  return c;
};

test('100 concurrent write batches all commit, while autocommit writes on other streams interleave', async () => {
  const setup = client();
  await setup.batch(['CREATE TABLE burst (n INTEGER PRIMARY KEY, via TEXT)', 'CREATE TABLE side (n INTEGER PRIMARY KEY)'], 'write');
  const writers = Array.from({ length: 10 }, () => client());
  const batches = Array.from({ length: 100 }, (_, i) =>
    writers[i % writers.length]!.batch(
      [
        { sql: "INSERT INTO burst (n, via) VALUES (?, 'batch')", args: [i] },
        { sql: 'SELECT count(*) AS c FROM burst WHERE n <= ?', args: [i] },
      ],
      'write',
    ),
  );
  // autocommit statements on their own streams, sent while the batches queue for the write lock
  const side = client();
  const sides = Array.from({ length: 30 }, (_, i) => side.execute({ sql: 'INSERT INTO side (n) VALUES (?)', args: [i] }));
  const settled = await Promise.allSettled([...batches, ...sides]);
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  assert.deepEqual(
    failed.map((f) => String(f.reason)),
    [],
    'no batch and no autocommit write failed',
  );
  const check = client();
  const counts = await check.execute('SELECT (SELECT count(*) FROM burst) AS burst, (SELECT count(*) FROM side) AS side');
  assert.deepEqual({ ...counts.rows[0] }, { burst: 100, side: 30 });
  // and a write acknowledged after the storm is visible at once to yet another request
  await side.execute('INSERT INTO side (n) VALUES (1000)');
  assert.equal((await client().execute('SELECT count(*) AS n FROM side')).rows[0]!.n, 31);
});

test('after the storm, acknowledged autocommit writes are visible to the next request on another stream (pooled connections are clean)', async () => {
  const a = client();
  const b = client();
  // each execute is a request on a new stream, so on whichever pooled connection comes next
  await a.execute('CREATE TABLE seen (x INTEGER)');
  await a.execute('INSERT INTO seen VALUES (1)');
  await a.execute('INSERT INTO seen VALUES (2)');
  const rs = await b.execute('SELECT group_concat(x) AS xs FROM seen');
  assert.equal(rs.rows[0]!.xs, '1,2');
});
