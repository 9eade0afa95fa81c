import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';

test('a key whose action cannot run now shows why in the status bar, and help lists it greyed with the reason', async () => {
  const emu = await useEmulator();
  const app = renderConsole(apiFor(emu), { cols: 120, rows: 30 });
  await app.waitFor('Screens');
  await app.press('app.back');
  await app.waitFor('this is the first screen: q quits');
  await runCommand(app, 'containers');
  await app.waitFor(/Applications\s+15 applications/);

  await app.press('list.sortReverse');
  await app.waitFor('not sorted yet: press s to sort by a column');
  await app.press('app.help');
  let screen = await app.waitFor('reverse the sort order');
  assert.match(screen, /S\s+reverse the sort order \(not now: not sorted yet: press s to sort by a column\)/);
  await app.press('help.close');
  await app.waitForGone('reverse the sort order');

  await app.press('list.sort');
  await app.waitFor(/sorted by \w+ ↑/);
  await app.press('list.sortReverse');
  await app.waitFor(/sorted by \w+ ↓/);
  await app.press('app.help');
  screen = await app.waitFor('reverse the sort order');
  assert.doesNotMatch(screen, /not now/, 'once sorted, the action is available');
  await app.press('help.close');
  await app.press('app.quit');
  await app.exited;
});
