import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clampViewport,
  columnWidths,
  filterRows,
  formatRow,
  moveViewport,
  nextSortColumn,
  sortRows,
  visibleRange,
  type Column,
} from '../../src/text/table-model';
import { fit } from '../../src/text/fit';

test('column widths: fixed first, flex shares the rest, always summing to the width', () => {
  assert.deepEqual(columnWidths([{ width: 10 }, {}, { flex: 2 }], 80), [10, 23, 45]);
  for (const total of [40, 80, 81, 133]) {
    const w = columnWidths([{ width: 8 }, {}, { flex: 3 }, { width: 5 }], total);
    assert.equal(w.reduce((a, b) => a + b, 0) + 3, total, `fills ${total}`);
  }
  const tight = columnWidths([{ width: 30 }, { width: 30 }, { width: 30 }], 50);
  assert.equal(tight.reduce((a, b) => a + b, 0) + 2, 50, 'too wide: the right columns give way');
  assert.equal(formatRow(['a', 'bb', '7'], [3, 3, 4], [undefined, undefined, 'right']), 'a   bb     7');
  assert.equal(fit('abcdef', 4), 'abc…');
});

test('the viewport keeps the selection visible and never scrolls past the end', () => {
  assert.deepEqual(clampViewport({ selected: 50, offset: 0 }, 100, 10), { selected: 50, offset: 41 });
  assert.deepEqual(clampViewport({ selected: 5, offset: 20 }, 100, 10), { selected: 5, offset: 5 });
  assert.deepEqual(clampViewport({ selected: 500, offset: 500 }, 100, 10), { selected: 99, offset: 90 });
  assert.deepEqual(clampViewport({ selected: 3, offset: 2 }, 0, 10), { selected: 0, offset: 0 });
  assert.deepEqual(clampViewport({ selected: 2, offset: 1 }, 5, 10), { selected: 2, offset: 0 }, 'fewer rows than lines');
});

test('moves: down/up, top/bottom, pages', () => {
  let v = { selected: 0, offset: 0 };
  v = moveViewport(v, 'up', 100, 10);
  assert.deepEqual(v, { selected: 0, offset: 0 });
  for (let i = 0; i < 12; i++) v = moveViewport(v, 'down', 100, 10);
  assert.deepEqual(v, { selected: 12, offset: 3 });
  v = moveViewport(v, 'pageDown', 100, 10);
  assert.deepEqual(v, { selected: 22, offset: 13 });
  v = moveViewport(v, 'bottom', 100, 10);
  assert.deepEqual(v, { selected: 99, offset: 90 });
  v = moveViewport(v, 'pageDown', 100, 10);
  assert.deepEqual(v, { selected: 99, offset: 90 });
  v = moveViewport(v, 'pageUp', 100, 10);
  assert.deepEqual(v, { selected: 89, offset: 80 });
  v = moveViewport(v, 'top', 100, 10);
  assert.deepEqual(v, { selected: 0, offset: 0 });
});

test('100,000 rows: the window is at most the height, filter and sort work on indices', () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `app-${(i * 7919) % 100_000}`, state: i % 3 === 0 ? 'failing' : 'active' }));
  const columns: Column<(typeof rows)[number]>[] = [
    { id: 'id', header: 'ID', width: 6, cell: (r) => r.id, sortValue: (r) => r.id },
    { id: 'name', header: 'NAME', cell: (r) => r.name },
    { id: 'state', header: 'STATE', width: 8, cell: (r) => ({ text: r.state, tone: r.state === 'failing' ? 'error' : 'ok' }) },
  ];
  for (const v of [
    { selected: 0, offset: 0 },
    { selected: 99_999, offset: 0 },
    { selected: 50_000, offset: 49_990 },
  ]) {
    const [start, end] = visibleRange(v, rows.length, 20);
    assert.ok(end - start <= 20);
    assert.ok(start <= clampViewport(v, rows.length, 20).selected && clampViewport(v, rows.length, 20).selected < end);
  }
  assert.equal(filterRows(rows, columns, ''), null, 'no filter: no index array at all');
  const failing = filterRows(rows, columns, 'FAILING')!;
  assert.equal(failing.length, 33_334);
  const notFailing = filterRows(rows, columns, '!failing')!;
  assert.equal(notFailing.length, 66_666);
  const byName = sortRows(rows, failing, columns[1]!, false);
  assert.equal(byName.length, failing.length);
  for (let i = 1; i < 200; i++) assert.ok(rows[byName[i - 1]!]!.name.localeCompare(rows[byName[i]!]!.name, undefined, { numeric: true }) <= 0);
  const byIdDesc = sortRows(rows, null, columns[0]!, true);
  assert.equal(rows[byIdDesc[0]!]!.id, 99_999);
  assert.equal(byIdDesc.length, 100_000);
});

test('sort keys cycle through sortable columns, then back to none', () => {
  const cols = [{ id: 'a' }, { id: 'b', sortable: false }, { id: 'c' }];
  assert.equal(nextSortColumn(cols, null), 'a');
  assert.equal(nextSortColumn(cols, 'a'), 'c');
  assert.equal(nextSortColumn(cols, 'c'), null);
});
