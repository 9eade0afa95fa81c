import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'libsql';
import type { SqlValue } from '../../src/api/database/values';
import { displayValue, gridWidths, resultText, screenSource, summaryText, type ResultSet, type StyledLine } from '../../src/sql-repl/output-modes';
import { columnsLayout, dumpLines, sqlLiteral } from '../../src/sql-repl/schema-sql';

const result: ResultSet = {
  columns: ['id', 'name', 'score', 'avatar'],
  rows: [
    [1n, 'Ann', 2.5, null],
    [12345678901234567n, 'Bo "B", Jr', 1, new Uint8Array([0, 255])],
  ],
};
const text = (mode: Parameters<typeof resultText>[1]) => [...resultText(result, mode)].join('\n');

test('box mode', () => {
  assert.equal(
    text('box'),
    [
      '┌───────────────────┬────────────┬───────┬─────────┐',
      '│ id                │ name       │ score │ avatar  │',
      '├───────────────────┼────────────┼───────┼─────────┤',
      '│                 1 │ Ann        │   2.5 │ NULL    │',
      '│ 12345678901234567 │ Bo "B", Jr │   1.0 │ x\'00ff\' │',
      '└───────────────────┴────────────┴───────┴─────────┘',
    ].join('\n'),
  );
});

test('table mode is the same grid in ASCII', () => {
  const lines = text('table').split('\n');
  assert.equal(lines[0], '+-------------------+------------+-------+---------+');
  assert.equal(lines[1], '| id                | name       | score | avatar  |');
  assert.equal(lines[3], '|                 1 | Ann        |   2.5 | NULL    |');
  assert.equal(lines.length, 6);
});

test('markdown mode', () => {
  assert.equal(
    text('markdown'),
    [
      '| id                | name       | score | avatar  |',
      '|-------------------|------------|-------|---------|',
      '|                 1 | Ann        |   2.5 | NULL    |',
      '| 12345678901234567 | Bo "B", Jr |   1.0 | x\'00ff\' |',
    ].join('\n'),
  );
});

test('line mode: one value per line, names right-aligned, a blank line between rows', () => {
  assert.equal(
    text('line'),
    [
      '    id = 1',
      '  name = Ann',
      ' score = 2.5',
      'avatar = NULL',
      '',
      '    id = 12345678901234567',
      '  name = Bo "B", Jr',
      ' score = 1.0',
      "avatar = x'00ff'",
    ].join('\n'),
  );
});

test('csv mode: RFC 4180 quoting, NULL empty; json: exact integers, reals as reals, blobs as base64', () => {
  assert.equal(text('csv'), ['id,name,score,avatar', '1,Ann,2.5,', `12345678901234567,"Bo ""B"", Jr",1.0,x'00ff'`].join('\n'));
  assert.equal(
    text('json'),
    ['[{"id":1,"name":"Ann","score":2.5,"avatar":null},', '{"id":12345678901234567,"name":"Bo \\"B\\", Jr","score":1.0,"avatar":{"base64":"AP8="}}]'].join(
      '\n',
    ),
  );
  const parsed = JSON.parse(text('json').replace(/12345678901234567/, '"big"')) as unknown[];
  assert.equal(parsed.length, 2, 'the json text is valid JSON');
  assert.equal([...resultText({ columns: ['a'], rows: [] }, 'json')].join(''), '[]');
});

const plain = (l: StyledLine) => l.map((s) => s.text).join('');

test('on screen: NULL and blobs are marked, numbers right-aligned, wide cells cut with …', () => {
  assert.deepEqual(displayValue(null), { text: 'NULL', kind: 'null' });
  assert.deepEqual(displayValue(new Uint8Array(40).fill(1)), { text: `x'${'01'.repeat(16)}…' (40 B)`, kind: 'blob' });
  assert.deepEqual(displayValue('a\nb'), { text: 'a↵b', kind: 'text' }, 'a newline cannot break the grid');
  assert.equal(displayValue(3).text, '3.0');
  const src = screenSource({ columns: ['id', 'note', 'n'], rows: [[1n, 'x'.repeat(100), null]] }, 'box', { maxColumnWidth: 10 });
  const row = src.line(3, 0);
  assert.equal(plain(row), `│  1 │ ${'x'.repeat(9)}… │ NULL │`);
  assert.equal(row.find((s) => s.text.includes('NULL'))!.kind, 'null');
  assert.equal(src.sticky, 3, 'border, header and separator stay while scrolling');
});

test('on screen: sideways scrolling starts the grid at a later column', () => {
  const src = screenSource(result, 'table');
  assert.equal(src.hPositions, 4);
  assert.match(plain(src.line(1, 2)), /^\| score \| avatar\s+\|$/);
  assert.match(plain(src.line(3, 2)), /^\|\s+2\.5 \| NULL\s+\|$/);
  const csv = screenSource(result, 'csv');
  assert.equal(plain(csv.line(0, 1)), 'id,name,score,avatar'.slice(8));
});

