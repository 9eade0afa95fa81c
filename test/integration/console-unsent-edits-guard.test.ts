import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { type KeyTarget, runCommand } from '../helpers/pty';

/** The one "Discard the changes?" guard, driven on the shield screen (in process: no terminal needed). */
const emu = await useEmulator({ seed: 11 });
const api = apiFor(emu);
const zones = (await api.shield.listZones(1, 50)).zones;
const zone = zones.find((z) => z.planType === 2)!;

async function editOneSetting(app: KeyTarget): Promise<void> {
  await app.waitFor('Screens');
  await runCommand(app, 'shield');
  await app.waitFor(/page 1 of 1 · \d+ zones/);
  const index = zones.findIndex((z) => z.shieldZoneId === zone.shieldZoneId);
  await app.press('nav.top', ...Array<string>(index).fill('nav.down'), 'list.open');
  await app.waitFor(/Plan limits\s+endpoints \d+/);
  await app.press('shield.toggleEnabled');
  await app.waitFor('1 edit not sent yet');
}

test('shield: esc with an unsent edit asks "Discard the changes?"; n keeps the edit, y discards it and goes back', async () => {
  const app = renderConsole(api, { cols: 100, rows: 30 });
  try {
    await editOneSetting(app);
    await app.press('app.back');
    let screen = await app.waitFor('Discard the changes?');
    assert.match(screen, new RegExp(`API Guardian of shield zone ${zone.shieldZoneId}: 1 edit not sent yet`));
    await app.press('confirm.no');
    screen = await app.waitForGone('Discard the changes?');
    assert.match(screen, /1 edit not sent yet/, 'the edit is still there');
    assert.match(screen, new RegExp(`API Guardian · zone ${zone.shieldZoneId}`));

    await app.press('app.back');
    await app.waitFor('Discard the changes?');
    await app.press('confirm.yes');
    screen = await app.waitFor(/page 1 of 1 · \d+ zones/);
    assert.doesNotMatch(screen, /API Guardian · zone/);
    // back in the zone, the edit is gone and q quits without a question
    await app.press('list.open');
    screen = await app.waitFor(/Plan limits\s+endpoints \d+/);
    assert.doesNotMatch(screen, /not sent yet/);
    await app.press('app.quit');
    await app.exited;
  } finally {
    app.unmount();
  }
});

test('shield: q with an unsent edit asks the same question; n stays, y quits; nothing was sent', async () => {
  const before = (await api.shield.getApiGuardian(zone.shieldZoneId)).configuration;
  const app = renderConsole(api, { cols: 100, rows: 30 });
  try {
    await editOneSetting(app);
    await app.press('app.quit');
    let screen = await app.waitFor('Discard the changes?');
    assert.match(screen, /discard and quit/);
    await app.press('confirm.no');
    screen = await app.waitForGone('Discard the changes?');
    assert.match(screen, /1 edit not sent yet/);
    await app.press('app.quit');
    await app.waitFor('Discard the changes?');
    await app.press('confirm.yes');
    await app.exited;
  } finally {
    app.unmount();
  }
  assert.deepEqual((await api.shield.getApiGuardian(zone.shieldZoneId)).configuration, before);
});
