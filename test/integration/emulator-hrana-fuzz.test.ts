import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';

// Random Hrana pipeline bodies (valid, half-valid and garbage, with batons from earlier answers,
// stored SQL, batch conditions, every value type and SQL that crashes the engine) against the
// emulator's database origin. Every answer must have sqld's shape for its status, and the
// emulator must still serve SQL, @libsql/client and the other origins afterwards.

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 350);

const emu = await useEmulator({ logRate: 0, statementTimeoutMs: 2000, streamIdleMs: 3000 });
const batons: string[] = [];

const SQL = [
  'SELECT 1',
  'SELECT ?',
  'SELECT ?, ?2, :a, @b, $c',
  'SELECT * FROM customers LIMIT 3',
  'SELECT id, avatar FROM customers WHERE avatar IS NOT NULL LIMIT 2',
  'BEGIN',
  'BEGIN IMMEDIATE',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT s1',
  'RELEASE s1',
  'ROLLBACK TO s1',
  'END',
  'CREATE TABLE IF NOT EXISTS fuzz (id INTEGER PRIMARY KEY, v)',
  'INSERT INTO fuzz (v) VALUES (?)',
  'UPDATE fuzz SET v = ? WHERE id = 1',
  'DELETE FROM fuzz WHERE id > 50',
  'SELECT 1; SELECT 2',
  '',
  ';',
  ' -- only a comment',
  'SELEC 1',
  "SELECT 'unterminated",
  'SELECT * FROM nope',
  'PRAGMA query_only = 1',
  'PRAGMA foreign_keys',
  'SELECT zeroblob(5000)',
  'SELECT 9223372036854775807 + 1',
  'SELECT 1e999, -1e999',
  'EXPLAIN SELECT 1',
  "SELECT x'00ff'",
  'CREATE TRIGGER IF NOT EXISTS t AFTER INSERT ON fuzz BEGIN SELECT 1; END',
  'ATTACH DATABASE ? AS x',
  'VACUUM',
];
/** Crashes the engine (a libsql panic): rare, so the rest of the fuzz gets an engine most of the time. */
const CRASH = "SELECT CAST(x'ff' AS TEXT)";

