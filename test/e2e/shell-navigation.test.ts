import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { runCommand, startBurrow } from '../helpers/pty';
import { RESTORE_SEQUENCE } from '../../src/app/terminal';

// The binary at a terminal, once: its header on a configured platform, a screen opened through
// the palette, and ctrl-c leaving with the terminal restored. The navigation itself (palette,
// help, breadcrumbs, the home table) is tested in process: test/integration/console-shell-navigation.

const RESTORED_AT_END = /\x1b\[\?1049l(\x1b\[\?25h)+$/;

test('--read-only on a configured platform: header, :containers, ctrl-c restores the terminal', async () => {
  const emu = await useEmulator();
  const app = startBurrow(['--read-only'], { env: envFor(emu), cols: 80, rows: 24 });
  const first = await app.waitFor('Screens');
  assert.match(first.split('\n')[0]!, /^burrow .*127\.0\.0\.1:\d+\s+READ-ONLY\s+home$/, 'header: endpoint host, the badge, breadcrumbs');
  assert.doesNotMatch(first, /EMULATOR/, 'a configured key talks to the platform, not the built-in emulator');
  await runCommand(app, 'containers');
  const screen = await app.waitFor(/applications\s+\S+ \d+ \/ \d+/);
  assert.match(screen.split('\n')[0]!, /home › containers$/);
  await app.press('app.interrupt');
  assert.equal((await app.exited).exitCode, 0);
  assert.match(app.rawOutput(), RESTORED_AT_END, 'the last bytes leave the alternate screen and show the cursor');
  assert.ok(app.rawOutput().includes(RESTORE_SEQUENCE));
});
