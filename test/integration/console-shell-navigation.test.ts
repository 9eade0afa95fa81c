import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { CORE_ACTIONS } from '../../src/keys/keymap';
import { keysText } from '../../src/components/HelpOverlay';
import { limitRows } from '../../src/renderers/container-limits';
import { SCREENS } from '../../src/app/screens';
import { resolveSettings } from '../../src/config/settings';

// The shell's navigation rendered in this process (was a pty test): the palette, help, the
// breadcrumbs, the home table. What the terminal sees of the binary (its header on a configured
// platform, the terminal restored at the exit) stays in test/e2e/shell-navigation.

const emu = await useEmulator();
const api = apiFor(emu);

test('palette to containers shows the emulator limits; help, placeholder, unknown command', async () => {
  const app = renderConsole(api, { cols: 80, rows: 24 });
  await app.waitFor('Screens');

  // : palette, type a prefix, tab completes it, enter runs it
  await app.press('app.palette');
  await app.waitFor(/^:\s*$/m);
  await app.type('cont');
  await app.waitFor(/containers\s+mc apps/);
  await app.press('palette.complete');
  await app.waitFor(/^:containers/m);
  await app.press('palette.run');
  const screen = await app.waitFor(/applications\s+\S+ \d+ \/ \d+/);
  assert.match(screen.split('\n')[0]!, /home › containers$/);

  const limits = await api.containers.getLimits();
  for (const row of limitRows(limits)) {
    const expected = row.used !== null && row.max !== null ? `${row.used} / ${row.max}` : row.max === null ? 'unlimited' : `max ${row.max}`;
    const line = screen.split('\n').find((l) => l.startsWith(row.label));
    assert.ok(line, `a line for ${row.label}`);
    assert.ok(line.includes(expected), `${row.label} shows "${expected}": ${line}`);
  }
  await app.waitFor(/refreshed \d+s ago/);

  // ? help is generated from the keymap
  await app.press('app.help');
  const help = await app.waitFor('Everywhere');
  for (const a of CORE_ACTIONS.filter((x) => x.context === 'global' || x.context === 'always')) {
    assert.ok(help.includes(a.description), `help lists "${a.description}"`);
    assert.ok(help.includes(keysText(a.keys)), `help shows the keys of ${a.id}`);
  }
  assert.match(help, /r\s+refresh now/, 'help lists the screen keys of containers');
  await app.press('help.close');
  await app.waitForGone('Everywhere');

  // :shield replaces the view (as k9s does): the breadcrumb does not grow
  await runCommand(app, 'shield');
  const shield = await app.waitFor('Shield zones  enter: API Guardian');
  assert.match(shield.split('\n')[0]!, /home › shield$/);
  await runCommand(app, 'videos');
  await app.waitFor(/home › videos$/m);
  // esc goes back one step: to the view : replaced
  await app.press('app.back');
  await app.waitFor(/home › shield$/m);

  // an unknown command gets a clear message
  await runCommand(app, 'nope');
  await app.waitFor(/unknown command ":nope" \(commands: :home :shield :containers/);
  await app.waitForGone(/^:nope/m);
  // the next : starts from an empty line, not after the old text
  await app.press('app.palette');
  await app.type('hel');
  await app.waitFor(/^:hel\b/m);
  assert.doesNotMatch(app.screenText(), /:nope:/);
  await app.press('palette.close');
  await app.waitForGone(/^:hel/m);

  // one step only: esc on shield pops to home
  await app.press('app.back');
  await app.waitFor(/^burrow .* home$/m);

  await app.press('app.quit');
  await app.exited;
});

test('home table: j/k move the selection, / filters it, enter opens the row (and read-only shows its badge)', async () => {
  const app = renderConsole(api, { cols: 80, rows: 24, styles: true, settings: resolveSettings({ readOnly: true }, {}, {}) });
  const n = SCREENS.length - 1; // every screen but home itself
  await app.waitFor(`1 of ${n}`);
  assert.match(app.lines()[0]!, /READ-ONLY\s+home$/);
  const rowOf = (text: string) => app.lines().findIndex((l) => l.startsWith(text));
  assert.ok(app.isInverse(rowOf(':shield'), 2), 'the first row starts selected');
  assert.ok(!app.isInverse(rowOf(':videos'), 2), 'and only the first');
  await app.press('nav.down', 'nav.down');
  await app.waitFor(`3 of ${n}`);
  assert.ok(app.isInverse(rowOf(':videos'), 2), 'j moved the selection down twice');
  assert.ok(!app.isInverse(rowOf(':shield'), 2));
  await app.press('nav.up');
  await app.waitFor(`2 of ${n}`);
  await app.press('nav.bottom');
  await app.waitFor(`${n} of ${n}`);
  await app.press('nav.top');
  await app.waitFor(`1 of ${n}`);

  await app.press('list.filter');
  await app.type('sql');
  const filtered = await app.waitFor(new RegExp(`1 of \\d+ \\(filtered from ${n}\\)`));
  assert.doesNotMatch(filtered, /:shield/);
  await app.press('filter.apply');
  await app.waitFor('/sql  (esc clears)');
  await app.press('list.open');
  await app.waitFor(/home › sql$/m);
  await app.press('app.back');
  await app.waitFor('/sql  (esc clears)', 5000);
  await app.press('app.back');
  await app.waitFor(`1 of ${n}`);
  await app.press('app.interrupt');
  await app.exited;
});
