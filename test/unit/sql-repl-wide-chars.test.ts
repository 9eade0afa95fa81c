import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import stringWidth from 'string-width';
import fc from 'fast-check';
import type { StatementResult } from '../../src/api/database/index';
import { cellWidth, dropCells, fitCells, takeCells } from '../../src/text/cells';
import { resultText, screenSource, type ResultSet } from '../../src/sql-repl/output-modes';
import { browseWindow, clipLine, editorLines, transcriptWindow } from '../../src/screens/sql/transcript-view';
import type { Entry } from '../../src/state/sql/store';
import { ResultPrinter } from '../../src/commands/sql-output';
import { columnsLayout } from '../../src/sql-repl/schema-sql';

// Wide characters in results: every line of a grid must take the same number of terminal cells,
// measured with string-width (what Ink measures with), and a cut never splits a wide character.

const wide: ResultSet = {
  columns: ['id', 'name', '名前', 'note'],
  rows: [
    [1n, 'Ann', '日本語', 'plain'],
    [2n, '王', '李小龍', 'emoji 🧾 here'],
    [3n, 'José', 'e\u0301te\u0301', '👨‍👩‍👧 family'],
    [4n, 'Zoë', null, '한국어 텍스트'],
    [5n, 'Ørjan', '中', 'ｱｲｳ half-width kana'],
  ],
};
const plain = (l: readonly { text: string }[]) => l.map((s) => s.text).join('');
const widths = (lines: string[]) => lines.map((l) => stringWidth(l));
const allEqual = (lines: string[]) => {
  const w = widths(lines);
  assert.ok(
    w.every((x) => x === w[0]),
    `lines of different widths ${JSON.stringify(w)}:\n${lines.join('\n')}`,
  );
};

test('cellWidth agrees with string-width; the fast path too', () => {
  for (const s of ['abc', '日本語', '🧾', 'e\u0301', '👨‍👩‍👧', 'Şule Văn An', 'Ørjan', 'soft\u00adhyphen', '│ ─ … ↵', 'Дмитрий', '']) {
    assert.equal(cellWidth(s), stringWidth(s), JSON.stringify(s));
  }
  fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => cellWidth(s) === stringWidth(s)));
  // every character the fast path takes as one cell is one cell for string-width
  for (let c = 0x20; c < 0x2600; c++) {
    const ch = String.fromCodePoint(c);
    assert.equal(cellWidth(ch), stringWidth(ch), `U+${c.toString(16)}`);
    assert.equal(cellWidth(`a${ch}b`), stringWidth(`a${ch}b`), `U+${c.toString(16)} between letters`);
  }
});

test('fitCells cuts at display width with …, never half a wide character, and pads to the width', () => {
  assert.equal(fitCells('日本語', 6), '日本語');
  assert.equal(fitCells('日本語', 5), '日本…');
  assert.equal(fitCells('日本語', 4), '日… ', 'the second 本 would straddle the edge: left out, padded');
  assert.equal(fitCells('日本語', 8, 'right'), '  日本語');
  assert.equal(fitCells('e\u0301te\u0301', 4), 'e\u0301te\u0301 ', 'combining accents take no cell');
  assert.equal(takeCells('a日b', 2).text, 'a');
  assert.equal(dropCells('日本語', 1), ' 本語', 'a wide character cut in half by a sideways shift becomes a space');
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 30 }), (s, w) => {
      const out = fitCells(s.replace(/[\x00-\x1f\x7f]/g, ' '), w);
      return stringWidth(out) === w;
    }),
  );
});

test('.output / file text: table, box and markdown rows all take the same cells', () => {
  for (const mode of ['table', 'box', 'markdown'] as const) {
    const lines = [...resultText(wide, mode)];
    allEqual(lines);
    assert.ok(
      lines.some((l) => l.includes('李小龍')),
      'nothing cut in files',
    );
  }
  // line mode: the names are right-aligned by cells
  const line = [...resultText({ columns: ['名前', 'id'], rows: [['王', 1n]] }, 'line')];
  assert.deepEqual(line, ['名前 = 王', '  id = 1']);
});

test('on screen (the REPL transcript and the results view): grid lines align and cuts keep wide characters whole', () => {
  for (const mode of ['table', 'box', 'markdown'] as const) {
    for (const max of [40, 4, 3]) {
      const src = screenSource(wide, mode, { maxColumnWidth: max });
      const lines = Array.from({ length: src.count }, (_, i) => plain(src.line(i, 0)));
      allEqual(lines);
      for (let h = 1; h < src.hPositions; h++) allEqual(Array.from({ length: src.count }, (_, i) => plain(src.line(i, h))));
    }
  }
  // a 3-cell column cannot hold 日本: 日 and … fill it exactly
  const narrow = screenSource(wide, 'table', { maxColumnWidth: 3 });
  assert.match(plain(narrow.line(3, 0)), /\| 日… \|/);
});

