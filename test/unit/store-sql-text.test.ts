import { test } from 'node:test';
import assert from 'node:assert/strict';
import { converterFor, MidStreamError, TsvRows, tsvUnescape } from '../../src/log-ship/tsv-rows';
import { sqlName } from '../../src/log-ship/sql-text';
import { formatCreate, statementText } from '../../src/log-ship/store-sql';
import { storeHeader } from '../../src/screens/sql/logs-header';
import { ResultTextStream, resultText } from '../../src/sql-repl/output-modes';
import type { SqlValue } from '../../src/api/database/values';

const rowsOf = (parser: TsvRows, ...chunks: string[]) => chunks.flatMap((c) => parser.push(Buffer.from(c)));

test('TSV with names and types: header lines first, values by type, NULL, escapes', () => {
  const p = new TsvRows();
  const rows = rowsOf(
    p,
    'a\tb\tc\td\te\n',
    'UInt8\tNullable(String)\tUInt64\tFloat64\tArray(UInt8)\n',
    '7\tx\\ty\\nz\\\\\t18446744073709551615\tnan\t[1,2]\n',
    '0\t\\N\t0\t-inf\t[]\n',
  );
  p.end();
  assert.deepEqual(p.columns, ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual(rows[0], [7n, 'x\ty\nz\\', 18446744073709551615n, Number.NaN, '[1,2]']);
  assert.deepEqual(rows[1], [0n, null, 0n, -Infinity, '[]']);
  assert.equal(converterFor('Float32')('1.5'), 1.5);
  assert.equal(tsvUnescape("it\\'s \\0 \\b\\f\\r"), "it's \0 \b\f\r");
});

test('TSV: a row or a UTF-8 character split between chunks comes out whole', () => {
  const p = new TsvRows();
  const bytes = Buffer.from('s\nString\n😀ü\n');
  const rows: unknown[] = [];
  for (let i = 0; i < bytes.length; i++) rows.push(...p.push(bytes.subarray(i, i + 1)));
  p.end();
  assert.deepEqual(rows, [['😀ü']]);
});

test('TSV: an error the server writes in the middle of an answer is an error, a value that only looks like one is not', () => {
  const p = new TsvRows();
  const error = "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero, e.what() = DB::Exception";
  rowsOf(p, 'n\nUInt64\n1\n2\n', `${error}\n`);
  assert.throws(
    () => p.end(),
    (e: Error) => e instanceof MidStreamError && e.message === error,
  );

  const q = new TsvRows();
  const rows = rowsOf(q, 's\nString\n', 'Code: 1, e.displayText() = a value\n', 'next\n');
  q.end();
  assert.deepEqual(rows, [['Code: 1, e.displayText() = a value'], ['next']]);
  // an answer cut in the middle of a line
  const r = new TsvRows();
  rowsOf(r, 'n\nUInt8\n1\n2');
  assert.throws(() => r.end(), MidStreamError);
});

test('sqlName: any name backquoted, quotes, backquotes and control bytes escaped', () => {
  assert.equal(sqlName('cdn_logs'), '`cdn_logs`');
  assert.equal(sqlName("we`ird'\\\n"), "`we\\`ird\\'\\\\\\x0a`");
});

test('statementText drops the closing semicolons; formatCreate puts one column a line', () => {
  assert.equal(statementText('SELECT 1;  \n'), 'SELECT 1');
  assert.equal(statementText('SELECT 1;;'), 'SELECT 1');
  assert.equal(
    formatCreate("CREATE TABLE default.t ( a UInt8,  b Nullable(String) COMMENT 'x, (y)', c Decimal(9, 2)) ENGINE = MergeTree ORDER BY (a, b)"),
    "CREATE TABLE default.t (\n  a UInt8,\n  b Nullable(String) COMMENT 'x, (y)',\n  c Decimal(9, 2)\n) ENGINE = MergeTree ORDER BY (a, b)",
  );
  assert.equal(formatCreate('CREATE TABLE t\n(\n    a UInt8\n)'), 'CREATE TABLE t\n(\n    a UInt8\n)', 'a server that lays it out itself is left alone');
});

test('storeHeader: version and where, never more; not connected when it failed', () => {
  const s = { where: 'clickhouse://ship@ch.internal:8123/logs', database: 'logs', version: '18.16.1', error: null };
  assert.equal(storeHeader(s), 'ClickHouse 18.16.1 · ship@ch.internal:8123/logs');
  assert.equal(storeHeader({ ...s, version: null }), 'ClickHouse · ship@ch.internal:8123/logs');
  assert.equal(storeHeader({ ...s, error: 'refused' }), 'ClickHouse ship@ch.internal:8123/logs: not connected');
});

test('ResultTextStream writes what resultText writes, whatever the parts (csv, json, line; no rows too)', () => {
  const columns = ['id', 'name', 'note'];
  const all: SqlValue[][] = [
    [1n, 'a,"b"', null],
    [2n, 'ü\nx', 1.5],
    [3n, '', 'z'],
  ];
  for (const mode of ['csv', 'json', 'line'] as const) {
    for (const rows of [all, []]) {
      const whole = [...resultText({ columns, rows }, mode)];
      const stream = new ResultTextStream(columns, mode);
      const parts = [...stream.begin(), ...stream.rows(rows.slice(0, 1)), ...stream.rows([]), ...stream.rows(rows.slice(1)), ...stream.end()];
      assert.deepEqual(parts, whole, `${mode} with ${rows.length} rows`);
    }
  }
});
