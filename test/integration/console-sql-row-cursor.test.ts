import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole, type RenderOptions } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { resolveSettings } from '../../src/config/settings';

// The SQL results grid's selected row (j/k, pages, g/G) and `d` on it; `d` in the logs zone
// picker. Rendered in this process (was a pty test on `burrow sql`: the grid is the same screen
// in :sql), drawn as at a terminal so the selected row's inverse can be read.

const emu = await useEmulator();
const api = apiFor(emu);

/** :sql on the emulator's database, the shell's prompt up. */
async function openSql(options: RenderOptions): Promise<InProcessConsole> {
  const app = renderConsole(api, { cols: 90, rows: 24, styles: true, ...options });
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
  return app;
}
const ROWS = 3000;
// n, and a label no other row has: row n's label is v{n*7}
const QUERY = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x AS n, 'v' || (x * 7) AS label FROM c;\r`;

/** The screen row (0-based) of the grid line of result row n. */
function gridRow(app: InProcessConsole, n: number): number {
  const at = app.lines().findIndex((l) => new RegExp(`^.\\s+${n}\\s+\\| v${n * 7}\\s`).test(l));
  assert.ok(at >= 0, `row ${n} is on screen:\n${app.screenText()}`);
  return at;
}

async function rawRecordOf(app: InProcessConsole, n: number): Promise<void> {
  await app.press('list.raw');
  const screen = await app.waitFor(`Raw record · result row ${n.toLocaleString('en-US')} of 3,000`);
  assert.match(screen, new RegExp(`"n": ${n},`));
  assert.match(screen, new RegExp(`"label": "v${n * 7}"`));
  await app.press('record.close');
  await app.waitForGone('Raw record');
}

test('SQL grid of 3000 rows (through the cursor): j/k, pgdn and G move a selected row, drawn in reverse, and d shows that row', async () => {
  const app = await openSql({ settings: resolveSettings({}, envFor(emu), {}) });
  await app.type(QUERY);
  await app.waitFor(/3,000 rows(?! so far)/, 30_000);
  await app.press('esc');
  const first = await app.waitFor(/rows 1–\d+ of 3,000 · on row 1 /);
  // a page moves by the rows the window shows
  const page = Number(/rows 1–(\d+) of/.exec(first)![1]);
  assert.ok(app.isInverse(gridRow(app, 1), 3), 'the first row is selected');
  assert.ok(!app.isInverse(gridRow(app, 2), 3));

  // down past the first screenful: the window follows the row
  await app.press(...Array.from({ length: 30 }, () => 'nav.down'));
  await app.waitFor(/· on row 31 /);
  assert.ok(app.isInverse(gridRow(app, 31), 3), 'row 31 is drawn selected');
  assert.ok(!app.isInverse(gridRow(app, 30), 3));
  await rawRecordOf(app, 31);

  // pages past the first 1000 rows the cursor read kept
  const pages = Math.ceil(1000 / page) + 5;
  await app.press(...Array.from({ length: pages }, () => 'nav.pageDown'));
  const at = 31 + pages * page;
  assert.ok(at > 1000 && at < 3000);
  await app.waitFor(`· on row ${at.toLocaleString('en-US')} `);
  assert.ok(app.isInverse(gridRow(app, at), 3));
  await rawRecordOf(app, at);

  await app.press('nav.bottom');
  await app.waitFor(/rows \d+–3000 of 3,000 · on row 3,000 /);
  await rawRecordOf(app, 3000);
  await app.press('nav.up', 'nav.up');
  await app.waitFor(/· on row 2,998 /);
  await rawRecordOf(app, 2998);

  // the screen's other keys still work: sideways, and back to the input
  await app.press('sql.right');
  await app.waitFor(/· on row 2,998 · column 2 of 2/);
  await app.press('nav.top');
  await app.waitFor(/rows 1–\d+ of 3,000 · on row 1 /);
  await app.press('sql.edit');
  await app.type('.quit\r');
  await app.waitFor('Screens');
});

test('without colours the selected row starts with >', async () => {
  const app = await openSql({ settings: resolveSettings({ noColor: true }, envFor(emu), {}) });
  await app.type('SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3;\r');
  await app.waitFor(/\(3 rows/);
  await app.press('esc');
  await app.waitFor(/on row 1 /);
  await app.press('nav.down');
  const screen = await app.waitFor(/on row 2 /);
  assert.match(screen, /^>\s+2 \|$/m);
  assert.match(screen, /^\|\s+1 \|$/m);
  await app.press('sql.edit');
  await app.type('.quit\r');
  await app.waitFor('Screens');
});

test('logs zone picker: d shows the pull zone as the server sent it, fields the picker does not show included', async () => {
  const shop = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
  const app = renderConsole(api, { cols: 120, rows: 40 });
  await app.waitFor('Screens');
  await runCommand(app, 'logs');
  await app.waitFor('Pull zones with logging');
  await app.waitFor(new RegExp(`^${shop.Id} +shop-assets`, 'm'));
  await app.press('list.raw');
  const screen = await app.waitFor(`Raw record · pull zone ${shop.Id} shop-assets`);
  assert.doesNotMatch(screen, /as parsed/);
  assert.ok(screen.includes(`"OriginUrl": "${shop.OriginUrl}"`), screen);
  assert.match(screen, /"ForceSSL": (true|false)/);
  await app.press('record.close');
  await app.waitForGone('Raw record');
  app.unmount();
});
