import { test } from 'node:test';
import assert from 'node:assert/strict';
import { marksLines } from '../../src/screens/logs/marks-view';
import type { MarkRow } from '../../src/state/logs/store';
import { setDisplayZone } from '../../src/text/time-format';

setDisplayZone('utc');

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);
const rows: MarkRow[] = Array.from({ length: 10 }, (_, i) => ({
  key: `k${i}`,
  zone: 1058,
  time: BASE + i * 1000,
  status: 200,
  path: `/p/${i}`,
  state: i === 0 ? 'evicted' : 'held',
}));
const text = (lines: { text: string }[][]) => lines.map((l) => l.map((p) => p.text).join(''));

test("the marks list with the keys: the cursor's mark is drawn with › and kept in view, tall and compact", () => {
  // tall, room for 5 lines: title, 3 marks, "… 7 more"
  assert.deepEqual(text(marksLines(rows, 5, true)), [
    "Marks 10 M/U next/prev · ' list · C clears",
    '  ◆ 14:00:00 200 /p/0 (evicted: the full buffer let it go)',
    '  ◆ 14:00:01 200 /p/1',
    '  ◆ 14:00:02 200 /p/2',
    '  … 7 more',
  ]);
  assert.deepEqual(text(marksLines(rows, 5, true, 8)), [
    'Marks 10 ↑↓ choose · enter selects · esc table',
    '  ◆ 14:00:06 200 /p/6',
    '  ◆ 14:00:07 200 /p/7',
    '› ◆ 14:00:08 200 /p/8',
    '  … 6 older, 1 newer',
  ]);
  assert.equal(text(marksLines(rows, 5, true, 9))[4], '  … 7 older');
  assert.equal(text(marksLines(rows, 11, true, 0))[1], '› ◆ 14:00:00 200 /p/0 (evicted: the full buffer let it go)');
  // compact (one line): the line starts at the cursor's mark
  assert.match(text(marksLines(rows, 1, false, 4))[0]!, /^Marks 10 … › ◆ 14:00:04 200 \/p\/4 · ◆ 14:00:05/);
  assert.match(text(marksLines(rows, 1, false))[0]!, /^Marks 10 ◆ 14:00:00 200 \/p\/0 \(evicted/);
});