const jsonish = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}));
const goodValue = fc.oneof(
  fc.constant({ type: 'null' }),
  fc.record({ type: fc.constant('integer'), value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) }),
  fc.record({ type: fc.constant('float'), value: fc.double({ noNaN: true, noDefaultInfinity: true }) }),
  fc.record({ type: fc.constant('text'), value: fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 10 })) }),
  fc.record({ type: fc.constant('blob'), base64: fc.base64String({ maxLength: 24 }) }),
);
const badValue = fc.oneof(
  fc.record({ type: fc.constant('integer'), value: fc.oneof(fc.constant('99999999999999999999'), fc.string({ maxLength: 5 }), fc.integer()) }),
  fc.record({ type: fc.constant('float'), value: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)) }),
  fc.record({ type: fc.constant('text'), value: fc.integer() }),
  fc.record({ type: fc.constant('blob'), base64: fc.constantFrom('!!', 'A', 7) }),
  fc.record({ type: fc.string({ maxLength: 6 }) }),
  jsonish,
);
const value = fc.oneof({ weight: 12, arbitrary: goodValue }, { weight: 1, arbitrary: badValue });
const safeSql = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SQL) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) });
// never stored with store_sql, so a 500 can only come from a body that holds it
const sqlText = fc.oneof({ weight: 15, arbitrary: safeSql }, { weight: 1, arbitrary: fc.constant(CRASH) });
const args = fc.oneof({ weight: 6, arbitrary: fc.array(value, { maxLength: 4 }) }, { weight: 1, arbitrary: jsonish });
const namedArgs = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.record({ name: fc.constantFrom(':a', '@b', '$c', 'a', 'zz'), value }), { maxLength: 3 }) },
  { weight: 1, arbitrary: jsonish },
);
/** Mostly valid, sometimes not: a wrong field fails the whole body, so most bodies must be right. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ weight: 10, arbitrary: good }, { weight: 1, arbitrary: bad });
const stmt = fc.oneof(
  { weight: 8, arbitrary: fc.record({ sql: sqlText, args, want_rows: fc.boolean() }, { requiredKeys: ['sql'] }) },
  { weight: 1, arbitrary: fc.record({ sql_id: fc.integer({ min: 0, max: 3 }), named_args: namedArgs }, { requiredKeys: ['sql_id'] }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        sql: sqlText,
        sql_id: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(2 ** 40), fc.string({ maxLength: 2 })),
        args,
        named_args: namedArgs,
        want_rows: fc.oneof(fc.boolean(), jsonish),
      },
      { requiredKeys: [] },
    ),
  },
);
const { cond } = fc.letrec<{ cond: unknown }>((tie) => ({
  cond: fc.oneof(
    { depthSize: 'small' },
    {
      weight: 4,
      arbitrary: fc.record({
        type: fc.constantFrom('ok', 'error'),
        step: mostly(fc.integer({ min: 0, max: 3 }), fc.oneof(fc.constant(-1), fc.string({ maxLength: 2 }))),
      }),
    },
    { weight: 2, arbitrary: fc.record({ type: fc.constant('not'), cond: tie('cond') }) },
    { weight: 2, arbitrary: fc.record({ type: fc.constantFrom('and', 'or'), conds: fc.array(tie('cond'), { maxLength: 3 }) }) },
    { weight: 2, arbitrary: fc.constant({ type: 'is_autocommit' }) },
    fc.record({ type: fc.string({ maxLength: 4 }) }),
  ),
}));
const req = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('execute'), stmt }) },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('batch'),
      batch: fc.record({ steps: fc.array(fc.record({ condition: fc.option(cond), stmt }, { requiredKeys: ['stmt'] }), { maxLength: 5 }) }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constantFrom('sequence', 'describe'), sql: sqlText, sql_id: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ['type'] }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('store_sql'),
      sql_id: mostly(fc.integer({ min: 0, max: 3 }), jsonish),
      sql: mostly(safeSql, fc.oneof(fc.constant('x'.repeat(6000)), jsonish)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('close_sql'), sql_id: mostly(fc.integer({ min: 0, max: 3 }), jsonish) }) },
  { weight: 1, arbitrary: fc.constantFrom({ type: 'close' }, { type: 'get_autocommit' }, { type: 'nope' }, {}, [], 'execute', null) },
);
const body = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .record(
        {
          baton: fc.oneof({ weight: 10, arbitrary: fc.constant(null) }, { weight: 8, arbitrary: fc.constant('from-pool') }, fc.constantFrom('', 'AAAA', 7)),
          requests: fc.array(req, { maxLength: 4 }),
        },
        { requiredKeys: ['requests'] },
      )
      .map((b) => JSON.stringify(b)),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      jsonish.map((j) => JSON.stringify(j)),
      fc.string({ maxLength: 40 }),
      fc.constant('{"requests": ['),
    ),
  },
);
const target = fc.record({
  path: fc.constantFrom('/v2/pipeline', '/v3/pipeline', '/v3/pipeline', '/v3/pipeline', '/v2/pipeline', '/db/analytics-events/v3/pipeline'),
  token: fc.constantFrom('full', 'full', 'full', 'full', 'full', 'read-only', 'read-only', 'other'),
});

const seen = new Map<string, number>();

async function send(text: string, where: { path: string; token: string }): Promise<void> {
  // mostly the newest baton (its stream goes on), sometimes an older one (already used)
  const pooled = text.includes('"from-pool"') ? (batons.length && Math.random() < 0.8 ? batons.pop() : batons[0]) : undefined;
  const payload = pooled ? text.replace('"from-pool"', JSON.stringify(pooled)) : text.replace('"from-pool"', 'null');
  const token = where.token === 'full' ? emu.info.databaseToken : where.token === 'read-only' ? emu.info.readOnlyDatabaseToken : 'x.y.z';
  const res = await request(`${emu.info.databaseUrl}${where.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: payload,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const raw = await res.body.text();
  const type = String(res.headers['content-type']);
  const status = res.statusCode;
  const crashed = payload.includes("x'ff' AS TEXT");
  seen.set(String(status), (seen.get(String(status)) ?? 0) + 1);
  const what = `${status} ${type} ${raw.slice(0, 300)}\nbody: ${payload.slice(0, 400)}`;
  if (status === 200) {
    assert.equal(type, 'application/json', what);
    const json = JSON.parse(raw) as { baton: unknown; base_url: unknown; results: { type: string; error?: { message: unknown; code: unknown } }[] };
    assert.ok(json.baton === null || typeof json.baton === 'string', what);
    assert.equal(json.base_url, null, what);
    const sent = (JSON.parse(payload) as { requests: unknown[] }).requests;
    assert.equal(json.results.length, sent.length, what);
    for (const r of json.results) {
      assert.ok(r.type === 'ok' || r.type === 'error', what);
      if (r.type === 'error') assert.ok(typeof r.error!.message === 'string' && typeof r.error!.code === 'string' && r.error!.code !== '', what);
    }
    if (typeof json.baton === 'string') batons.push(json.baton);
    if (batons.length > 50) batons.shift();
  } else if (status === 400) {
    if (type === 'application/json') assert.equal((JSON.parse(raw) as { code: string }).code, 'STREAM_EXPIRED', what);
    else assert.ok(type === 'text/plain' && raw.length > 0, what);
  } else if (status === 500) {
    assert.ok(crashed, `a 500 without the SQL that crashes the engine: ${what}`);
    assert.equal((JSON.parse(raw) as { code: string }).code, 'ENGINE_RESTARTED', what);
  } else {
    assert.ok([401, 403].includes(status), what);
    assert.equal(type, 'application/json', what);
    assert.ok(typeof (JSON.parse(raw) as { error: unknown }).error === 'string', what);
  }
}

test(`${RUNS} random pipeline bodies (seed ${SEED}) get sqld-shaped answers; the engine keeps serving`, { timeout: 60_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(body, target, async (text, where) => send(text, where)),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  if (process.env.FUZZ_VERBOSE) console.error(JSON.stringify([...seen]));
  assert.ok((seen.get('200') ?? 0) > RUNS / 5, `mostly answered: ${JSON.stringify([...seen])}`);
  assert.ok((seen.get('400') ?? 0) > 0, 'protocol errors were met');

  const after = await request(`${emu.info.databaseUrl}/v2/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.info.databaseToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [{ type: 'execute', stmt: { sql: 'SELECT count(*) FROM customers' } }] }),
  });
  assert.equal(after.statusCode, 200);
  const rows = ((await after.body.json()) as { results: { response: { result: { rows: { value: string }[][] } } }[] }).results[0]!.response.result.rows;
  assert.ok(Number(rows[0]![0]!.value) > 0);
  const limits = await request(`${emu.info.baseUrl}/mc/limits`, { headers: { AccessKey: emu.info.accessKey } });
  assert.equal(limits.statusCode, 200);
  await limits.body.dump();
});
