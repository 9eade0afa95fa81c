import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickhouseSkip, freePort, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { until } from '../helpers/wait';
import { StoreBackend, type StoreSnapshot } from '../../src/state/sql/store-backend';
import { StoreSql, StoreSqlError } from '../../src/log-ship/store-sql';
import { parseStoreUrl } from '../../src/config/store-url';
import { MAX_PAGES, PAGE_ROWS, type PagedRows } from '../../src/state/sql/paged-rows';
import type { StatementResult } from '../../src/api/database/index';

// `:sql store`'s engine against a real ClickHouse (18.16 here): catalog, paging, cancel on the server.

const skip = clickhouseSkip();
let ch: ClickHouseServer;
const backends: StoreBackend[] = [];
before(async () => {
  if (skip) return;
  ch = await startClickHouse();
  await ch.query(
    'CREATE TABLE cdn_logs (pullZoneId UInt32, timestamp DateTime, status UInt16, url String, bytes UInt64) ENGINE = MergeTree() PARTITION BY toDate(timestamp) ORDER BY (pullZoneId, timestamp)',
  );
  await ch.query('CREATE VIEW errors AS SELECT pullZoneId, status FROM cdn_logs WHERE status >= 500');
  await ch.query(
    'INSERT INTO cdn_logs FORMAT JSONEachRow',
    '{"pullZoneId":7,"timestamp":"2026-11-27 10:00:00","status":503,"url":"/a\\tb\\nc","bytes":18446744073709551615}\n{"pullZoneId":7,"timestamp":"2026-11-27 10:00:01","status":200,"url":"/ü😀","bytes":1}\n',
  );
});
after(async () => {
  for (const b of backends) b.close();
  await ch?.close();
});

function backend(url = ch.storeUrl, password: string | null = null, readOnly: string | null = null): { b: StoreBackend; snapshots: StoreSnapshot[] } {
  const snapshots: StoreSnapshot[] = [];
  const b = new StoreBackend(parseStoreUrl(url), password, (s) => snapshots.push(s), Date.now, readOnly);
  backends.push(b);
  return { b, snapshots };
}

interface Shown {
  result: StatementResult;
  paged: PagedRows | null;
  changes: number;
}

async function run(b: StoreBackend, sql: string, signal = new AbortController().signal): Promise<Shown> {
  const shown: Shown = { result: null as unknown as StatementResult, paged: null, changes: 0 };
  await b.run(sql, signal, {
    show: (result, paged) => Object.assign(shown, { result, paged }),
    changed: () => shown.changes++,
    pageFailed: (e) => assert.fail(String(e)),
  });
  return shown;
}

const running = async (pattern: string) =>
  (await ch.query(`SELECT count() FROM system.processes WHERE query LIKE '${pattern}' AND query NOT LIKE '%system.processes%'`)).trim() !== '0';

