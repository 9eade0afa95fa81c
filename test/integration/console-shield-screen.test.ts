import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, settingsFromConfig, type InProcessConsole } from '../helpers/console';
import { runCommand, tableRows } from '../helpers/pty';
import { resolveSettings } from '../../src/config/settings';
import { UNMATCHED_PATH_ACTION, WAF_EXECUTION_MODE, WAF_PAYLOAD_LIMIT_ACTION } from '../../src/api/shield';

const emu = await useEmulator({ seed: 11 });
const api = apiFor(emu);
const zones = (await api.shield.listZones(1, 50)).zones;
const onOff = (v: boolean) => (v ? 'on' : 'off');

// The shield screen rendered in this process (was a pty test: nothing here needs a terminal).

async function openShield(app: InProcessConsole): Promise<string> {
  await app.waitFor('Screens');
  await runCommand(app, 'shield');
  return app.waitFor(/page 1 of 1 · \d+ zones/);
}

/** Selects the zone's row (rows are in API order) and opens it. */
async function openZone(app: InProcessConsole, zoneId: number): Promise<string> {
  const index = zones.findIndex((z) => z.shieldZoneId === zoneId);
  assert.ok(index >= 0);
  await app.press('nav.top', ...Array<string>(index).fill('nav.down'), 'list.open');
  return app.waitFor(new RegExp(`API Guardian · zone ${zoneId}`));
}

const settingLine = (screen: string, label: string) => screen.split('\n').find((l) => l.startsWith(label)) ?? '';

