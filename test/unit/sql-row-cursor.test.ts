import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveRow, revealRow, selectedLines, type RowLayout } from '../../src/screens/sql/row-cursor';

// The SQL results grid's selected row: where keys take it and the window it keeps in view.

const grid: RowLayout = { rows: 100, perRow: 1, rowLines: 1 };
// the frame's bottom border is one more body line: 101 body lines, 10 shown
const win = { room: 10, maxTop: 91 };

test('j/k move the row; the window moves only when the row would leave it', () => {
  assert.deepEqual(moveRow({ row: 0, top: 0 }, { by: 1 }, grid, win), { row: 1, top: 0 });
  assert.deepEqual(moveRow({ row: 9, top: 0 }, { by: 1 }, grid, win), { row: 10, top: 1 });
  assert.deepEqual(moveRow({ row: 5, top: 5 }, { by: -1 }, grid, win), { row: 4, top: 4 });
  assert.deepEqual(moveRow({ row: 0, top: 0 }, { by: -1 }, grid, win), { row: 0, top: 0 });
});

test('pages move row and window together; g/G go to the ends (G shows the frame bottom too)', () => {
  assert.deepEqual(moveRow({ row: 3, top: 0 }, { pages: 1 }, grid, win), { row: 13, top: 10 });
  assert.deepEqual(moveRow({ row: 13, top: 10 }, { pages: -1 }, grid, win), { row: 3, top: 0 });
  assert.deepEqual(moveRow({ row: 95, top: 91 }, { pages: 1 }, grid, win), { row: 99, top: 91 });
  assert.deepEqual(moveRow({ row: 50, top: 45 }, { to: 'last' }, grid, win), { row: 99, top: 91 });
  assert.deepEqual(moveRow({ row: 50, top: 45 }, { to: 'first' }, grid, win), { row: 0, top: 0 });
});

test('line mode: a row is one line per column; the window shows all of the row', () => {
  const lines: RowLayout = { rows: 20, perRow: 4, rowLines: 3 };
  const w = { room: 10, maxTop: 20 * 4 - 1 - 10 };
  // row 2 is lines 8-10: the window moves so that line 10 is its last
  assert.equal(revealRow(2, 0, lines, w), 1);
  assert.deepEqual(moveRow({ row: 1, top: 0 }, { by: 1 }, lines, w), { row: 2, top: 1 });
  assert.deepEqual([...selectedLines(2, 1, 3, lines, 10)], [10, 11, 12]);
});

test('a row count that shrinks or grows keeps the row inside the result', () => {
  assert.deepEqual(moveRow({ row: 500, top: 495 }, { by: 0 }, grid, win), { row: 99, top: 91 });
  assert.deepEqual(moveRow({ row: 0, top: 0 }, { by: 1 }, { ...grid, rows: 0 }, win), { row: 0, top: 0 });
});
