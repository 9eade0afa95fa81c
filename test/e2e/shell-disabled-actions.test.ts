import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';

test('a key whose action cannot run now shows why in the status bar, and help lists it greyed with the reason', async () => {
  const emu = await useEmulator();
  const app = startBurrow([], { env: envFor(emu), cols: 120, rows: 30 });
  await app.waitFor('Screens');
  await app.press('esc');
  await app.waitFor('this is the first screen: q quits');
  await app.press(':');
  await app.type('containers');
  await app.press('enter');
  await app.waitFor(/Applications\s+15 applications/);

  await app.press('S');
  await app.waitFor('not sorted yet: press s to sort by a column');
  await app.press('?');
  let screen = await app.waitFor('reverse the sort order');
  assert.match(screen, /S\s+reverse the sort order \(not now: not sorted yet: press s to sort by a column\)/);
  await app.press('esc');
  await app.waitForGone('reverse the sort order');

  await app.press('s');
  await app.waitFor(/sorted by \w+ ↑/);
  await app.press('S');
  await app.waitFor(/sorted by \w+ ↓/);
  await app.press('?');
  screen = await app.waitFor('reverse the sort order');
  assert.doesNotMatch(screen, /not now/, 'once sorted, the action is available');
  await app.press('esc');
  await app.press('q');
  assert.equal((await app.exited).exitCode, 0);
});
