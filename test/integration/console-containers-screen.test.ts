import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand, type KeyTarget } from '../helpers/pty';
import type { Api } from '../../src/api/index';
import type { App, RegionSettings } from '../../src/api/containers';

/** The active app with the fewest allowed regions (its diff fits in 80 columns). */
async function pickApp(api: Api): Promise<{ app: App; index: number; settings: RegionSettings }> {
  const apps = await api.containers.listAllApps();
  let best: { app: App; index: number; settings: RegionSettings } | null = null;
  for (const [index, app] of apps.entries()) {
    if (app.status !== 'active') continue;
    const settings = await api.containers.getRegionSettings(app.id);
    if (!best || settings.allowedRegionIds.length < best.settings.allowedRegionIds.length) best = { app, index, settings };
  }
  return best!;
}

async function openEditor(app: KeyTarget, index: number, name: string): Promise<string> {
  await app.waitFor('Screens');
  await runCommand(app, 'containers');
  await app.waitFor(/Applications\s+15 applications/);
  for (let i = 0; i < index; i++) await app.press('nav.down');
  await app.press('list.open');
  return app.waitFor(new RegExp(`Region settings · ${name} `));
}

const lineOf = (screen: string, start: string) => screen.split('\n').find((l) => l.startsWith(start)) ?? '';
const ids = (list: string[]) => `${list.join(' ')} (${list.length})`;

test('containers: open an app, allow a region, confirm the diff, PUT; bad input and a server error shown next to their fields', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const { app: target, index, settings } = await pickApp(api);
  const regions = await api.containers.listAllRegions();
  const app = renderConsole(api, { cols: 80, rows: 24 });
  let screen = await openEditor(app, index, target.name!);
  // the breadcrumb names the app opened
  await app.waitFor(new RegExp(`containers › ${target.name!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  // The settings and the live region list arrive separately: wait for the list, then read both.
  screen = await app.waitFor(/ALLOW REQ\s+ID\s+NAME\s+GROUP\s+CAPACITY/);
  assert.equal(lineOf(screen, 'allowed').replace(/\s+/g, ' ').trim(), `allowed ${ids(settings.allowedRegionIds)}`);
  assert.equal(lineOf(screen, 'required').replace(/\s+/g, ' ').trim(), `required ${ids(settings.requiredRegionIds)}`);

  // Allow one more region, picked in the checklist.
  const extraAt = regions.findIndex((r) => r.hasCapacity && !settings.allowedRegionIds.includes(r.id));
  const extra = regions[extraAt]!;
  for (let i = 0; i < extraAt; i++) await app.press('nav.down');
  await app.press('containers.toggleAllowed');
  const allowed = [...settings.allowedRegionIds, extra.id];
  screen = await app.waitFor(`allowed   ${ids(allowed)}`);
  assert.match(lineOf(screen, 'Region settings'), /modified/);

  await app.press('containers.save');
  screen = await app.waitFor('What will be sent:');
  assert.ok(screen.includes(`~ allowedRegionIds: ${JSON.stringify(settings.allowedRegionIds)} → ${JSON.stringify(allowed)}`), screen);
  assert.doesNotMatch(screen, /requiredRegionIds|nodeSelectors/, 'only what changes is listed');
  await app.press('confirm.yes');
  await app.waitFor(/✔ saved \d+s ago/);
  assert.deepEqual((await api.containers.getRegionSettings(target.id)).allowedRegionIds, allowed, 'the emulator has the new list');

  // Bad input: require a region that is not allowed -> message next to "required", nothing sent.
  const notAllowedAt = regions.findIndex((r) => !allowed.includes(r.id));
  await app.press('nav.top');
  for (let i = 0; i < notAllowedAt; i++) await app.press('nav.down');
  await app.press('containers.toggleRequired');
  screen = await app.waitFor(`✖ required regions must also be allowed: ${regions[notAllowedAt]!.id}`);
  const lines = screen.split('\n');
  const req = lines.findIndex((l) => l.startsWith('required'));
  assert.match(lines[req + 1]!, /^\s{10}✖ required regions must also be allowed/, 'the message is right under the field');
  await app.press('containers.save');
  await app.waitFor('not sent: fix the fields marked ✖ first');
  assert.deepEqual((await api.containers.getRegionSettings(target.id)).requiredRegionIds, settings.requiredRegionIds);

  // A required region without capacity passes the local checks; the server's 422 lands next to "required".
  await app.press('containers.undo');
  await app.waitForGone('✖ required regions must');
  const fullAt = regions.findIndex((r) => r.hasCapacity === false);
  const full = regions[fullAt]!;
  await app.press('nav.top');
  for (let i = 0; i < fullAt; i++) await app.press('nav.down');
  await app.press('containers.toggleAllowed', 'containers.toggleRequired');
  await app.waitFor(`⚠ no capacity now: ${full.id}`);
  for (let i = 0; i < 3; i++) await app.press('containers.maxUp');
  await app.press('containers.save');
  await app.waitFor('What will be sent:');
  await app.press('confirm.yes');
  screen = await app.waitFor(`✖ region ${full.id} has no capacity at the moment (server)`);
  const after = screen.split('\n');
  const reqLine = after.findIndex((l) => l.startsWith('required'));
  assert.ok(
    after.slice(reqLine + 1, reqLine + 3).some((l) => l.includes('(server)')),
    'under the required field',
  );
  screen = await app.waitFor(/failed: 422/);

  // esc with changes asks first (the one guard every screen uses); yes goes back to the list.
  await app.press('app.back');
  await app.waitFor('Discard the changes?');
  await app.waitFor(`region settings of ${target.name}: changes not sent yet`);
  await app.press('confirm.yes');
  await app.waitFor(/Applications\s+15 applications/);
  await app.press('app.quit');
  await app.exited;
});

test('containers --read-only: the editor shows the settings, editing keys are hidden and refused', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const { app: target, index, settings } = await pickApp(api);
  const app = renderConsole(api, { cols: 80, rows: 24, settings: { readOnly: true } });
  await openEditor(app, index, target.name!);
  const screen = await app.waitFor(/ALLOW REQ\s+ID\s+NAME\s+GROUP\s+CAPACITY/);
  assert.match(lineOf(screen, 'Region settings'), /read-only/);
  const hints = screen.split('\n').at(-1)!;
  assert.doesNotMatch(hints, /save|allow|require/, 'no editing hints');
  await app.press('containers.toggleAllowed');
  await app.waitFor('read-only mode: allow or disallow the selected region is not');
  await app.press('containers.save');
  await app.waitFor(/read-only mode: save the region settings/);
  assert.deepEqual(await api.containers.getRegionSettings(target.id), settings);
  await app.press('app.quit');
  await app.exited;
});