test('the catalog: tables and views with their columns for completion, .tables, .schema as SHOW CREATE TABLE, describe', { skip }, async () => {
  const { b, snapshots } = backend();
  await b.connect();
  assert.match(snapshots.at(-1)!.version ?? '', /^\d+\.\d+/, 'the header gets the server version');
  const schema = await b.catalog.schema();
  const logs = schema.tables.find((t) => t.name === 'cdn_logs');
  assert.deepEqual(logs, { name: 'cdn_logs', kind: 'table', columns: ['pullZoneId', 'timestamp', 'status', 'url', 'bytes'] });
  assert.equal(schema.tables.find((t) => t.name === 'errors')?.kind, 'view');
  assert.deepEqual(await b.catalog.tables(null, new AbortController().signal), ['cdn_logs', 'errors']);
  assert.deepEqual(await b.catalog.tables('cdn%', new AbortController().signal), ['cdn_logs']);
  const [create] = await b.catalog.schemaText('cdn_logs', new AbortController().signal);
  assert.match(create!, /^CREATE TABLE default\.cdn_logs \(\n {2}pullZoneId UInt32,\n {2}timestamp DateTime,/);
  assert.match(create!, /ORDER BY \(pullZoneId, timestamp\)/);
  const described = await b.catalog.describe('cdn_logs', new AbortController().signal);
  assert.deepEqual(described.columns.slice(0, 2), ['name', 'type']);
  assert.deepEqual(
    described.rows.map((r) => [r[0], r[1]]),
    [
      ['pullZoneId', 'UInt32'],
      ['timestamp', 'DateTime'],
      ['status', 'UInt16'],
      ['url', 'String'],
      ['bytes', 'UInt64'],
    ],
  );
  assert.equal((await b.catalog.describe('nope', new AbortController().signal)).rows.length, 0);
});

test('values come back exact: tabs and newlines, 4-byte UTF-8, UInt64 beyond 2^53, NULL; column order and repeated names kept', { skip }, async () => {
  const { b } = backend();
  const r = await run(b, 'SELECT url, bytes, status, NULL AS n, 1 AS x, 1 AS x, 3 AS `2`, 4 AS `1` FROM cdn_logs ORDER BY timestamp;');
  assert.equal(r.paged, null, 'a small result is one array');
  assert.deepEqual(r.result.columns, ['url', 'bytes', 'status', 'n', 'x', 'x', '2', '1']);
  assert.deepEqual(r.result.rows, [
    ['/a\tb\nc', 18446744073709551615n, 503n, null, 1n, 1n, 3n, 4n],
    ['/ü😀', 1n, 200n, null, 1n, 1n, 3n, 4n],
  ]);
  assert.equal(r.result.decltypes[1], 'UInt64');
});

test('a large result streams in pages: the first page shown at once, a bounded window kept, a page read again', { skip }, async () => {
  const { b } = backend();
  const total = PAGE_ROWS * (MAX_PAGES + 14);
  const r = await run(b, `SELECT number, toString(number) AS s FROM numbers(${total})`);
  assert.ok(r.paged, 'paged');
  assert.equal(r.paged.count, total);
  assert.ok(r.paged.done && !r.paged.stopped);
  assert.ok(b.rowsHeld() <= (MAX_PAGES + 1) * PAGE_ROWS, `rows held ${b.rowsHeld()}`);
  assert.equal(r.result.rows.length, total, 'the grid sees every row');
  const far = PAGE_ROWS * 3 + 17;
  // an early page was let go: asked for, it is read again from the server
  const seen = r.paged.row(far) ?? (await until('the page read again', async () => r.paged!.row(far), 30_000, 20));
  assert.deepEqual(seen, [BigInt(far), String(far)]);
});

test('ctrl-c: the request is dropped and KILL QUERY stops the query on the server (system.processes)', { skip }, async () => {
  const { b } = backend();
  const abort = new AbortController();
  const slow = run(b, 'SELECT count() FROM numbers(100000000000)', abort.signal);
  const outcome = slow.then(
    () => null,
    (e: unknown) => e,
  );
  await until('the query running on the server', () => running('%numbers(100000000000)%'), 30_000, 20);
  abort.abort();
  const error = await outcome;
  assert.ok(error instanceof StoreSqlError && error.kind === 'cancelled', String(error));
  assert.match(error.message, /cancelled: the server stopped the query \(KILL QUERY [0-9a-f-]{36}\)/);
  assert.equal(await running('%numbers(100000000000)%'), false, 'no longer in system.processes');
});

test('a query stopped early by its reader (a page read again) does not keep running on the server', { skip }, async () => {
  const session = new StoreSql({ store: parseStoreUrl(ch.storeUrl), password: null });
  try {
    const rows = await session.readRows('SELECT number FROM system.numbers', 5, 3);
    assert.deepEqual(rows, [[5n], [6n], [7n]]);
    assert.equal(await running('%FROM system.numbers%'), false);
  } finally {
    await session.close();
  }
});

test('clear failures: ClickHouse error text, wrong password, server down, a FORMAT clause', { skip }, async () => {
  const { b } = backend();
  await assert.rejects(
    run(b, 'SELEC 1'),
    (e: Error) => /^ClickHouse error 62: Syntax error: failed at position 1/.test(e.message) && !/e\.what\(\)|\n/.test(e.message),
  );
  await assert.rejects(run(b, 'SELECT * FROM nowhere'), /ClickHouse error 60: Table default\.nowhere doesn't exist/);
  await assert.rejects(run(b, 'SELECT 1 FORMAT JSON'), /drop the FORMAT clause/);

  const wrong = backend(ch.storeUrl, 'not-the-password');
  await assert.rejects(wrong.b.connect(), (e: StoreSqlError) => e.kind === 'auth' && /refused the login of user default: Wrong password/.test(e.message));
  assert.match(wrong.snapshots.at(-1)!.error ?? '', /refused the login/);
  assert.ok(!(wrong.snapshots.at(-1)!.error ?? '').includes('not-the-password'), 'the password is never shown');

  const port = await freePort();
  const down = backend(`clickhouse://default@127.0.0.1:${port}/default`);
  await assert.rejects(down.b.connect(), (e: StoreSqlError) => e.kind === 'down' && e.message.includes(`127.0.0.1:${port} (ECONNREFUSED)`));
});

test('statements without rows (DDL, INSERT) run and report no columns', { skip }, async () => {
  const { b } = backend();
  const made = await run(b, 'CREATE TABLE scratch (a UInt8) ENGINE = Memory');
  assert.deepEqual(made.result.columns, []);
  await run(b, 'INSERT INTO scratch VALUES (1), (2)');
  assert.deepEqual((await run(b, 'SELECT sum(a) FROM scratch')).result.rows, [[3n]]);
});

test("burrow's read-only mode: ClickHouse runs the shell's statements with readonly = 2 and refuses a write", { skip }, async () => {
  const { b } = backend(ch.storeUrl, null, 'read-only mode (--read-only)');
  await assert.rejects(
    run(b, 'CREATE TABLE refused (a UInt8) ENGINE = Memory'),
    /^Error: read-only mode \(--read-only\): the log store runs reads only, so ClickHouse refused it/,
  );
  await assert.rejects(run(b, 'INSERT INTO cdn_logs (pullZoneId) VALUES (1)'), /runs reads only/);
  assert.deepEqual((await run(b, 'SELECT count() FROM cdn_logs')).result.rows, [[2n]], 'reads run');
  assert.equal((await ch.query('EXISTS TABLE refused')).trim(), '0');
});
