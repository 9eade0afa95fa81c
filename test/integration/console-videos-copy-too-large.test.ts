import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { videoLibraries } from '../../src/emulator/management/video-libraries';
import { osc52 } from '../../src/clipboard/osc52';

// Rendered in this process (was a pty test): the copy's sequence is in what was written to the fake terminal.

test('videos detail: a value too long for one OSC 52 sequence is not sent, and the status line says why', async () => {
  const emu = await useEmulator();
  const lib = videoLibraries(emu.world)[0]!;
  // a big custom player HTML: 85 kB of text is 113 kB of base64, past what terminals take
  const html = `<div class="player">${'<span>frame</span>'.repeat(4_700)}</div>`;
  lib.CustomHTML = html;
  lib.PlayerKeyColor = '#ff7755';
  const app = renderConsole(apiFor(emu), { cols: 80, rows: 24 });
  await app.waitFor('Screens');
  await runCommand(app, 'videos');
  await app.waitFor(String(lib.Id));
  await app.press('list.open');
  await app.waitFor(`Video library ${lib.Name} (${lib.Id})`);

  // a short value still copies
  await app.press('list.filter');
  await app.type('PlayerKeyColor');
  await app.press('filter.apply');
  await app.waitFor(/PlayerKeyColor\s+#ff7755/);
  await app.press('videos.copy');
  await app.waitFor('copied PlayerKeyColor to the clipboard (OSC 52)');
  assert.ok(app.rawOutput().includes(osc52('#ff7755')));

  await app.press('app.back');
  await app.press('list.filter');
  await app.type('CustomHTML');
  await app.press('filter.apply');
  await app.waitFor(/CustomHTML\s+<div class="player">/);
  await app.press('videos.copy');
  await app.waitFor('not copied: CustomHTML is 85 kB, over the 75 kB OSC 52 limit');
  assert.ok(!app.rawOutput().includes('\x1b]52;c;PGRpdiBjbGFzcz0icGxheWVyIj4'), 'no OSC 52 sequence of the HTML was written');
  await app.press('app.quit');
  await app.exited;
});
