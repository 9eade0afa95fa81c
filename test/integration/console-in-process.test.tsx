import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';

// The console rendered in this process (test/helpers/console.tsx): the same screens and keys as
// the pty tests, without a terminal, in a fraction of the time. This is the help overlay, driven
// by action names; screens moved from pty tests are in test/integration/console-*.test.ts.

const emu = await useEmulator();
const api = apiFor(emu);
const consoles: { unmount(): void }[] = [];
after(() => consoles.forEach((c) => c.unmount()));

test('help in process: ? lists the actions of the screen with their keys, from the keymap', async () => {
  const app = renderConsole(api, { cols: 100, rows: 30 });
  consoles.push(app);
  await app.waitFor('Screens');
  await app.press('app.help');
  const help = await app.waitFor('open the command palette');
  assert.match(help, /:\s+open the command palette/);
  await app.press('app.back');
  await app.waitFor('Screens');
});
