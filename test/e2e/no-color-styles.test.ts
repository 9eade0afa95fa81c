import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { runCommand, startBurrow } from '../helpers/pty';

// --no-color takes the colours away, never the selection: chalk reads --no-color from argv and
// dropped inverse too, so no row of any table looked selected.

const emu = await useEmulator();
const COLOUR_SGR = /\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

for (const [how, args, env] of [
  ['--no-color', ['--no-color'], {}],
  ['NO_COLOR=1', [], { NO_COLOR: '1' }],
] as const) {
  test(`${how}: the selected table row is drawn in reverse video and nothing is coloured`, async () => {
    const app = startBurrow([...args], { env: envFor(emu, env), cols: 110, rows: 24 });
    await app.waitFor('Screens');
    await runCommand(app, 'videos');
    await app.waitFor(/of \d+ loaded/);
    const before = app.rawOutput().length;
    await app.press('j');
    await app.waitFor(/2 of \d+/);
    const drawn = app.rawOutput().slice(before);
    assert.match(drawn, /\x1b\[7m/, 'the new selected row is in reverse video');
    assert.doesNotMatch(app.rawOutput(), COLOUR_SGR, 'no colour anywhere');
    await app.press('q');
    await app.exited;
  });
}
