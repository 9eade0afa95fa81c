import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';

/*
 * A schema change made on one client's stream must be what every other stream sees from its next
 * statement on: column names and values of SELECT *, and the columns an INSERT may fill. The
 * emulator pools connections and caches prepared statements; sqld opens a connection per stream.
 * Driven through the official @libsql/client, over HTTP and over WebSocket.
 */

const emu = await useEmulator();
const clients: Client[] = [];
const open = (url: string) => {
  const c = createClient({ url, authToken: emu.info.databaseToken, intMode: 'number' });
  clients.push(c);
  return c;
};
after(() => clients.forEach((c) => c.close()));

const ITERATIONS = 100;

/** One change of the table `sc` made by `changer`; `cols` is the table's columns afterwards. */
type Change = { create: string[]; alter: string[]; cols: string[] };

/** The table cycles through DROP+CREATE with 1..4 columns, ADD COLUMN, RENAME COLUMN and DROP COLUMN. */
function changeFor(i: number, table: string): Change {
  const n = 1 + (i % 4);
  const base = Array.from({ length: n }, (_, k) => `c${k}_${i}`);
  switch (i % 3) {
    case 0:
      return { create: [`DROP TABLE IF EXISTS ${table}`, `CREATE TABLE ${table} (${base.join(', ')})`], alter: [], cols: base };
    case 1:
      return {
        create: [`DROP TABLE IF EXISTS ${table}`, `CREATE TABLE ${table} (${base.join(', ')})`],
        alter: [`ALTER TABLE ${table} ADD COLUMN email_${i}`],
        cols: [...base, `email_${i}`],
      };
    default: {
      const renamed = [...base, `extra_${i}`];
      renamed[0] = `renamed_${i}`;
      return {
        create: [`DROP TABLE IF EXISTS ${table}`, `CREATE TABLE ${table} (${[...base, `extra_${i}`, `gone_${i}`].join(', ')})`],
        alter: [`ALTER TABLE ${table} RENAME COLUMN ${base[0]} TO renamed_${i}`, `ALTER TABLE ${table} DROP COLUMN gone_${i}`],
        cols: renamed,
      };
    }
  }
}

async function exercise(url: string, table: string): Promise<void> {
  const changer = open(url);
  const reader = open(url);
  const wrong: string[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const change = changeFor(i, table);
    for (const sql of change.create) await changer.execute(sql);
    if (change.alter.length > 0) {
      // the reader reads the table as created, then another stream alters it
      await reader.execute(`SELECT * FROM ${table}`);
      for (const sql of change.alter) await changer.execute(sql);
    }
    // the reader's statement text stays the same: a cached statement must not keep the old schema
    const values = change.cols.map((_, k) => `v${k}`);
    try {
      await reader.execute({ sql: `INSERT INTO ${table} VALUES (${values.map(() => '?').join(', ')})`, args: values });
      // odd iterations read through a batch: over HTTP @libsql/client runs it as a cursor (/v3/cursor)
      const rs = i % 2 === 0 ? await reader.execute(`SELECT * FROM ${table}`) : (await reader.batch([`SELECT * FROM ${table}`], 'read'))[0]!;
      const row = rs.rows[0];
      if (JSON.stringify(rs.columns) !== JSON.stringify(change.cols))
        wrong.push(`#${i}: columns ${JSON.stringify(rs.columns)}, expected ${JSON.stringify(change.cols)}`);
      else if (!row || change.cols.some((c, k) => row[c] !== values[k])) wrong.push(`#${i}: row ${JSON.stringify(row)}`);
    } catch (error) {
      wrong.push(`#${i}: ${(error as Error).message}`);
    }
  }
  assert.deepEqual(wrong.slice(0, 5), [], `${wrong.length} of ${ITERATIONS} iterations saw another schema`);
}

test('HTTP: every stream sees the schema another stream just committed (ADD/RENAME/DROP COLUMN, DROP+CREATE)', async () => {
  await exercise(emu.info.databaseUrl, 'sc_http');
});

test('WebSocket: every stream sees the schema another stream just committed (ADD/RENAME/DROP COLUMN, DROP+CREATE)', async () => {
  await exercise(emu.info.databaseUrl.replace(/^http:/, 'ws:'), 'sc_ws');
});

for (const [transport, url] of [
  ['HTTP (a cursor)', emu.info.databaseUrl],
  ['WebSocket', emu.info.databaseUrl.replace(/^http:/, 'ws:')],
] as const) {
  test(`${transport}: a batch's steps see the DDL of its own earlier steps`, async () => {
    const c = open(url);
    const table = `sc_batch_${transport.slice(0, 2).toLowerCase()}`;
    await c.execute(`CREATE TABLE ${table} (a)`);
    const rs = await c.batch(
      [`SELECT * FROM ${table}`, `ALTER TABLE ${table} ADD COLUMN b`, `INSERT INTO ${table} VALUES (1, 'x')`, `SELECT * FROM ${table}`],
      'write',
    );
    assert.deepEqual(rs[0]!.columns, ['a']);
    assert.deepEqual(rs[3]!.columns, ['a', 'b']);
    assert.deepEqual(
      rs[3]!.rows.map((r) => [r.a, r.b]),
      [[1, 'x']],
    );
  });
}

test("HTTP: a stream never inherits another stream's temp objects or pragma settings", async () => {
  const c = open(emu.info.databaseUrl);
  // each execute is a stream of its own, closed after it: its connection may go back to a pool
  for (let i = 0; i < 8; i++) {
    await c.execute(`CREATE TEMP TABLE scratch_${i} (x)`);
    await c.execute('PRAGMA foreign_keys = OFF');
    // later streams, several at once so that they take every pooled connection
    const seen = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const temp = (await c.execute('SELECT group_concat(name) AS names FROM temp.sqlite_schema')).rows[0]!.names;
        const fk = (await c.execute('PRAGMA foreign_keys')).rows[0]![0];
        return { temp, fk };
      }),
    );
    assert.deepEqual(
      seen,
      Array.from({ length: 6 }, () => ({ temp: null, fk: 1 })),
    );
  }
});
