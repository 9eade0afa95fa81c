import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDotCommandInput, parseDotCommand, splitArgs } from '../../src/sql-repl/dot-commands';
import { destructiveReason } from '../../src/sql-repl/destructive';
import { editKey, editorOf, moveLine, onFirstLine, onLastLine, type EditorState } from '../../src/sql-repl/editor';
import type { KeyEvent } from '../../src/keys/key-event';

const ok = (line: string) => {
  const r = parseDotCommand(line);
  assert.ok(r.ok, `${line}: ${r.ok ? '' : r.message}`);
  return r.command;
};
const bad = (line: string) => {
  const r = parseDotCommand(line);
  assert.ok(!r.ok, `${line} should be refused`);
  return r.message;
};

test('dot-commands parse with their arguments', () => {
  assert.deepEqual(ok('.help'), { name: 'help' });
  assert.deepEqual(ok('.tables'), { name: 'tables', pattern: null });
  assert.deepEqual(ok('.tables cust%'), { name: 'tables', pattern: 'cust%' });
  assert.deepEqual(ok('.schema customers'), { name: 'schema', pattern: 'customers' });
  assert.deepEqual(ok('.indexes orders'), { name: 'indexes', pattern: 'orders' });
  assert.deepEqual(ok('.describe "order items"'), { name: 'describe', table: 'order items' });
  assert.deepEqual(ok('.mode CSV'), { name: 'mode', mode: 'csv' });
  assert.deepEqual(ok('.mode'), { name: 'mode', mode: null });
  for (const m of ['table', 'box', 'csv', 'json', 'line', 'markdown']) assert.deepEqual(ok(`.mode ${m}`), { name: 'mode', mode: m });
  assert.deepEqual(ok('.timer on'), { name: 'timer', on: true });
  assert.deepEqual(ok('.timer OFF'), { name: 'timer', on: false });
  assert.deepEqual(ok(".read 'my file.sql'"), { name: 'read', file: 'my file.sql' });
  assert.deepEqual(ok('.dump'), { name: 'dump', pattern: null });
  assert.deepEqual(ok('.dump orders'), { name: 'dump', pattern: 'orders' });
  assert.deepEqual(ok('.output out.csv'), { name: 'output', file: 'out.csv' });
  assert.deepEqual(ok('.output'), { name: 'output', file: null });
  assert.deepEqual(ok('.quit'), { name: 'quit' });
  assert.deepEqual(ok('.exit'), { name: 'quit' });
  assert.deepEqual(ok('  .q  '), { name: 'quit' });
});

test('unique prefixes work like sqlite3; ambiguous and unknown ones say what exists', () => {
  assert.deepEqual(ok('.sch customers'), { name: 'schema', pattern: 'customers' });
  assert.deepEqual(ok('.desc orders'), { name: 'describe', table: 'orders' });
  assert.match(bad('.t'), /\.t is ambiguous: \.tables, \.timer/);
  assert.match(bad('.frobnicate'), /unknown command \.frobnicate: type \.help for the list/);
  assert.match(bad('.'), /needs a name/);
});

