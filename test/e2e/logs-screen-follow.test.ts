import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { openZone } from '../helpers/logs-screen';

// The logs screen in the real binary, in a pseudo-terminal: a smoke test of what a terminal sees
// (the screen's behaviour is tested in process: integration/console-logs-*.test.ts). It starts,
// follows, copies to the terminal's clipboard (OSC 52), and quits leaving the main screen.

const emu = await useEmulator({ seed: 7, logRate: 6, ingestDelayMs: 500 });
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;

test('the binary follows a zone in a terminal, copies a request id over OSC 52 and quits cleanly', async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 100, rows: 30 });
  const screen = await openZone(app, busy.Id, /● following[\s\S]*newest of [\d,]+/);
  assert.match(screen, new RegExp(`zone ${busy.Id} ${busy.Name}`));
  await app.press('screen.pause', 'list.open');
  const detail = await app.waitFor(/request id\s+[0-9a-f]{32}/);
  const id = /request id\s+([0-9a-f]{32})/.exec(detail)![1]!;
  await app.press('logs.copyId');
  await app.waitFor('copied request id');
  const copied = [...app.rawOutput().matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
  assert.deepEqual(copied, [id]);
  await app.press('app.back', 'app.quit');
  assert.equal((await app.exited).exitCode, 0);
  const raw = app.rawOutput();
  assert.ok(raw.lastIndexOf('\x1b[?1049l') > raw.lastIndexOf('\x1b[?1049h'), 'the alternate screen is left at the end');
});