test('zones table, then a zone: toggle + cycle, the confirm shows only the changed fields, the PATCH round-trips', async () => {
  const app = renderConsole(api, { cols: 100, rows: 30 });
  const list = await openShield(app);
  // every zone, in the API's order, with its pull zone
  const rows = tableRows(list, 'ZONE', ['ZONE', 'PULL ZONE', 'PLAN']);
  assert.deepEqual(
    rows.map((r) => [Number(r.ZONE), Number(r['PULL ZONE'])]),
    zones.map((z) => [z.shieldZoneId, z.pullZoneId]),
  );

  const zone = zones.find((z) => z.planType === 2)!;
  const before = (await api.shield.getApiGuardian(zone.shieldZoneId)).configuration;
  let screen = await openZone(app, zone.shieldZoneId);
  screen = await app.waitFor(/Plan limits\s+endpoints \d+/);
  assert.match(settingLine(screen, 'Enabled'), new RegExp(`^Enabled\\s+${onOff(before.isEnabled)}\\s`));
  assert.match(settingLine(screen, 'Execution mode'), new RegExp(`\\s${WAF_EXECUTION_MODE[before.executionMode]}\\s`));
  assert.match(settingLine(screen, 'Body over limit'), new RegExp(`\\s${WAF_PAYLOAD_LIMIT_ACTION[before.bodyLimitAction]}\\s`));
  assert.match(settingLine(screen, 'Unmatched path'), new RegExp(`\\s${UNMATCHED_PATH_ACTION[before.unmatchedPathAction]}\\s`));
  assert.match(
    screen,
    new RegExp(
      `Plan limits\\s+endpoints ${before.maxEndpoints} · fields ${before.maxFieldsPerType} · depth ${before.maxNestingDepth} · nodes ${before.maxTotalSchemaNodes} · regex ${before.maxTotalRegexLength}`,
    ),
  );

  // e toggles, u cycles twice, m cycles twice (back to the server value: not an edit)
  await app.press('shield.toggleEnabled', 'shield.cycleUnmatched', 'shield.cycleUnmatched', 'shield.cycleMode', 'shield.cycleMode');
  const wantUnmatched = (before.unmatchedPathAction + 2) % 3;
  // the final state of all five keys (intermediate frames also say "N edits")
  screen = await app.waitFor(
    new RegExp(`Execution mode\\s+\\w+\\s+m\\n[\\s\\S]*Unmatched path\\s+${UNMATCHED_PATH_ACTION[wantUnmatched]} \\(edited[\\s\\S]*2 edits not sent yet`),
  );
  assert.match(settingLine(screen, 'Enabled'), new RegExp(`${onOff(!before.isEnabled)} \\(edited; server: ${onOff(before.isEnabled)}\\)`));
  assert.match(
    settingLine(screen, 'Unmatched path'),
    new RegExp(`${UNMATCHED_PATH_ACTION[wantUnmatched]} \\(edited; server: ${UNMATCHED_PATH_ACTION[before.unmatchedPathAction]}\\)`),
  );
  assert.doesNotMatch(settingLine(screen, 'Execution mode'), /edited/);
  assert.deepEqual((await api.shield.getApiGuardian(zone.shieldZoneId)).configuration, before, 'nothing is sent while editing');

  await app.press('shield.send');
  const confirm = await app.waitFor('What will be sent:');
  const sent = confirm
    .split('\n')
    .map((l) => l.replace(/^│\s?|\s*│$/g, '').trim())
    .filter((l) => l.startsWith('~ ') || l.startsWith('+ ') || l.startsWith('- '));
  assert.deepEqual(sent, [
    `~ isEnabled: ${before.isEnabled} → ${!before.isEnabled}`,
    `~ unmatchedPathAction: ${before.unmatchedPathAction} → ${wantUnmatched}`,
  ]);
  assert.match(confirm, new RegExp(`Update the API Guardian of shield zone ${zone.shieldZoneId} \\(PATCH\\)`));
  await app.press('confirm.yes');
  screen = await app.waitFor(/saved; the server's answer: isEnabled (on|off), unmatchedPathAction \w+/);
  const after = (await api.shield.getApiGuardian(zone.shieldZoneId)).configuration;
  assert.deepEqual(
    [after.isEnabled, after.unmatchedPathAction, after.executionMode, after.bodyLimitAction],
    [!before.isEnabled, wantUnmatched, before.executionMode, before.bodyLimitAction],
  );
  assert.match(settingLine(screen, 'Enabled'), new RegExp(`^Enabled\\s+${onOff(after.isEnabled)}\\s`));
  assert.doesNotMatch(screen, /edited; server/);

  // x discards; esc goes back to the zones, and the Basic zone shows the 403 envelope
  await app.press('shield.cycleBodyLimit');
  await app.waitFor('1 edit not sent yet');
  await app.press('shield.discard');
  screen = await app.waitForGone('1 edit not sent yet');
  assert.doesNotMatch(screen, /saved; the server's answer/, 'the result of the earlier send does not come back after a discard');
  await app.press('app.back');
  await app.waitFor(/Shield zones/);
  const basic = zones.find((z) => z.planType === 0)!;
  screen = await openZone(app, basic.shieldZoneId);
  screen = await app.waitFor('errorKey: invalid_plan_type.api_guardian');
  assert.match(screen, /✖ 403 Forbidden invalid_plan_type\.api_guardian: API Guardian is not available on the Basic plan/);
  await app.press('shield.toggleEnabled');
  await app.waitFor(`zone ${basic.shieldZoneId} is on the Basic plan: API Guardian needs Advanced or higher`);
  await app.press('shield.send');
  await app.waitFor(`zone ${basic.shieldZoneId} is on the Basic plan: API Guardian needs Advanced or higher`);
  assert.doesNotMatch(app.screenText(), /not loaded yet/);
  await app.press('app.quit');
  await app.exited;
});

test('--read-only: editing keys are hidden and refused, no confirm opens, nothing changes', async () => {
  const app = renderConsole(api, { cols: 100, rows: 30, settings: resolveSettings({ readOnly: true }, {}, {}) });
  await openShield(app);
  const zone = zones.find((z) => z.planType === 3)!;
  const before = (await api.shield.getApiGuardian(zone.shieldZoneId)).configuration;
  await openZone(app, zone.shieldZoneId);
  await app.waitFor('read-only: settings and spec cannot be changed here');
  let screen = await app.waitFor(/o spec file/);
  const hints = screen.split('\n').slice(-3).join(' ');
  assert.doesNotMatch(hints, /on\/off|mode|send/, `no editing hints: ${hints}`);
  assert.match(hints, /o spec file/, 'checking a spec file is not a change');
  await app.press('shield.toggleEnabled');
  screen = await app.waitFor(/read-only mode: API Guardian on\/off .* is not available/);
  assert.doesNotMatch(screen, /edited/);
  await app.press('shield.send');
  await app.waitFor(/read-only mode: review and send/);
  assert.doesNotMatch(app.screenText(), /What will be sent/);
  await app.press('app.help');
  const help = await app.waitFor('This screen (shield)');
  assert.doesNotMatch(help, /toggleEnabled|API Guardian on\/off/);
  assert.match(help, /check a local OpenAPI file/);
  await app.press('help.close');
  assert.deepEqual((await api.shield.getApiGuardian(zone.shieldZoneId)).configuration, before);
  await app.press('app.quit');
  await app.exited;
});

test('a profile with readOnly: true is read-only too', async () => {
  const settings = await settingsFromConfig(`defaultProfile: ops
refreshSeconds: 1
profiles:
  ops:
    apiKey: ${emu.info.accessKey}
    baseUrl: ${emu.info.baseUrl}
    loggingUrl: ${emu.info.loggingUrl}
    readOnly: true
`);
  assert.equal(settings.readOnlySource, 'profile ops');
  const app = renderConsole(api, { cols: 100, rows: 30, settings });
  await openShield(app);
  const zone = zones.find((z) => z.planType === 1)!;
  await openZone(app, zone.shieldZoneId);
  await app.waitFor('read-only: settings and spec cannot be changed here');
  await app.press('shield.cycleMode');
  await app.waitFor(/read-only \(profile ops\): next execution mode/);
  // live refresh goes on (1 s): the age stays small, p pauses it
  await app.waitFor(/refreshed [0-2]s ago/);
  await app.press('screen.pause');
  await app.waitFor(/paused · refreshed/);
  await app.press('app.quit');
  await app.exited;
});