test('bad arguments get the usage', () => {
  assert.match(bad('.mode yaml'), /unknown mode "yaml": use table, box, csv, json, line, markdown/);
  assert.match(bad('.timer maybe'), /on or off.*usage: \.timer on\|off/);
  assert.match(bad('.describe'), /needs a table name \(usage: \.describe TABLE\)/);
  assert.match(bad('.read'), /needs a file name/);
  assert.match(bad('.tables a b'), /too many arguments to \.tables/);
  assert.match(bad('.read "unclosed'), /no closing "/);
});

test('splitArgs and what counts as dot-command input', () => {
  assert.deepEqual(splitArgs(` a 'b c' "d"  e`).args, ['a', 'b c', 'd', 'e']);
  assert.ok(isDotCommandInput('.tables'));
  assert.ok(isDotCommandInput('   .schema x  '));
  assert.ok(!isDotCommandInput('SELECT 1;'));
  assert.ok(!isDotCommandInput('.tables\nSELECT 1;'));
});

test('destructive statements: UPDATE/DELETE without WHERE, DROP, ALTER ... DROP COLUMN', () => {
  const cases: [string, RegExp | null][] = [
    ['DELETE FROM customers', /DELETE without WHERE deletes every row of customers/],
    ['delete from "order items";', /every row of "order items"/],
    ['DELETE FROM main.orders', /every row of main\.orders/],
    ['DELETE FROM customers WHERE id = 1', null],
    ['UPDATE products SET price = 0', /UPDATE without WHERE changes every row of products/],
    ['UPDATE OR REPLACE products SET price = 0', /every row of products/],
    ['UPDATE products SET price = 0 WHERE id IN (SELECT id FROM x)', null],
    ['UPDATE products SET price = (SELECT max(p) FROM x WHERE y)', /every row of products/],
    ['DROP TABLE customers', /DROP TABLE removes customers and all its rows/],
    ['DROP TABLE IF EXISTS t', /removes t and/],
    ['drop index idx_a', /DROP INDEX removes idx_a/],
    ['DROP VIEW v', /DROP VIEW removes v/],
    ['ALTER TABLE t DROP COLUMN c', /ALTER TABLE t DROP COLUMN removes c and its data/],
    ['ALTER TABLE t ADD COLUMN c', null],
    ['WITH x AS (SELECT 1) DELETE FROM t', /DELETE without WHERE/],
    ['WITH x AS (SELECT 1 WHERE 1) DELETE FROM t', /DELETE without WHERE/],
    ['WITH x AS (DELETE FROM t) SELECT 1', null],
    ["SELECT 'DELETE FROM t'", null],
    ['-- DELETE FROM t\nSELECT 1', null],
    ['EXPLAIN DELETE FROM t', null],
    ['CREATE TRIGGER tr AFTER INSERT ON a BEGIN DELETE FROM b; END', null],
    ['SELECT * FROM customers', null],
    ['', null],
  ];
  for (const [sql, want] of cases) {
    const got = destructiveReason(sql);
    if (want === null) assert.equal(got, null, sql);
    else assert.match(got ?? '(none)', want, sql);
  }
});

const key = (name: string, text: string | null = null): KeyEvent => ({ name, text });
function typeAll(s: EditorState, keys: KeyEvent[]): EditorState {
  for (const k of keys) s = editKey(s, k) ?? s;
  return s;
}

test('editor: typing, backspace across lines, line-wise home/end/ctrl-u/ctrl-k/ctrl-w', () => {
  let s = editorOf('SELECT 1\nFROM t');
  assert.ok(onLastLine(s) && !onFirstLine(s));
  s = typeAll(s, [key('home')]);
  assert.equal(s.cursor, 'SELECT 1\n'.length, 'home goes to the start of the line, not the input');
  s = typeAll(s, [key('backspace')]);
  assert.equal(s.text, 'SELECT 1FROM t', 'backspace at a line start joins the lines');
  s = editorOf('ab\ncd ef');
  assert.equal(typeAll(s, [key('ctrl-w')]).text, 'ab\ncd ');
  assert.equal(typeAll(s, [key('ctrl-u')]).text, 'ab\n');
  s = { text: 'ab\ncd', cursor: 2 };
  assert.equal(typeAll(s, [key('ctrl-k')]).text, 'abcd', 'ctrl-k at a line end joins the next line');
  assert.equal(typeAll(s, [key('x', 'x'), key('y', 'y')]).text, 'abxy\ncd');
  assert.equal(editKey(s, key('f5')), null, 'not an editing key');
  assert.equal(typeAll(editorOf('a😀'), [key('backspace')]).text, 'a', 'a surrogate pair goes as one');
});

test('editor: up/down move between lines keeping the column, null at the edges', () => {
  const s: EditorState = { text: 'SELECT *\nFROM t\nWHERE x', cursor: 'SELECT *\nFROM t\nWHE'.length };
  const up = moveLine(s, -1)!;
  assert.equal(up.cursor, 'SELECT *\nFRO'.length);
  const up2 = moveLine(up, -1)!;
  assert.equal(up2.cursor, 3);
  assert.equal(moveLine(up2, -1), null);
  const longFirst: EditorState = { text: 'SELECT *\nx', cursor: 7 };
  assert.equal(moveLine(longFirst, 1)!.cursor, 'SELECT *\nx'.length, 'the column is clamped to a shorter line');
  assert.equal(moveLine({ text: 'a\nb', cursor: 3 }, 1), null);
});
