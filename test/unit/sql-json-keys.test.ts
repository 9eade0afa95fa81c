import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distinctKeys } from '../../src/api/database/values';
import { resultText, screenSource } from '../../src/sql-repl/output-modes';

// JSON rows are objects: a repeated column name (SELECT a.id, b.id) must not lose a value.

test('distinctKeys: repeats get _2, _3..., skipping names another column already has', () => {
  assert.deepEqual(distinctKeys(['id', 'name']), ['id', 'name']);
  assert.deepEqual(distinctKeys(['id', 'id', 'id']), ['id', 'id_2', 'id_3']);
  assert.deepEqual(distinctKeys(['id', 'id', 'id_2']), ['id', 'id_3', 'id_2']);
  assert.deepEqual(distinctKeys(['x', 'x_2', 'x', 'x']), ['x', 'x_2', 'x_3', 'x_4']);
});

test("the shell's .mode json (file and screen) keeps every column of a result with repeated names", () => {
  const result = { columns: ['id', 'id', 'name'], rows: [[1n, 2n, 'a']] };
  const fileText = [...resultText(result, 'json')].join('\n');
  assert.deepEqual(JSON.parse(fileText), [{ id: 1, id_2: 2, name: 'a' }]);
  const screen = screenSource(result, 'json');
  const line = screen
    .line(0, 0)
    .map((s) => s.text)
    .join('');
  assert.deepEqual(JSON.parse(line), [{ id: 1, id_2: 2, name: 'a' }]);
});
