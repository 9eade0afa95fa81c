import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, LibsqlError, type Client } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';
import { ALLOWED_FUNCTIONS, moduleAllowed } from '../../src/emulator/database/engine-policy';

// Nothing sent to the emulator's database may reach the host: no file read or written, no code
// loaded, whatever the token, the request kind or the transaction mode.

const emu = await useEmulator();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-host-safety-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const sq = (s: string) => `'${s.replace(/'/g, "''")}'`;
const planted = path.join(dir, 'planted.txt');

const FORBIDDEN: string[] = [
  "SELECT length(readfile('/etc/passwd'))",
  `SELECT writefile(${sq(planted)}, 'owned')`,
  `SELECT WriteFile(${sq(planted)}, 'owned', 420)`,
  'SELECT "readfile"(\'/etc/passwd\')',
  `SELECT [writefile](${sq(planted)}, 'owned')`,
  "SELECT count(*) FROM fsdir('/tmp')",
  'SELECT name FROM "fsdir" WHERE path = \'/etc/hostname\'',
  "SELECT count(*) FROM main.[fsdir]('/etc')",
  'SELECT lsmode(420)',
  "SELECT load_extension('/nonexistent/evil.so')",
  "SELECT fts3_tokenizer('simple')",
  `SELECT sha3_query(${sq(`ATTACH ${sq(path.join(dir, 'via-sha3.db'))} AS x`)})`,
  "SELECT sqlite3mc_config('cipher')",
  'SELECT count(*) FROM sqlite_dbpage',
  'CREATE VIRTUAL TABLE pages USING sqlite_dbpage',
  `ATTACH ${sq(path.join(dir, 'attached.db'))} AS other`,
  `VACUUM INTO ${sq(path.join(dir, 'copy.db'))}`,
  `PRAGMA temp_store_directory = ${sq(dir)}`,
  'PRAGMA writable_schema = ON',
  'PRAGMA trusted_schema = ON',
  "PRAGMA key = 'secret'",
  "CREATE VIEW leak AS SELECT readfile('/etc/passwd') AS body",
  `CREATE TRIGGER plant AFTER INSERT ON events BEGIN SELECT writefile(${sq(planted)}, 'x'); END`,
];

const clients: Record<string, Client> = {
  full: createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken }),
  'read-only': createClient({ url: emu.info.databaseUrl, authToken: emu.info.readOnlyDatabaseToken }),
};
after(() => Object.values(clients).forEach((c) => c.close()));

/** Runs one statement the way a client can: alone, in a batch of each mode, in an interactive transaction. */
const modes: Record<string, (c: Client, sql: string) => Promise<unknown>> = {
  execute: (c, sql) => c.execute(sql),
  'batch write': (c, sql) => c.batch([sql], 'write'),
  'batch read': (c, sql) => c.batch([sql], 'read'),
  'batch deferred': (c, sql) => c.batch(['SELECT 1', sql], 'deferred'),
  transaction: async (c, sql) => {
    const tx = await c.transaction('write');
    try {
      await tx.execute(sql);
    } finally {
      tx.close();
    }
  },
};

const refusal = (e: unknown) => e instanceof LibsqlError && (e.code === 'SQLITE_AUTH' || e.code === 'BLOCKED');

for (const [kind, client] of Object.entries(clients)) {
  test(`${kind} token: every file, code and program function is refused in every mode`, async () => {
    for (const sql of FORBIDDEN) {
      for (const [mode, run] of Object.entries(modes)) {
        await assert.rejects(
          run(client, sql),
          (e: unknown) => {
            assert.ok(refusal(e), `${mode}: ${sql}: ${String(e)}`);
            // a full-access token meets the host rule itself, not the read-only rule
            if (kind === 'full') assert.equal((e as LibsqlError).code, 'SQLITE_AUTH', `${mode}: ${sql}`);
            return true;
          },
          `${mode}: ${sql}`,
        );
      }
    }
    assert.deepEqual(fs.readdirSync(dir), [], 'no file was created');
  });
}

