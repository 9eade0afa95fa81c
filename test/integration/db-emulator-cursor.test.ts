import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';
import { cursorStatement } from '../../src/api/database/cursor';
import { SqlError } from '../../src/api/database/index';

// The emulator's /v3/cursor (sqld's NDJSON shapes), read raw and through burrow's cursor client.

const emu = await useEmulator();
const url = emu.info.databaseUrl;
const auth = (token = emu.info.databaseToken) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const steps = (...sqls: string[]) => ({ steps: sqls.map((sql) => ({ stmt: { sql } })) });
const cursor = (batch: unknown, baton: string | null = null, token?: string, signal?: AbortSignal) =>
  fetch(`${url}/v3/cursor`, { method: 'POST', headers: auth(token), body: JSON.stringify({ baton, batch }), signal });
const lines = async (res: Response) =>
  (await res.text())
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const client = createClient({ url, authToken: emu.info.databaseToken });
after(() => client.close());

test('entries as sqld writes them: baton line, step_begin, rows, step_end, step_error, replication_index', async () => {
  await client.execute('CREATE TABLE cur_t (id INTEGER PRIMARY KEY, v TEXT)');
  const res = await cursor(steps("INSERT INTO cur_t (v) VALUES ('a')", 'SELECT id, v FROM cur_t', 'SELECT nope'));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain');
  const [head, ...entries] = await lines(res);
  assert.equal(typeof head!.baton, 'string');
  assert.deepEqual(entries, [
    { type: 'step_begin', step: 0, cols: [] },
    { type: 'step_end', affected_row_count: 1, last_insert_rowid: 1 },
    {
      type: 'step_begin',
      step: 1,
      cols: [
        { name: 'id', decltype: 'INTEGER' },
        { name: 'v', decltype: 'TEXT' },
      ],
    },
    {
      type: 'row',
      row: [
        { type: 'integer', value: '1' },
        { type: 'text', value: 'a' },
      ],
    },
    { type: 'step_end', affected_row_count: 0, last_insert_rowid: null },
    { type: 'step_error', step: 2, error: { message: 'SQL input error: no such column: nope', code: 'SQL_INPUT_ERROR' } },
    { type: 'replication_index', replication_index: null },
  ]);
});

test('a statement that does not parse fails the whole cursor before any step runs', async () => {
  const [, ...entries] = await lines(await cursor(steps("INSERT INTO cur_t (v) VALUES ('never')", 'SELEC 1')));
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.type, 'error');
  assert.equal((await client.execute("SELECT count(*) AS n FROM cur_t WHERE v = 'never'")).rows[0]!.n, 0);
});

test('the baton carries the stream on: a transaction begun in a cursor continues in the pipeline', async () => {
  const [head] = await lines(await cursor(steps('BEGIN', "INSERT INTO cur_t (v) VALUES ('tx')")));
  const res = await fetch(`${url}/v3/pipeline`, {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ baton: head!.baton, requests: [{ type: 'get_autocommit' }, { type: 'execute', stmt: { sql: 'ROLLBACK' } }, { type: 'close' }] }),
  });
  const body = (await res.json()) as { results: { response: { is_autocommit?: boolean } }[] };
  assert.equal(body.results[0]!.response.is_autocommit, false);
  assert.equal((await client.execute("SELECT count(*) AS n FROM cur_t WHERE v = 'tx'")).rows[0]!.n, 0);
});

test('a read-only token gets BLOCKED per step; a bad token gets 401 before anything runs', async () => {
  const [, ...entries] = await lines(await cursor(steps("INSERT INTO cur_t (v) VALUES ('ro')"), null, emu.info.readOnlyDatabaseToken));
  assert.equal(entries[0]!.type, 'step_error');
  assert.equal((entries[0]!.error as { code: string }).code, 'BLOCKED');
  assert.equal((await cursor(steps('SELECT 1'), null, 'not-a-jwt')).status, 401);
});

test('a reader that goes away stops the statement and rolls back its transaction: the write lock is free', async () => {
  const abort = new AbortController();
  const res = await cursor(
    steps('BEGIN IMMEDIATE', "INSERT INTO cur_t (v) VALUES ('held')", 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c'),
    null,
    undefined,
    abort.signal,
  );
  const reader = res.body!.getReader();
  let seen = '';
  while (!seen.includes('"type":"row"')) seen += new TextDecoder().decode((await reader.read()).value);
  abort.abort();
  // the endless statement held the write lock; a write from elsewhere now goes through (it waits up to 5 s for the lock)
  await client.execute("INSERT INTO cur_t (v) VALUES ('after')");
  assert.equal((await client.execute("SELECT count(*) AS n FROM cur_t WHERE v = 'held'")).rows[0]!.n, 0);
});

test('the cursor client yields columns, rows in batches and the end; errors are SqlErrors', async () => {
  const events = [];
  for await (const ev of cursorStatement(
    { url, authToken: emu.info.databaseToken },
    'SELECT x, x * 0.5 AS h, NULL AS n FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000) SELECT x FROM c)',
  ))
    events.push(ev);
  assert.deepEqual(events[0], { type: 'begin', columns: ['x', 'h', 'n'], decltypes: [null, null, null] });
  const rows = events.flatMap((e) => (e.type === 'rows' ? e.rows : []));
  assert.equal(rows.length, 5000);
  assert.deepEqual(rows[4999], [5000n, 2500, null]);
  assert.deepEqual(events.at(-1), { type: 'end', rowsAffected: 0, lastInsertRowid: null });
  const insert = [];
  for await (const ev of cursorStatement({ url, authToken: emu.info.databaseToken }, 'INSERT INTO cur_t (id, v) VALUES (?, ?)', [9007199254740993n, 'big']))
    insert.push(ev);
  assert.deepEqual(
    insert.at(-1),
    { type: 'end', rowsAffected: 1, lastInsertRowid: 9007199254740993n },
    'a rowid past 2^53 read exactly from the number sqld writes',
  );
  await assert.rejects(
    async () => {
      for await (const ev of cursorStatement({ url, authToken: emu.info.databaseToken }, 'SELECT nope')) void ev;
    },
    (e: unknown) => e instanceof SqlError && e.code === 'SQL_INPUT_ERROR',
  );
});
