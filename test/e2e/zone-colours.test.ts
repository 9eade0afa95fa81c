import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';

// stern habits: in a merged stream each zone has its colour (the first cyan, the second
// magenta) on the CLI's text output at a terminal; NO_COLOR turns them off. The console's merged
// view is tested in process: test/integration/console-zone-colours.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const zone = (name: string) => emu.world.pullZones.find((z) => z.Name === name)!.Id;
const A = zone('shop-assets');
const B = zone('video-edge');
const cyan = (id: number) => new RegExp(`\\x1b\\[36m${id}\\s*\\x1b\\[39m`);
const magenta = (id: number) => new RegExp(`\\x1b\\[35m${id}\\s*\\x1b\\[39m`);

test('logs A B on a terminal: each zone id in its own colour; NO_COLOR: no colour codes at all', async () => {
  const coloured = startBurrow(['logs', String(A), String(B), '--since', '5m', '--limit', '200'], { env: envFor(emu), cols: 200, rows: 50 });
  assert.equal((await coloured.exited).exitCode, 0);
  const out = coloured.rawOutput();
  assert.match(out, cyan(A));
  assert.match(out, magenta(B));

  const plain = startBurrow(['logs', String(A), String(B), '--since', '5m', '--limit', '200'], { env: { ...envFor(emu), NO_COLOR: '1' }, cols: 200, rows: 50 });
  assert.equal((await plain.exited).exitCode, 0);
  const text = plain.rawOutput();
  assert.match(text, new RegExp(`\\b${A}\\b[\\s\\S]*\\b${B}\\b|\\b${B}\\b[\\s\\S]*\\b${A}\\b`));
  assert.doesNotMatch(text, /\x1b\[3\dm/);
});
