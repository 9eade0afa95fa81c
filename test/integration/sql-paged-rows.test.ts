import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { DatabaseSession, type StatementResult } from '../../src/api/database/index';
import { isPlainRead, runCursorResult } from '../../src/state/sql/cursor-result';
import { PAGE_ROWS, PagedRows } from '../../src/state/sql/paged-rows';

// The SQL shell's paged results: a first pass through the emulator's cursor counts and keeps a
// bounded cache of pages; a row outside it is read again through the cursor on demand.

const emu = await useEmulator();
const target = { url: emu.info.databaseUrl, authToken: emu.info.databaseToken };
const ROWS = 20_500;

const db = new DatabaseSession({ url: target.url, authToken: target.authToken });
after(() => db.close());
await db.execute('CREATE TABLE paged (id INTEGER PRIMARY KEY, v TEXT)');
await db.execute(`INSERT INTO paged WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x, 'v' || x FROM c`);

test('the first pass counts every row, holds at most 16 pages, and a dropped page is read again', async () => {
  let shown: { result: StatementResult; rows: PagedRows } | null = null;
  let changes = 0;
  let countAtShow = -1;
  const failures: unknown[] = [];
  const ok = await runCursorResult(target, 'SELECT id, v FROM paged ORDER BY id', {
    now: () => 0,
    show(result, rows) {
      shown = { result, rows };
      countAtShow = rows.count;
    },
    changed: () => changes++,
    pageFailed: (e) => failures.push(e),
  });
  assert.equal(ok, true);
  const { result, rows } = shown!;
  assert.ok(countAtShow >= PAGE_ROWS && countAtShow < ROWS, `shown with its first rows (${countAtShow}), before the count was known`);
  assert.equal(rows.done, true);
  assert.equal(result.rows.length, ROWS);
  assert.deepEqual(result.columns, ['id', 'v']);
  assert.ok(rows.pagesHeld() <= 16, `${rows.pagesHeld()} pages held`);
  assert.deepEqual(result.rows[0], [1n, 'v1']);
  assert.deepEqual(result.rows[ROWS - 1], [BigInt(ROWS), `v${ROWS}`], 'the last pages are kept');

  // page 1 was dropped during the pass: a placeholder first, the real row once it is read again
  assert.deepEqual(result.rows[1500], ['…', '…']);
  const before = changes;
  await until('the page read again', () => changes > before);
  assert.deepEqual(result.rows[1500], [1501n, 'v1501']);
  assert.deepEqual(result.rows[1999], [2000n, 'v2000']);
  assert.ok(rows.pagesHeld() <= 16);
  assert.equal(result.rows[ROWS], undefined);
  assert.deepEqual(failures, []);
});

test('pages asked for while one is read: the last one asked for goes next', async () => {
  const reads: number[] = [];
  let changed = 0;
  const paged = new PagedRows(
    async (skip, take) => {
      reads.push(skip);
      return Array.from({ length: take }, (_, k) => [BigInt(skip + k)]);
    },
    () => changed++,
    undefined,
    2,
  );
  paged.append(Array.from({ length: 5 * PAGE_ROWS }, (_, k) => [BigInt(k)]));
  paged.finish();
  assert.equal(paged.pagesHeld(), 2, 'page 0 and the newest');
  assert.equal(paged.row(1500), null);
  assert.equal(paged.row(2500), null);
  assert.equal(paged.row(3500), null);
  await until('two pages read', () => changed === 2);
  assert.deepEqual(reads, [1000, 3000], 'page 2 was skipped for page 3');
  assert.deepEqual(paged.row(3500), [3500n]);
  assert.deepEqual(paged.row(0), [0n]);
});

test('a server without /v3/cursor: nothing shown, the caller falls back', async () => {
  const server = http.createServer((req, res) => {
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => server.close());
  const port = (server.address() as AddressInfo).port;
  let shown = false;
  const ok = await runCursorResult({ url: `http://127.0.0.1:${port}`, authToken: null }, 'SELECT 1', {
    now: () => 0,
    show: () => (shown = true),
    changed: () => undefined,
    pageFailed: () => undefined,
  });
  assert.equal(ok, false);
  assert.equal(shown, false);
});

test('reads go through the cursor; writes and WITH ... INSERT do not', () => {
  assert.equal(isPlainRead('SELECT * FROM t'), true);
  assert.equal(isPlainRead('  values (1)'), true);
  assert.equal(isPlainRead('WITH a AS (SELECT 1) SELECT * FROM a'), true);
  assert.equal(isPlainRead('WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a'), false);
  assert.equal(isPlainRead('INSERT INTO t VALUES (1)'), false);
  assert.equal(isPlainRead('BEGIN'), false);
});

test('a first pass cancelled after the first rows: the count stops there and says so', async () => {
  const abort = new AbortController();
  let shown: PagedRows | null = null;
  await assert.rejects(
    runCursorResult({ ...target, signal: abort.signal }, 'SELECT id, v FROM paged', {
      now: () => 0,
      show(_result, rows) {
        shown = rows;
        abort.abort();
      },
      changed: () => undefined,
      pageFailed: () => undefined,
    }),
    /cancelled/,
  );
  const rows = shown as PagedRows | null;
  assert.ok(rows);
  assert.equal(rows.stopped, true);
  assert.equal(rows.done, false);
  assert.ok(rows.count >= PAGE_ROWS && rows.count < ROWS, `${rows.count} rows counted`);
});
