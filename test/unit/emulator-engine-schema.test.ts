import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitStatements } from '../../src/emulator/database/sql-text';
import { cachedVerdict, createsTemp, rememberVerdict, schemaState, setsConnectionState } from '../../src/emulator/database/engine-schema';
import { checkProgram } from '../../src/emulator/database/engine-policy';
import { StmtError } from '../../src/emulator/database/stmt-error';

const tokens = (sql: string) => splitStatements(sql)[0]!.tokens;
const verb = (sql: string) => sql.trim().split(/\s+/)[0]!.toUpperCase();

test('pragmas that set something on the connection keep it from the pool; pragmas that only read do not', () => {
  for (const sql of ['PRAGMA foreign_keys = OFF', 'pragma main.cache_size(100)', 'PRAGMA recursive_triggers=1', 'PRAGMA "foreign_keys" = 0']) {
    assert.equal(setsConnectionState(tokens(sql), verb(sql)), true, sql);
  }
  for (const sql of ['PRAGMA foreign_keys', 'PRAGMA table_info(customers)', 'PRAGMA main.index_list("orders")', 'PRAGMA integrity_check(10)', 'SELECT 1']) {
    assert.equal(setsConnectionState(tokens(sql), verb(sql)), false, sql);
  }
});

test('a CREATE of a temp object, however it is spelled, gives the connection a schema of its own', () => {
  for (const sql of [
    'CREATE TEMP TABLE t (x)',
    'create temporary view v as select 1',
    'CREATE TABLE temp.t (x)',
    'CREATE TRIGGER "temp".tr AFTER INSERT ON t BEGIN SELECT 1; END',
  ]) {
    assert.equal(createsTemp(tokens(sql), verb(sql)), true, sql);
  }
  for (const sql of ['CREATE TABLE t (x)', 'SELECT * FROM temp.sqlite_schema', 'DROP TABLE t']) assert.equal(createsTemp(tokens(sql), verb(sql)), false, sql);
});

test('the schema fingerprint follows the content, not the version number', () => {
  const rows = [
    ['table', 't', 't', 'CREATE TABLE t (a)'],
    ['index', 'i', 't', 'CREATE INDEX i ON t (a)'],
  ];
  const a = schemaState('5', rows);
  assert.equal(schemaState('9', rows).fingerprint, a.fingerprint, 'same content under another version');
  assert.notEqual(schemaState('5', [['table', 't', 't', 'CREATE TABLE t (a, b)'], rows[1]!]).fingerprint, a.fingerprint, 'a column more');
  assert.notEqual(schemaState('5', [rows[0]!]).fingerprint, a.fingerprint, 'an index less');
  assert.equal(a.blobLiterals, false);
  assert.equal(schemaState('5', [['view', 'v', 'v', "CREATE VIEW v AS SELECT x'00'"]]).blobLiterals, true);
});

test('verdicts are kept per schema content and text, refusals included', () => {
  rememberVerdict('fp-a', 'SELECT 1', { writes: false, scans: false, countRoots: [] });
  const refused = new StmtError('not authorized', 'SQLITE_AUTH');
  rememberVerdict('fp-a', 'SELECT x()', refused);
  assert.deepEqual(cachedVerdict('fp-a', 'SELECT 1'), { writes: false, scans: false, countRoots: [] });
  assert.equal(cachedVerdict('fp-a', 'SELECT x()'), refused);
  assert.equal(cachedVerdict('fp-b', 'SELECT 1'), undefined, 'another schema: checked again');
});

test('the program check allows ALTER TABLE helpers only as SQLite compiles them, and reads scans and counts', () => {
  // rows as EXPLAIN lists them: addr, opcode, p1, p2, p3, p4, p5, comment
  const alter = [[0, 'Function', 0, 1, 2, 'sqlite_rename_column(9)', 0, null]];
  assert.equal(checkProgram(alter).writes, false);
  assert.throws(() => checkProgram([[0, 'Function', 0, 1, 2, 'readfile(1)', 0, null]]), /readfile/);
  const facts = checkProgram([
    [1, 'OpenRead', 0, 2, 0, '3', 0, null],
    [2, 'Rewind', 0, 9, 0, null, 0, null],
    [8, 'Next', 0, 3, 0, null, 1, null],
    [10, 'OpenRead', 1, 7, 0, 'k(2,,)', 0, null],
    [11, 'Count', 1, 4, 0, null, 0, null],
  ]);
  assert.deepEqual(facts, { writes: false, scans: true, countRoots: [7] });
  assert.equal(checkProgram([[8, 'Next', 0, 3, 0, null, 0, null]]).scans, false, 'an index loop is not a full scan');
});
