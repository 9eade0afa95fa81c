import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';

// The emulator's Hrana endpoint spoken to raw, as sqld would be: shapes, statuses, content types.

const emu = await useEmulator({ streamIdleMs: 400 });
const db = emu.info.databaseUrl;
const full = emu.info.databaseToken;
const ro = emu.info.readOnlyDatabaseToken;

type Json = Record<string, unknown> & { results?: Json[]; baton?: string | null };

async function post(path: string, body: unknown, token: string | null = full, raw = false) {
  const res = await request(`${db}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.body.text();
  const type = String(res.headers['content-type']);
  return { status: res.statusCode, type, text, json: type === 'application/json' && text ? (JSON.parse(text) as Json) : null };
}

const exec = (sql: string, args: unknown[] = [], extra: Record<string, unknown> = {}) => ({ type: 'execute', stmt: { sql, args, ...extra } });
const result = (r: Json | undefined) =>
  (r as { response: { result: Json } }).response.result as {
    cols: { name: string; decltype: string | null }[];
    rows: { type: string; value?: unknown; base64?: string }[][];
    affected_row_count: number;
    last_insert_rowid: string | null;
  };

test('GET probes: /v2 and /v3 answer text, /v3-protobuf and unknown paths 404 with an empty body', async () => {
  for (const p of ['/v2', '/v3']) {
    const r = await request(`${db}${p}`);
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'text/plain');
    assert.match(await r.body.text(), /Hrana over HTTP/);
  }
  for (const p of ['/v3-protobuf', '/nope', '/v2/pipelinex', '/db/analytics-events/v3-protobuf']) {
    const r = await request(`${db}${p}`);
    assert.equal(r.statusCode, 404, p);
    assert.equal(await r.body.text(), '', p);
  }
  assert.equal((await request(`${db}/health`)).statusCode, 200);
  assert.match(await (await request(`${db}/version`)).body.text(), /sqld/);
});

test('execute: values are encoded as sqld does (integers as strings, unpadded base64, floats as numbers, NULL)', async () => {
  const r = await post('/v2/pipeline', {
    requests: [
      exec("SELECT 9223372036854775807 AS big, 1.5 AS f, 'žluť 🐇' AS t, x'000102ff' AS b, NULL AS n, ? AS echo_int, ? AS echo_blob, ? AS echo_f", [
        { type: 'integer', value: '-9223372036854775808' },
        { type: 'blob', base64: 'AAE=' },
        { type: 'float', value: 2 },
      ]),
      { type: 'close' },
    ],
  });
  assert.equal(r.status, 200);
  assert.equal(r.type, 'application/json');
  assert.equal(r.json!.baton, null, 'close in the same pipeline ends the stream');
  const res = result(r.json!.results![0]);
  assert.deepEqual(res.rows[0], [
    { type: 'integer', value: '9223372036854775807' },
    { type: 'float', value: 1.5 },
    { type: 'text', value: 'žluť 🐇' },
    { type: 'blob', base64: 'AAEC/w' },
    { type: 'null' },
    { type: 'integer', value: '-9223372036854775808' },
    { type: 'blob', base64: 'AAE' },
    { type: 'float', value: 2 },
  ]);
  assert.deepEqual(
    res.cols.map((c) => c.name),
    ['big', 'f', 't', 'b', 'n', 'echo_int', 'echo_blob', 'echo_f'],
  );
  assert.equal(res.affected_row_count, 0);
  assert.equal(res.last_insert_rowid, null);
});

test('decltypes, affected_row_count and last_insert_rowid follow sqld (INSERT only, changes only for DML)', async () => {
  const r = await post('/v2/pipeline', {
    requests: [
      exec('SELECT id, email, lifetime_value, id + 1 FROM customers LIMIT 1'),
      exec("INSERT INTO products (sku, name, price) VALUES ('SKU-T1', 'Tamper', 30.0)"),
      exec('UPDATE products SET stock = stock + 1 WHERE price < 50'),
      exec('CREATE TABLE IF NOT EXISTS scratch (x)'),
      exec("DELETE FROM products WHERE sku = 'SKU-T1' RETURNING id"),
      { type: 'close' },
    ],
  });
  const [sel, ins, upd, ddl, del] = r.json!.results!.map(result);
  assert.deepEqual(sel!.cols, [
    { name: 'id', decltype: 'INTEGER' },
    { name: 'email', decltype: 'TEXT' },
    { name: 'lifetime_value', decltype: 'REAL' },
    { name: 'id + 1', decltype: null },
  ]);
  assert.equal(ins!.affected_row_count, 1);
  assert.match(ins!.last_insert_rowid!, /^\d+$/);
  assert.ok(upd!.affected_row_count > 1);
  assert.equal(upd!.last_insert_rowid, null);
  assert.equal(ddl!.affected_row_count, 0);
  assert.equal(del!.affected_row_count, 1, 'DELETE ... RETURNING counts its changes');
  assert.deepEqual(del!.rows[0], [{ type: 'integer', value: ins!.last_insert_rowid }]);
});

test('errors: primary codes, sqld-specific codes, in-band with HTTP 200', async () => {
  const r = await post('/v2/pipeline', {
    requests: [
      exec("INSERT INTO customers (id, email, name, created_at) VALUES (1, 'x@example.com', 'dup', '2026-01-01')"),
      exec('SELEC 1'),
      exec('SELECT nope FROM customers'),
      exec('SELECT 1; SELECT 2'),
      exec('  -- nothing here\n'),
      exec('SELECT ?', [
        { type: 'integer', value: '1' },
        { type: 'integer', value: '2' },
      ]),
      exec('SELECT :a', [], { named_args: [{ name: 'b', value: { type: 'null' } }] }),
      exec('SELECT ?', [{ type: 'null' }], { named_args: [{ name: 'a', value: { type: 'null' } }] }),
      exec("INSERT INTO orders (customer_id, status, ordered_at, total) VALUES (999999, 'paid', '2026-01-01', 1)"),
      exec('SELECT abs(-9223372036854775808)'),
      { type: 'close' },
    ],
  });
  assert.equal(r.status, 200);
  const errs = r.json!.results!.slice(0, 10).map((x) => x as { type: string; error: { code: string; message: string } });
  assert.ok(
    errs.every((e) => e.type === 'error'),
    JSON.stringify(errs),
  );
  const codes = errs.map((e) => (e as unknown as { error: { code: string } }).error.code);
  assert.deepEqual(codes, [
    'SQLITE_CONSTRAINT',
    'SQL_PARSE_ERROR',
    'SQL_INPUT_ERROR',
    'SQL_MANY_STATEMENTS',
    'SQL_NO_STATEMENT',
    'ARGS_INVALID',
    'ARGS_INVALID',
    'ARGS_BOTH_POSITIONAL_AND_NAMED',
    'SQLITE_CONSTRAINT',
    'SQLITE_UNKNOWN',
  ]);
  const msg = (i: number) => (errs[i] as unknown as { error: { message: string } }).error.message;
  assert.equal(msg(0), 'SQLite error: UNIQUE constraint failed: customers.id');
  assert.match(msg(2), /^SQL input error: no such column: nope/);
  assert.match(msg(8), /FOREIGN KEY constraint failed/, 'foreign keys are on');
});

test('named arguments bind with or without their sigil; ?NNN keeps its number', async () => {
  const r = await post('/v2/pipeline', {
    requests: [
      exec('SELECT :b, :a, ?1, @c, $d', [], {
        named_args: [
          { name: 'a', value: { type: 'text', value: 'A' } },
          { name: ':b', value: { type: 'text', value: 'B' } },
          { name: 'c', value: { type: 'integer', value: '3' } },
          { name: '$d', value: { type: 'float', value: 4.5 } },
        ],
      }),
      exec('SELECT ?2, ?, ?1', [
        { type: 'text', value: 'one' },
        { type: 'text', value: 'two' },
        { type: 'text', value: 'three' },
      ]),
      { type: 'close' },
    ],
  });
  assert.deepEqual(
    result(r.json!.results![0]).rows[0]!.map((v) => v.value),
    ['B', 'A', 'B', '3', 4.5],
  );
  assert.deepEqual(
    result(r.json!.results![1]).rows[0]!.map((v) => v.value),
    ['two', 'three', 'one'],
  );
});

test('batch: conditions ok/error/not/and/or; failing steps go to step_errors and the batch goes on', async () => {
  const r = await post('/v3/pipeline', {
    requests: [
      {
        type: 'batch',
        batch: {
          steps: [
            { stmt: { sql: 'SELECT 1' } },
            { stmt: { sql: 'SELECT nope' } },
            { condition: { type: 'ok', step: 1 }, stmt: { sql: 'SELECT 3' } },
            { condition: { type: 'error', step: 1 }, stmt: { sql: 'SELECT 4' } },
            {
              condition: {
                type: 'and',
                conds: [
                  { type: 'ok', step: 0 },
                  { type: 'not', cond: { type: 'ok', step: 2 } },
                ],
              },
              stmt: { sql: 'SELECT 5' },
            },
            {
              condition: {
                type: 'or',
                conds: [
                  { type: 'ok', step: 2 },
                  { type: 'error', step: 2 },
                ],
              },
              stmt: { sql: 'SELECT 6' },
            },
            { condition: { type: 'is_autocommit' }, stmt: { sql: 'SELECT 7' } },
          ],
        },
      },
      { type: 'close' },
    ],
  });
  const b = (r.json!.results![0] as { response: { result: { step_results: (Json | null)[]; step_errors: (Json | null)[] } } }).response.result;
  assert.deepEqual(
    b.step_results.map((s) => (s ? (s as { rows: { value: string }[][] }).rows[0]![0]!.value : null)),
    ['1', null, null, '4', '5', null, '7'],
  );
  assert.deepEqual(
    b.step_errors.map((e) => (e ? (e as { code: string }).code : null)),
    [null, 'SQL_INPUT_ERROR', null, null, null, null, null],
  );
});

test('batch: a statement that does not parse fails the whole batch before any step runs (as sqld)', async () => {
  const r = await post('/v2/pipeline', {
    requests: [
      { type: 'batch', batch: { steps: [{ stmt: { sql: "INSERT INTO scratch VALUES ('batch-parse')" } }, { stmt: { sql: 'SELEC 2' } }] } },
      exec("SELECT count(*) FROM scratch WHERE x = 'batch-parse'"),
      { type: 'close' },
    ],
  });
  assert.equal((r.json!.results![0] as { type: string }).type, 'error');
  assert.equal((r.json!.results![0] as { error: { code: string } }).error.code, 'SQL_PARSE_ERROR');
  assert.equal(result(r.json!.results![1]).rows[0]![0]!.value, '0', 'the first step did not run');
});

test('protocol errors fail the whole request with 400 text/plain; v3 features on /v2 are refused', async () => {
  const cases: [unknown, RegExp][] = [
    [{ requests: [{ type: 'get_autocommit' }] }, /only supported in protocol version hrana3/],
    [{ requests: [{ type: 'batch', batch: { steps: [{ condition: { type: 'is_autocommit' }, stmt: { sql: 'SELECT 1' } }] } }] }, /hrana3/],
    [{ requests: [{ type: 'bogus' }] }, /^Cannot deserialize client message from JSON/],
    [{ requests: [exec('SELECT ?', [{ type: 'integer', value: 1 }])] }, /^Cannot deserialize/],
    [{ requests: [{ type: 'execute', stmt: { sql_id: 7 } }] }, /SQL text 7 not found/],
    [{ requests: [{ type: 'execute', stmt: { sql: 'SELECT 1', sql_id: 1 } }] }, /both/],
    [{ requests: [{ type: 'batch', batch: { steps: [{ condition: { type: 'ok', step: 0 }, stmt: { sql: 'SELECT 1' } }] } }] }, /not an earlier step/],
    [{ requests: [{ type: 'close' }, exec('SELECT 1')] }, /^Stream for this baton was closed$/],
  ];
  for (const [body, re] of cases) {
    const r = await post('/v2/pipeline', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.type, 'text/plain');
    assert.match(r.text, re);
  }
  const broken = await post('/v2/pipeline', '{"requests": [', full, true);
  assert.equal(broken.status, 400);
  assert.match(broken.text, /^Cannot deserialize client message from JSON/);
  const v3 = await post('/v3/pipeline', { requests: [{ type: 'get_autocommit' }, { type: 'close' }] });
  assert.deepEqual((v3.json!.results![0] as { response: unknown }).response, { type: 'get_autocommit', is_autocommit: true });
});

test('store_sql / close_sql: ids per stream, limits of 50 texts and 5000 bytes', async () => {
  const stores = Array.from({ length: 51 }, (_, i) => ({ type: 'store_sql', sql_id: i, sql: `SELECT ${i}` }));
  const r = await post('/v2/pipeline', {
    requests: [
      ...stores,
      { type: 'execute', stmt: { sql_id: 42 } },
      { type: 'close_sql', sql_id: 42 },
      { type: 'close_sql', sql_id: 999 },
      { type: 'store_sql', sql_id: 42, sql: `SELECT '${'x'.repeat(5000)}'` },
      { type: 'close' },
    ],
  });
  assert.equal(r.status, 200);
  const res = r.json!.results!;
  assert.equal((res[49] as { type: string }).type, 'ok');
  assert.equal((res[50] as { error: { code: string } }).error.code, 'SQL_STORE_TOO_MANY');
  assert.equal(result(res[51]).rows[0]![0]!.value, '42');
  assert.equal((res[53] as { type: string }).type, 'ok', 'closing an unknown id is fine');
  assert.equal((res[54] as { error: { code: string } }).error.code, 'SQL_STORE_TOO_LARGE');
  const dup = await post('/v2/pipeline', {
    requests: [
      { type: 'store_sql', sql_id: 1, sql: 'SELECT 1' },
      { type: 'store_sql', sql_id: 1, sql: 'SELECT 2' },
    ],
  });
  assert.equal(dup.status, 400);
});

test('sequence runs statements until the first error; describe reports params and columns', async () => {
  const r = await post('/v2/pipeline', {
    requests: [
      { type: 'sequence', sql: 'CREATE TABLE seq_t (x); INSERT INTO seq_t VALUES (1); INSERT INTO nope VALUES (2); INSERT INTO seq_t VALUES (3);' },
      exec('SELECT count(*) FROM seq_t'),
      { type: 'describe', sql: 'SELECT :a AS a, ? AS b, id FROM customers' },
      { type: 'close' },
    ],
  });
  assert.equal((r.json!.results![0] as { type: string }).type, 'error');
  assert.equal(result(r.json!.results![1]).rows[0]![0]!.value, '1');
  assert.deepEqual((r.json!.results![2] as { response: { result: unknown } }).response.result, {
    params: [{ name: ':a' }, { name: null }],
    cols: [
      { name: 'a', decltype: null },
      { name: 'b', decltype: null },
      { name: 'id', decltype: 'INTEGER' },
    ],
    is_explain: false,
    is_readonly: true,
  });
});

test('batons: one stream per baton across requests; reused, invalid and expired batons get sqld bodies', async () => {
  const first = await post('/v3/pipeline', { requests: [exec('BEGIN'), exec("INSERT INTO scratch VALUES ('in-tx')")] });
  const b1 = first.json!.baton!;
  assert.match(b1, /^[A-Za-z0-9_-]{20,}$/);
  const second = await post('/v3/pipeline', { baton: b1, requests: [exec("SELECT count(*) FROM scratch WHERE x = 'in-tx'"), { type: 'get_autocommit' }] });
  assert.equal(result(second.json!.results![0]).rows[0]![0]!.value, '1');
  assert.deepEqual((second.json!.results![1] as { response: unknown }).response, { type: 'get_autocommit', is_autocommit: false });
  const b2 = second.json!.baton!;
  assert.notEqual(b2, b1);

  // another stream does not see the uncommitted row
  const other = await post('/v2/pipeline', { requests: [exec("SELECT count(*) FROM scratch WHERE x = 'in-tx'"), { type: 'close' }] });
  assert.equal(result(other.json!.results![0]).rows[0]![0]!.value, '0');

  const reused = await post('/v3/pipeline', { baton: b1, requests: [] });
  assert.equal(reused.status, 400);
  assert.equal(reused.type, 'text/plain');
  assert.equal(reused.text, 'Received a baton that has already been used');
  const invalid = await post('/v3/pipeline', { baton: 'not-a-baton', requests: [] });
  assert.equal(invalid.text, 'Received an invalid baton');

  // idle past streamIdleMs (400 ms here): the stream expires and its transaction rolls back
  const expiredBefore = emu.databaseStreams().expired;
  await until('the idle stream expired', () => emu.databaseStreams().expired > expiredBefore && emu.databaseStreams().open === 0);
  const expired = await post('/v3/pipeline', { baton: b2, requests: [exec('SELECT 1')] });
  assert.equal(expired.status, 400);
  assert.equal(expired.type, 'application/json');
  assert.deepEqual(expired.json, { message: 'The stream has expired due to inactivity', code: 'STREAM_EXPIRED' });
  const after = await post('/v2/pipeline', { requests: [exec("SELECT count(*) FROM scratch WHERE x = 'in-tx'"), { type: 'close' }] });
  assert.equal(result(after.json!.results![0]).rows[0]![0]!.value, '0', 'rolled back on expiry');
});

test('auth: bearer required; garbage, unknown scheme and foreign-database tokens refused with sqld bodies', async () => {
  const none = await post('/v2/pipeline', { requests: [] }, null);
  assert.equal(none.status, 401);
  assert.equal(none.type, 'application/json');
  assert.deepEqual(none.json, { error: 'Unauthorized: `Expected authorization header but none given`' });
  const garbage = await post('/v2/pipeline', { requests: [] }, 'a.b.c');
  assert.deepEqual(garbage.json, { error: 'Unauthorized: `The JWT is invalid`' });
  const basic = await request(`${db}/v2/pipeline`, { method: 'POST', headers: { authorization: 'Basic Zm9vOmJhcg==' }, body: '{"requests":[]}' });
  assert.equal(basic.statusCode, 401);
  assert.match(await basic.body.text(), /authentication scheme/);
  // a bad token is refused before the body is even read
  const both = await post('/v2/pipeline', '{"broken', 'x', true);
  assert.equal(both.status, 401);
  // the primary database's token does not open another database
  const foreign = await post('/db/analytics-events/v2/pipeline', { requests: [exec('SELECT 1')] });
  assert.equal(foreign.status, 403);
  assert.match(foreign.text, /Authorization forbidden/);
  const unknown = await post('/db/nope/v2/pipeline', { requests: [] });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.json, { error: "Namespace `nope` doesn't exist" });
});

test('read-only token: reads work, every kind of write is BLOCKED in-band (and cannot switch query_only off)', async () => {
  const writes = [
    "INSERT INTO scratch VALUES ('ro')",
    'UPDATE products SET stock = 0',
    'DELETE FROM scratch',
    'CREATE TABLE ro_t (x)',
    'DROP TABLE scratch',
    'ALTER TABLE scratch ADD COLUMN y',
    "WITH x AS (SELECT 1) INSERT INTO scratch SELECT 'ro' FROM x",
    'PRAGMA user_version = 7',
    'PRAGMA query_only = 0',
    "REPLACE INTO scratch VALUES ('ro')",
  ];
  const r = await post(
    '/v3/pipeline',
    { requests: [exec('BEGIN IMMEDIATE'), ...writes.map((w) => exec(w)), exec('SELECT count(*) FROM customers'), exec('COMMIT'), { type: 'close' }] },
    ro,
  );
  assert.equal(r.status, 200);
  const res = r.json!.results!;
  assert.equal((res[0] as { type: string }).type, 'ok', 'BEGIN IMMEDIATE is allowed on a read-only token');
  for (let i = 0; i < writes.length; i++) {
    const e = res[i + 1] as { type: string; error?: { code: string; message: string } };
    assert.equal(e.type, 'error', writes[i]);
    assert.equal(e.error!.code, 'BLOCKED', writes[i]);
    assert.match(e.error!.message, /write operations are forbidden/);
  }
  assert.equal(result(res[writes.length + 1]).rows[0]![0]!.value, '1200');
  const check = await post('/v2/pipeline', { requests: [exec("SELECT count(*) FROM scratch WHERE x = 'ro'"), exec('PRAGMA user_version'), { type: 'close' }] });
  assert.equal(result(check.json!.results![0]).rows[0]![0]!.value, '0');
  assert.equal(result(check.json!.results![1]).rows[0]![0]!.value, '0');
});

test("a writer waits for another stream's write transaction instead of failing at once", async () => {
  const holder = await post('/v3/pipeline', { requests: [exec('BEGIN IMMEDIATE'), exec("INSERT INTO scratch VALUES ('holder')")] });
  const waiting = post('/v2/pipeline', { requests: [exec("INSERT INTO scratch VALUES ('waiter')"), { type: 'close' }] });
  await until('the writer waiting in the engine', () => emu.databaseEngine.inFlight > 0);
  const commit = await post('/v3/pipeline', { baton: holder.json!.baton, requests: [exec('COMMIT'), { type: 'close' }] });
  assert.equal((commit.json!.results![0] as { type: string }).type, 'ok');
  const w = await waiting;
  assert.equal((w.json!.results![0] as { type: string }).type, 'ok', JSON.stringify(w.json));
});
