import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { startBurrow, type PtySession } from '../helpers/pty';

/** The one "Discard the changes?" guard, driven in a pseudo-terminal on the shield screen. */
const emu = await useEmulator({ seed: 11 });
const api = apiFor(emu);
const zones = (await api.shield.listZones(1, 50)).zones;
const zone = zones.find((z) => z.planType === 2)!;

async function editOneSetting(app: PtySession): Promise<void> {
  await app.waitFor('Screens');
  await app.press(':');
  await app.type('shield');
  await app.press('enter');
  await app.waitFor(/page 1 of 1 · \d+ zones/);
  const index = zones.findIndex((z) => z.shieldZoneId === zone.shieldZoneId);
  await app.press('g', ...Array<string>(index).fill('j'), 'enter');
  await app.waitFor(/Plan limits\s+endpoints \d+/);
  await app.press('e');
  await app.waitFor('1 edit not sent yet');
}

test('shield: esc with an unsent edit asks "Discard the changes?"; n keeps the edit, y discards it and goes back', async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 100, rows: 30 });
  try {
    await editOneSetting(app);
    await app.press('esc');
    let screen = await app.waitFor('Discard the changes?');
    assert.match(screen, new RegExp(`API Guardian of shield zone ${zone.shieldZoneId}: 1 edit not sent yet`));
    await app.press('n');
    screen = await app.waitForGone('Discard the changes?');
    assert.match(screen, /1 edit not sent yet/, 'the edit is still there');
    assert.match(screen, new RegExp(`API Guardian · zone ${zone.shieldZoneId}`));

    await app.press('esc');
    await app.waitFor('Discard the changes?');
    await app.press('y');
    screen = await app.waitFor(/page 1 of 1 · \d+ zones/);
    assert.doesNotMatch(screen, /API Guardian · zone/);
    // back in the zone, the edit is gone and q quits without a question
    await app.press('enter');
    screen = await app.waitFor(/Plan limits\s+endpoints \d+/);
    assert.doesNotMatch(screen, /not sent yet/);
    await app.press('q');
    assert.equal((await app.exited).exitCode, 0);
  } finally {
    app.kill();
  }
});

test('shield: q with an unsent edit asks the same question; n stays, y quits; nothing was sent', async () => {
  const before = (await api.shield.getApiGuardian(zone.shieldZoneId)).configuration;
  const app = startBurrow([], { env: envFor(emu), cols: 100, rows: 30 });
  try {
    await editOneSetting(app);
    await app.press('q');
    let screen = await app.waitFor('Discard the changes?');
    assert.match(screen, /discard and quit/);
    await app.press('n');
    screen = await app.waitForGone('Discard the changes?');
    assert.match(screen, /1 edit not sent yet/);
    await app.press('q');
    await app.waitFor('Discard the changes?');
    await app.press('y');
    assert.equal((await app.exited).exitCode, 0);
  } finally {
    app.kill();
  }
  assert.deepEqual((await api.shield.getApiGuardian(zone.shieldZoneId)).configuration, before);
});
