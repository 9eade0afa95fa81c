import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { isComplete } from '../../src/api/database/complete';
import { splitStatements } from '../../src/api/database/split';

// sqlite3_complete() ported to TypeScript, checked against SQLite's own verdicts.

interface Fixture {
  sqlite_version: string;
  cases: { sql: string; complete: boolean }[];
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/sql-complete.json', import.meta.url), 'utf8')) as Fixture;

test(`isComplete agrees with sqlite3 ${fixture.sqlite_version} on every fixture input`, () => {
  assert.ok(fixture.cases.length > 4000);
  const complete = fixture.cases.filter((c) => c.complete).length;
  assert.ok(complete > 1000 && fixture.cases.length - complete > 1000, 'both verdicts are well represented');
  const wrong = fixture.cases.filter((c) => isComplete(c.sql) !== c.complete);
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} disagreements with sqlite3 (first ones shown)`);
});

// Pieces that stress the tokenizer: quotes, brackets, comments, trigger keywords, non-ASCII.
const piece = fc.constantFrom(
  ';',
  ';',
  ' ',
  '\n',
  '\t',
  "'",
  '"',
  '`',
  '[',
  ']',
  '--',
  '-',
  '/*',
  '*/',
  '/',
  'SELECT 1',
  'x',
  'CREATE',
  'TEMP',
  'TRIGGER',
  'END',
  'EXPLAIN',
  'BEGIN',
  'CASE',
  "'a;b'",
  '"c;d"',
  '[e;f]',
  '-- c;\n',
  '/* ; */',
  'é',
  '🐇',
  'end',
  'temporary',
  '$x',
  '_',
  'CREATE TRIGGER t BEGIN SELECT 1',
  'create temp trigger t begin ',
  ';END;',
  '; end ;',
  ';\nEND',
);
const sqlText = fc.array(piece, { maxLength: 18 }).map((a) => a.join(''));

test('property: sqlite3 itself agrees on random inputs (python3 sqlite3.complete_statement)', (t) => {
  const inputs = fc.sample(sqlText, { numRuns: 3000, seed: 424242 });
  const py = spawnSync('python3', ['-c', 'import json,sys,sqlite3; print(json.dumps([bool(sqlite3.complete_statement(s)) for s in json.load(sys.stdin)]))'], {
    input: JSON.stringify(inputs),
    encoding: 'utf8',
  });
  if (py.error || py.status !== 0) {
    t.skip('python3 with sqlite3 is not available here; the committed fixture still covers this');
    return;
  }
  const verdicts = JSON.parse(py.stdout) as boolean[];
  const wrong = inputs.filter((s, i) => isComplete(s) !== verdicts[i]);
  assert.deepEqual(wrong.slice(0, 10), []);
});

test('property: statements are exact slices of the input, in order, and each complete one is complete on its own', () => {
  fc.assert(
    fc.property(sqlText, (sql) => {
      const parts = splitStatements(sql);
      let last = 0;
      for (const p of parts) {
        assert.equal(sql.slice(p.start, p.end), p.text);
        assert.ok(p.start >= last);
        last = p.end;
        if (p.complete) assert.ok(isComplete(p.text), JSON.stringify(p.text));
        assert.notEqual(p.text.trim(), '');
      }
      // the whole text is complete exactly when nothing incomplete trails the last `;`
      if (isComplete(sql)) assert.ok(parts.every((p) => p.complete));
      if (parts.length && !parts[parts.length - 1]!.complete) assert.equal(isComplete(sql), false);
    }),
    { numRuns: 3000, seed: 7 },
  );
});

test('property: joining well-formed statements and splitting them gives them back', () => {
  const ident = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
  const literal = fc.oneof(
    fc.string({ maxLength: 12 }).map((s) => `'${s.replace(/\0/g, '').replace(/'/g, "''")}'`),
    fc.integer().map(String),
    ident.map((i) => `"${i};"`),
    ident.map((i) => `[${i};]`),
  );
  const stmt = fc.oneof(
    fc.tuple(literal, ident).map(([l, i]) => `SELECT ${l} AS ${i}`),
    fc.tuple(ident, literal).map(([i, l]) => `INSERT INTO ${i} VALUES (${l}) -- ; not the end\n`),
    fc.tuple(ident, literal).map(([i, l]) => `CREATE TRIGGER ${i} AFTER INSERT ON t BEGIN SELECT CASE WHEN 1 THEN ${l} END; UPDATE t SET x = ${l}; END`),
    fc.tuple(ident, literal).map(([i, l]) => `CREATE TEMP TRIGGER ${i} BEGIN /* ; */ SELECT ${l}; END`),
  );
  fc.assert(
    fc.property(fc.array(stmt, { minLength: 1, maxLength: 6 }), fc.constantFrom(';\n', '; ', ';\n\n-- note\n', ';/* c */'), (stmts, sep) => {
      const sql = stmts.join(sep) + ';';
      const parts = splitStatements(sql);
      assert.deepEqual(
        parts.map((p) => p.text),
        stmts.map((s) => `${s};`),
      );
      assert.ok(isComplete(sql));
    }),
    { numRuns: 500, seed: 11 },
  );
});

test('splitter: positions, lines and the trailing incomplete statement', () => {
  const sql = "-- header\nSELECT 1; SELECT 'a;b'\n  ;\n\nCREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  SELECT 1;\nEND;\n/* tail */ SELECT 'open";
  const parts = splitStatements(sql);
  assert.deepEqual(
    parts.map((p) => [p.text, p.line, p.column, p.complete]),
    [
      ['SELECT 1;', 2, 1, true],
      ["SELECT 'a;b'\n  ;", 2, 11, true],
      ['CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  SELECT 1;\nEND;', 5, 1, true],
      ["SELECT 'open", 8, 12, false],
    ],
  );
  assert.deepEqual(splitStatements(';; ;\n-- only comments\n/* and */'), []);
  assert.deepEqual(splitStatements('SELECT 1; /* unterminated'), [{ text: 'SELECT 1;', start: 0, end: 9, line: 1, column: 1, complete: true }]);
  assert.equal(isComplete('SELECT 1; /* unterminated'), false);
});
