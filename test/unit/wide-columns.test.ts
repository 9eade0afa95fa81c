import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clampOffset,
  maxOffset,
  moveSideways,
  naturalWidths,
  shownColumns,
  sidewaysIndicator,
  sliceCells,
  wideLayout,
  windowPieces,
} from '../../src/text/wide-columns';

// columns 10, 4, 30, 6 cells with a gap of 1: starts 0, 11, 16, 47; the line is 53 cells
const layout = wideLayout([10, 4, 30, 6], 1);

test('the layout: where each column starts and how long the full line is', () => {
  assert.deepEqual(layout.starts, [0, 11, 16, 47]);
  assert.equal(layout.total, 53);
  assert.equal(maxOffset(layout, 20), 33);
  assert.equal(maxOffset(layout, 80), 0, 'a line narrower than the window does not scroll');
  assert.equal(clampOffset(-5, layout, 20), 0);
  assert.equal(clampOffset(99, layout, 20), 33);
});

test('natural widths: the widest shown text or header, CJK as two cells, never narrower than before', () => {
  const widths = naturalWidths(
    ['NAME', 'ID'],
    [
      ['origin-group-frankfurt-fallback', '7'],
      ['東京', '12345'],
    ],
  );
  assert.deepEqual(widths, [31, 5]);
  assert.deepEqual(naturalWidths(['NAME', 'ID'], [['a', '1']], widths), [31, 5], 'kept from the last frame');
  assert.deepEqual(naturalWidths(['NAME', 'ID'], [['東京東京東京', '1']]), [12, 2]);
});

test('left/right go column by column; a column wider than the window is crossed a window at a time', () => {
  const view = 20;
  assert.equal(moveSideways(0, 'right', layout, view), 11);
  assert.equal(moveSideways(11, 'right', layout, view), 16);
  // column 3 is 30 cells, the window 20: the next start (47) is too far, so one window on
  assert.equal(moveSideways(16, 'right', layout, view), 33, 'clamped to the last window');
  assert.equal(moveSideways(33, 'right', layout, view), 33, 'the end stays put');
  assert.equal(moveSideways(33, 'left', layout, view), 16);
  assert.equal(moveSideways(16, 'left', layout, view), 11);
  assert.equal(moveSideways(11, 'left', layout, view), 0);
  assert.equal(moveSideways(0, 'left', layout, view), 0);
  assert.equal(moveSideways(5, 'pageRight', layout, view), 25);
  assert.equal(moveSideways(25, 'pageLeft', layout, view), 5);
  assert.equal(moveSideways(12, 'first', layout, view), 0);
  assert.equal(moveSideways(0, 'last', layout, view), 33);
  const wideCol = wideLayout([5, 100, 5], 1);
  assert.equal(moveSideways(6, 'right', wideCol, 40), 46, 'inside a 100-cell column: a window');
  assert.equal(moveSideways(46, 'left', wideCol, 40), 6, 'back to its start');
});

test('the indicator: which columns are in the window, arrows on the sides with more', () => {
  assert.deepEqual(shownColumns(layout, 0, 20), { first: 0, last: 2 });
  assert.equal(sidewaysIndicator(layout, 0, 20), 'cols 1-3 of 4 ›');
  assert.equal(sidewaysIndicator(layout, 11, 20), '‹ cols 2-3 of 4 ›');
  assert.equal(sidewaysIndicator(layout, 33, 20), '‹ cols 3-4 of 4');
  assert.equal(sidewaysIndicator(wideLayout([5, 100, 5], 1), 20, 40), '‹ col 2 of 3 ›');
  assert.equal(sidewaysIndicator(layout, 0, 80), 'cols 1-4 of 4', 'everything fits: no arrows');
});

test('a row in the window: the visible piece of each cell, padded and aligned, nothing past the edges', () => {
  const texts = ['alpha', '42', 'a long text that is thirty ch.', 'x'];
  const aligns = [undefined, 'right' as const, undefined, undefined];
  const at0 = windowPieces(texts, layout, aligns, 0, 20, 1);
  assert.deepEqual(
    at0.map((p) => p.column),
    [0, 1, 2],
  );
  assert.equal(at0.map((p) => p.text).join(''), 'alpha        42 a lo');
  assert.equal(at0.map((p) => p.text).join('').length, 20);
  const at33 = windowPieces(texts, layout, aligns, 33, 20, 1);
  assert.deepEqual(
    at33.map((p) => p.column),
    [2, 3],
  );
  assert.equal(at33.map((p) => p.text).join(''), 'is thirty ch. x     ');
  assert.equal(sliceCells('東京abc', 1, 4), ' 京a', 'a wide character cut in half becomes a space');
  assert.equal(sliceCells('abc', 0, 6), 'abc   ');
});
