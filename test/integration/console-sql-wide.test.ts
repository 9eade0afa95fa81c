import { test } from 'node:test';
import assert from 'node:assert/strict';
import stringWidth from 'string-width';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { resolveSettings } from '../../src/config/settings';

// The SQL shell, rendered in this process (was a pty test on `burrow sql`: the same screen as
// :sql): results with CJK text (the seeded customers include 王 and 李) keep their grid aligned
// in the transcript and browsed, and no line is wider than the terminal.

const emu = await useEmulator();

/** The cells at which the grid's | borders stand on each grid line (CJK counts as two). */
function borderCells(screen: string): number[][] {
  return screen
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .map((l) => {
      const at: number[] = [];
      let cell = 0;
      for (const ch of l) {
        if (ch === '|') at.push(cell);
        cell += stringWidth(ch);
      }
      return at;
    });
}

test('CJK names: the grid stays aligned in the transcript and in the results view', async () => {
  const app = renderConsole(apiFor(emu), { cols: 90, rows: 24, styles: true, settings: resolveSettings({}, envFor(emu), {}) });
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
  await app.type("SELECT id, name, country, name || ' ' || name AS twice FROM customers WHERE name LIKE '%王%' OR name LIKE '%李%' ORDER BY id LIMIT 6;\r");
  const shown = await app.waitFor(/\(6 rows/);
  assert.match(shown, /[王李]/, 'the names are on screen');
  const transcript = borderCells(shown);
  assert.ok(transcript.length >= 7, shown);
  for (const cells of transcript) assert.deepEqual(cells, transcript[0], `misaligned grid:\n${shown}`);
  assert.deepEqual(app.wideRows(), [], 'no line is wider than the terminal');

  await app.press('esc');
  const browsed = await app.waitFor(/rows 1–6 of 6/);
  const grid = borderCells(browsed);
  assert.ok(grid.length >= 7, browsed);
  for (const cells of grid) assert.deepEqual(cells, grid[0], `misaligned grid:\n${browsed}`);
  await app.press('sql.right');
  const side = await app.waitFor(/column 2 of 4/);
  const shifted = borderCells(side);
  assert.match(side, /^\| name\s+\| country/m);
  for (const cells of shifted) assert.deepEqual(cells, shifted[0], `misaligned grid:\n${side}`);
  assert.deepEqual(app.wideRows(), []);
  await app.press('sql.edit');
  await app.type('.quit\r');
  await app.waitFor('Screens');
});