const statement = (r: ResultSet): StatementResult => ({
  columns: r.columns,
  decltypes: r.columns.map(() => null),
  rows: r.rows,
  rowsAffected: 0,
  lastInsertRowid: null,
  durationMs: 1,
});
const entry = (mode: 'table' | 'box', result: ResultSet): Entry => ({
  id: 1,
  kind: 'result',
  mode,
  summary: `${result.rows.length} rows`,
  result: statement(result),
});

test('the transcript and the browsed result: every line fits the screen, grid lines equally wide', () => {
  const many: ResultSet = {
    columns: wide.columns,
    rows: Array.from({ length: 40 }, (_, i) => wide.rows[i % wide.rows.length]!.map((v, k) => (k === 0 ? BigInt(i) : v))),
  };
  for (const width of [30, 31, 33, 80]) {
    const t = transcriptWindow([entry('box', many)], width, 20, 0, 15);
    const grid = t.lines.map(plain).filter((l) => /^[│├┌└]/.test(l));
    assert.ok(grid.length > 5);
    allEqual(grid);
    for (const l of t.lines) assert.ok(stringWidth(plain(l)) <= width, `wider than ${width}: ${plain(l)}`);
    for (let h = 0; h < 4; h++) {
      const v = browseWindow(entry('table', many), width, 20, 7, h);
      const rows = v.lines.map(plain);
      allEqual(rows);
      for (const l of rows) assert.ok(stringWidth(l) <= width);
      assert.match(v.footer, new RegExp(`column ${h + 1} of 4`));
    }
  }
});

test('clipLine: a wide character at the edge is left out whole, the last cell is …', () => {
  const line = [
    { text: 'ab日本', kind: 'text' as const },
    { text: '|', kind: 'border' as const },
  ];
  assert.equal(plain(clipLine(line, 7)), 'ab日本|');
  assert.equal(plain(clipLine(line, 6)), 'ab日 …', '本 would take cells 5-6 with … in 6: a space instead');
  assert.equal(plain(clipLine(line, 5)), 'ab日…');
  const kept = clipLine(line, 4);
  assert.equal(plain(kept), 'ab …');
  assert.equal(kept[0]!.kind, 'text');
});

test('burrow sql -o table: columns align by display width', async () => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const printer = new ResultPrinter(out, 'table', false);
  await printer.result(statement(wide));
  await printer.end();
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, 6);
  // the cell at which each column's value starts, found left to right
  const starts = (line: string, values: string[]) => {
    let from = 0;
    return values.map((v) => {
      const at = line.indexOf(v, from);
      assert.ok(at >= 0, `${v} in ${line}`);
      from = at + v.length;
      return stringWidth(line.slice(0, at));
    });
  };
  const expected = starts(lines[0]!, wide.columns);
  wide.rows.forEach((row, r) => {
    assert.deepEqual(
      starts(
        lines[r + 1]!,
        row.map((v) => (v === null ? 'NULL' : String(v))),
      ),
      expected,
      `row ${r + 1}:\n${lines.join('\n')}`,
    );
  });
});

test('.tables with wide names: columns start at the same cell on every line', () => {
  const lines = columnsLayout(['顧客', 'orders', '注文明細', 'x'], 20);
  assert.deepEqual(lines, ['顧客      注文明細', 'orders    x']);
  assert.equal(stringWidth(lines[0]!.slice(0, lines[0]!.indexOf('注'))), 10, 'after the widest name (8 cells) and 2 spaces');
  assert.equal(lines[1]!.indexOf('x'), 10);
});

test('the input line: wide characters fit by cells and the cursor stays in view', () => {
  const text = "SELECT '日本語のテキスト' AS 名前, 1;";
  const width = 30;
  for (let cursor = 0; cursor <= text.length; cursor++) {
    const [line] = editorLines({ text, cursor }, 'db>', width, 4, true);
    const shown = plain(line!);
    assert.ok(stringWidth(shown) <= width, `cursor ${cursor}: ${shown} is wider than ${width}`);
    const under = line!.find((s) => s.kind === 'cursor')!.text;
    assert.equal(under, text[cursor] ?? ' ', `cursor ${cursor}`);
    // all that fits is shown: no more than 2 cells left free (a wide character that would not fit)
    if (stringWidth(text) > width - 5) assert.ok(stringWidth(shown) >= width - 3, `cursor ${cursor}: only ${stringWidth(shown)} cells: ${shown}`);
  }
  const [other] = editorLines({ text: `${text}\nx`, cursor: text.length + 2 }, 'db>', width, 4, true);
  assert.ok(stringWidth(plain(other!)) <= width);
});

test('a grid line made only up to the screen width cuts to the same text as the whole line', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 120 }),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom('table' as const, 'box' as const, 'markdown' as const),
      (width, h, mode) => {
        const src = screenSource(wide, mode, { maxColumnWidth: 12 });
        for (let i = 0; i < src.count; i++) {
          assert.equal(plain(clipLine(src.line(i, h, width), width)), plain(clipLine(src.line(i, h), width)), `line ${i} at ${width} cells, column ${h + 1}`);
        }
      },
    ),
  );
});
