import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { until } from '../helpers/wait';

// The hint bar (the last line) shows the keys that matter most first, leaves out keys that do
// not apply here, and says what enter and esc do in a prompt as the prompt says it. Rendered in
// this process (was a pty test).

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const bar = (app: InProcessConsole) =>
  app
    .lines()
    .filter((l) => l.trim() !== '')
    .at(-1) ?? '';
/** Waits until the hint bar satisfies `check` (it is redrawn at the next frame). */
function barWhere(app: InProcessConsole, what: string, check: (line: string) => boolean): Promise<string> {
  return until(`the hint bar with ${what} (now: "${bar(app)}")`, () => {
    const line = bar(app);
    return check(line) ? line : null;
  });
}

async function openLogs(app: InProcessConsole): Promise<void> {
  await app.waitFor('Screens');
  await runCommand(app, `logs ${busy.Id}`);
  await app.waitFor(/● following/);
}

test('logs at 120 and 80 columns: / @ m ? q are in the bar, before the less used keys', async () => {
  for (const cols of [120, 80]) {
    const app = renderConsole(api, { cols, rows: 30 });
    await openLogs(app);
    const line = await barWhere(app, '/ and q', (l) => l.includes('/ ') && l.includes('q quit'));
    for (const hint of ['/ filter', '@ time', 'm mark', '? help', 'q quit']) assert.ok(line.includes(hint), `${cols} columns: "${hint}" in "${line}"`);
    assert.ok(line.indexOf('/ filter') < line.indexOf('? help'), line);
    app.unmount();
    await app.exited;
  }
});

test('a prompt and the bar agree: enter applies, esc cancels', async () => {
  const app = renderConsole(api, { cols: 120, rows: 30 });
  await openLogs(app);
  await app.press('list.filter');
  await app.waitFor('enter applies · esc cancels');
  await barWhere(app, 'enter apply, esc cancel', (l) => /^enter apply {2}esc cancel/.test(l));
  await app.press('prompt.cancel');
  await barWhere(app, 'the screen keys again', (l) => l.startsWith('/ filter'));
  await app.press('logs.timeJump');
  await app.waitFor('jump to time:');
  await barWhere(app, 'enter apply, esc cancel', (l) => /^enter apply {2}esc cancel/.test(l));
  assert.doesNotMatch(bar(app), /enter keep|esc clear/);
  app.unmount();
  await app.exited;
});

test("hints that do not apply are not shown: home's d raw, a Basic-plan zone's edit keys, p pause on a past day", async () => {
  const app = renderConsole(api, { cols: 160, rows: 30 });
  await app.waitFor('Screens');
  const home = await barWhere(app, 'the home keys', (l) => l.includes('q quit'));
  assert.doesNotMatch(home, /d raw/);

  const zones = (await api.shield.listZones(1, 50)).zones;
  const basic = zones.findIndex((z) => z.planType === 0);
  const advanced = zones.findIndex((z) => z.planType === 2);
  await runCommand(app, 'shield');
  await app.waitFor(/page 1 of 1 · \d+ zones/);
  await app.press('nav.top', ...Array<string>(advanced).fill('nav.down'), 'list.open');
  await app.waitFor(/Plan limits\s+endpoints \d+/);
  const editable = await barWhere(app, 'the edit keys', (l) => l.includes('e on/off'));
  assert.match(editable, /m mode/);
  await app.press('app.back');
  await app.waitFor(/page 1 of 1 · \d+ zones/);
  await app.press('nav.top', ...Array<string>(basic).fill('nav.down'), 'list.open');
  await app.waitFor('errorKey: invalid_plan_type.api_guardian');
  const line = await barWhere(app, 'the Basic zone keys', (l) => l.includes('q quit') && !l.includes('e on/off'));
  for (const edit of ['e on/off', 'm mode', 'b body', 'u unmatched', 'c send']) assert.ok(!line.includes(edit), `"${edit}" not in "${line}"`);

  // a past day (v1 file): nothing follows, so p pause does not apply
  await runCommand(app, `logs ${busy.Id}`);
  await app.waitFor(/● following/);
  await barWhere(app, 'p pause while following', (l) => l.includes('p pause'));
  await app.press('logs.v1');
  await app.waitFor(/v1 day \(MM-dd-yy, UTC\):/);
  await app.press('prompt.apply');
  await app.waitFor(/v1 day \d\d-\d\d-\d\d \(UTC\) · [\d,]+ lines/, 30_000);
  await barWhere(app, 'no p pause on a past day', (l) => l.includes('q quit') && !l.includes('p pause'));
  app.unmount();
  await app.exited;
});