test('the message says why, and names what was refused', async () => {
  await assert.rejects(clients.full!.execute("SELECT length(readfile('/etc/passwd'))"), (e: unknown) => {
    assert.match(String((e as Error).message), /not authorized: the function readfile\(\) is not available on the hosted database.*host's files/);
    return true;
  });
});

test('every function and virtual table module the engine has that is not on the allow-list is refused', async () => {
  const client = clients.full!;
  const fns = await client.execute('SELECT DISTINCT name, narg FROM pragma_function_list');
  const extra = fns.rows.filter((r) => !ALLOWED_FUNCTIONS.has(String(r.name).toLowerCase()));
  assert.ok(extra.length >= 8, `the engine has functions outside the allow-list (${extra.map((r) => r.name).join(' ')})`);
  for (const r of extra) {
    const args = Array.from({ length: Number(r.narg) < 0 ? 1 : Number(r.narg) }, () => 'NULL').join(', ');
    await assert.rejects(
      client.execute(`SELECT ${String(r.name)}(${args})`),
      (e: unknown) => e instanceof LibsqlError && e.code === 'SQLITE_AUTH',
      String(r.name),
    );
  }
  const mods = await client.execute('SELECT name FROM pragma_module_list');
  const refusedModules = mods.rows.map((r) => String(r.name)).filter((m) => !moduleAllowed(m));
  assert.ok(refusedModules.includes('fsdir') && refusedModules.includes('sqlite_dbpage'));
  for (const m of refusedModules) {
    await assert.rejects(client.execute(`SELECT * FROM ${m}`), (e: unknown) => e instanceof LibsqlError && e.code === 'SQLITE_AUTH', m);
  }
});

test('the raw /v2 and /v3 pipelines refuse too, in-band with SQLITE_AUTH', async () => {
  for (const v of ['v2', 'v3']) {
    const res = await fetch(`${emu.info.databaseUrl}/${v}/pipeline`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.info.readOnlyDatabaseToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ baton: null, requests: [{ type: 'execute', stmt: { sql: "SELECT readfile('/etc/passwd')" } }, { type: 'close' }] }),
    });
    const body = (await res.json()) as { results: { type: string; error?: { code: string } }[] };
    assert.equal(res.status, 200);
    assert.equal(body.results[0]!.type, 'error', v);
    assert.equal(body.results[0]!.error!.code, 'SQLITE_AUTH', v);
  }
});

test('what clients use still works: core, JSON, math, window and date functions, views, the seed trigger, FTS5, pragmas', async () => {
  const c = clients.full!;
  const rs = await c.execute(
    "SELECT upper('a') AS u, json_extract('{\"a\":2}', '$.a') AS j, round(sqrt(16)) AS s, strftime('%Y', '2024-05-01') AS y, " +
      "(SELECT count(*) FROM customer_totals) AS views, (SELECT sum(value) FROM json_each('[1,2]')) AS je, " +
      '(SELECT max(value) FROM generate_series(1, 3)) AS gs, row_number() OVER () AS rn',
  );
  assert.deepEqual({ ...rs.rows[0] }, { u: 'A', j: 2, s: 4, y: '2024', views: 1200, je: 3, gs: 3, rn: 1 });
  await c.execute("UPDATE orders SET status = 'shipped' WHERE id = (SELECT min(id) FROM orders)");
  await c.batch(['CREATE VIRTUAL TABLE docs USING fts5(body)', "INSERT INTO docs VALUES ('hello burrow')"], 'write');
  assert.equal((await c.execute("SELECT count(*) AS n FROM docs WHERE docs MATCH 'burrow'")).rows[0]!.n, 1);
  assert.ok((await c.execute("SELECT * FROM pragma_table_info('customers')")).rows.length > 3);
  assert.equal((await c.execute('PRAGMA foreign_keys')).rows[0]![0], 1);
});