test('on screen: a 100,000-row result makes only the lines asked for', () => {
  const rows: SqlValue[][] = [];
  for (let i = 0; i < 100_000; i++) rows.push([BigInt(i), `name ${i}`]);
  let reads = 0;
  // rows outside the measured sample (the first 1000, the last 200) count their reads
  const counted = rows.map((r, i) =>
    i < 1000 || i >= 99_800 ? r : new Proxy(r, { get: (t, p) => (typeof p === 'string' && /^\d+$/.test(p) && reads++, Reflect.get(t, p)) }),
  );
  const src = screenSource({ columns: ['id', 'name'], rows: counted }, 'box');
  assert.equal(src.count, 100_004);
  assert.equal(reads, 0, 'the widths come from a sample of the rows');
  assert.equal(plain(src.line(3 + 99_999, 0)), '│ 99999 │ name 99999 │', 'the widths fit the last rows too');
  assert.equal(plain(src.line(3 + 50_000, 0)), '│ 50000 │ name 50000 │');
  assert.ok(reads <= 2, `one row read for one line (${reads})`);
  const line = screenSource({ columns: ['a', 'b'], rows }, 'line');
  assert.equal(line.count, 100_000 * 3 - 1);
  assert.equal(plain(line.line(3 * 500 + 1, 0)), 'b = name 500');
});

test('summaries: rows, affected rows with the last rowid, or done; timing with the timer on', () => {
  assert.equal(summaryText({ columns: ['a'], rowCount: 15000, rowsAffected: 0, lastInsertRowid: null, durationMs: 12.4 }, true), '15,000 rows · 12 ms');
  assert.equal(summaryText({ columns: ['a'], rowCount: 1, rowsAffected: 0, lastInsertRowid: null, durationMs: 12.4 }, false), '1 row');
  assert.equal(
    summaryText({ columns: [], rowCount: 0, rowsAffected: 3, lastInsertRowid: 42n, durationMs: 1500 }, true),
    '3 rows affected · last insert rowid 42 · 1.50 s',
  );
  assert.equal(summaryText({ columns: [], rowCount: 0, rowsAffected: 0, lastInsertRowid: null, durationMs: 0.25 }, true), 'done · 0.25 ms');
});

test('gridWidths caps at the maximum and measures the header', () => {
  assert.deepEqual(gridWidths({ columns: ['a_long_header', 'b'], rows: [['x', 'y'.repeat(80)]] }, { maxWidth: 20 }), [13, 20]);
});

test('sqlLiteral reads back as the same value and type in SQLite', () => {
  const db = new Database(':memory:');
  const values: SqlValue[] = [
    null,
    0n,
    -9223372036854775808n,
    9223372036854775807n,
    1.5,
    1,
    -0.000001,
    1e300,
    "it's",
    'ünï\ncode',
    new Uint8Array([0, 1, 255]),
  ];
  for (const v of values) {
    const row = db
      .prepare(`SELECT ${sqlLiteral(v)} AS v, typeof(${sqlLiteral(v)}) AS t`)
      .raw()
      .safeIntegers()
      .get() as unknown[];
    const want = v === null ? 'null' : typeof v === 'bigint' ? 'integer' : typeof v === 'number' ? 'real' : typeof v === 'string' ? 'text' : 'blob';
    assert.equal(row[1], want, `type of ${sqlLiteral(v)}`);
    if (v instanceof Uint8Array) assert.deepEqual(new Uint8Array(row[0] as Buffer), v);
    else if (typeof v === 'bigint') assert.equal(BigInt(row[0] as bigint), v);
    else assert.equal(row[0], v);
  }
  db.close();
});

test('dumpLines rebuilds the same database in SQLite', async () => {
  const src = new Database(':memory:');
  src.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, b BLOB, r REAL);
    INSERT INTO t (name, b, r) VALUES ('a', x'00ff', 1.0), (NULL, NULL, 2.5), ('it''s', x'', -1e-5);
    CREATE INDEX t_name ON t (name);
    CREATE VIEW v AS SELECT name FROM t;
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;`);
  const objects = src
    .prepare("SELECT type, name, tbl_name AS tblName, sql FROM sqlite_schema WHERE sql NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
    .all() as { type: string; name: string; tblName: string; sql: string }[];
  const rowsOf = async (t: string) => src.prepare(`SELECT * FROM "${t}"`).raw().safeIntegers().all() as SqlValue[][];
  const seq = src.prepare('SELECT name, seq FROM sqlite_sequence').raw().safeIntegers().all() as SqlValue[][];
  const lines: string[] = [];
  for await (const l of dumpLines(
    objects.map((o) => ({ ...o, b: undefined })),
    async (t) => (await rowsOf(t)).map((r) => r.map((v) => (Buffer.isBuffer(v) ? new Uint8Array(v) : v))),
    seq,
  ))
    lines.push(l);
  assert.equal(lines[0], 'PRAGMA foreign_keys=OFF;');
  assert.equal(lines[1], 'BEGIN TRANSACTION;');
  assert.equal(lines[lines.length - 1], 'COMMIT;');
  const copy = new Database(':memory:');
  copy.exec(lines.join('\n'));
  const dumpOf = (db: Database.Database) => JSON.stringify(db.prepare('SELECT quote(id), quote(name), quote(b), quote(r) FROM t ORDER BY id').raw().all());
  assert.equal(dumpOf(copy), dumpOf(src));
  assert.deepEqual(
    copy.prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").raw().all(),
    src.prepare("SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").raw().all(),
  );
  assert.deepEqual(copy.prepare('SELECT seq FROM sqlite_sequence').raw().all(), [[3]], 'AUTOINCREMENT counter kept');
  src.close();
  copy.close();
});

test('columnsLayout fills columns down then across, like sqlite3 .tables', () => {
  assert.deepEqual(columnsLayout(['a', 'bb', 'ccc', 'd', 'e'], 12), ['a    d', 'bb   e', 'ccc']);
  assert.deepEqual(columnsLayout([], 80), []);
});
