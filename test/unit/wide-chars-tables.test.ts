import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellWidth } from '../../src/text/cells';
import { fit, fitLeft } from '../../src/text/fit';
import { renderTable } from '../../src/commands/output';

// Tables outside the SQL grid (the console's Table, help, palette, breadcrumbs, `burrow get -o
// table`) count terminal cells too: a CJK name takes two cells per character, as Ink draws it.

const samples = ['', 'edge', '東京', '東京都千代田区', 'São Paulo', '🐇 burrow', 'a\tb\nc', 'Ｆｕｌｌ', 'x東y京z'];

test('fit: always exactly the width in cells, cut with an ellipsis, padded left or right', () => {
  for (const s of samples) {
    for (let width = 1; width <= 12; width++) {
      for (const align of ['left', 'right'] as const) {
        const out = fit(s, width, align);
        assert.equal(cellWidth(out), width, `${JSON.stringify(s)} in ${width} (${align}): ${JSON.stringify(out)}`);
        assert.ok(!/[\t\n]/.test(out));
        const flat = s.replace(/[\t\n]/g, ' ');
        if (cellWidth(flat) > width) assert.ok(out.trimEnd().endsWith('…'), `cut with an ellipsis: ${JSON.stringify(out)}`);
        else assert.equal(out.trim(), flat.trim());
      }
    }
  }
  assert.equal(fit('東京都千代田区', 6), '東京… ');
  assert.equal(fit('東京', 6, 'right'), '  東京');
});

test('fitLeft: the tail that fits in the width, after an ellipsis', () => {
  const crumbs = 'home › 東京 › 設定';
  assert.equal(fitLeft(crumbs, 40), crumbs);
  for (let width = 2; width < cellWidth(crumbs); width++) {
    const out = fitLeft(crumbs, width);
    assert.ok(out.startsWith('…'), out);
    assert.ok(cellWidth(out) <= width && cellWidth(out) >= width - 1, `${width}: ${JSON.stringify(out)}`);
    assert.ok(crumbs.endsWith(out.slice(1).trimStart()), out);
  }
  assert.equal(fitLeft(crumbs, 5), '…設定');
  assert.equal(fitLeft(crumbs, 6), '… 設定');
});

test('burrow get -o table: columns start at the same cell on every line with wide names', () => {
  const rows = [
    { name: '東京の動画', id: 1, region: 'JP' },
    { name: 'paris', id: 22, region: 'FR' },
    { name: '🐇', id: 333, region: 'DE' },
  ];
  const out = renderTable(rows, [
    { header: 'NAME', value: (r) => r.name },
    { header: 'ID', value: (r) => r.id },
    { header: 'REGION', value: (r) => r.region },
  ]);
  const lines = out.trimEnd().split('\n');
  const startOf = (line: string, text: string) => cellWidth(line.slice(0, line.lastIndexOf(text)));
  const idAt = lines.map((l, i) => startOf(l, i === 0 ? 'ID' : String(rows[i - 1]!.id)));
  const regionAt = lines.map((l, i) => startOf(l, i === 0 ? 'REGION' : rows[i - 1]!.region));
  assert.deepEqual(new Set(idAt).size, 1, out);
  assert.deepEqual(new Set(regionAt).size, 1, out);
  assert.equal(idAt[0], cellWidth('東京の動画') + 2);
});

test('burrow get -o table: 300,000 rows do not overflow the stack', () => {
  const rows = Array.from({ length: 300_000 }, (_, i) => i);
  const out = renderTable(rows, [
    { header: 'N', value: (r) => r },
    { header: 'SQUARE', value: (r) => r * r },
  ]);
  assert.equal(out.split('\n').length, 300_002);
  assert.ok(out.startsWith('N       SQUARE\n'), out.slice(0, 40));
});
