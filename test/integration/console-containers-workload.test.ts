import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand, tableRows } from '../helpers/pty';

// The region settings editor shows what the app runs and where (read-only): templates, instances
// by region, volumes; `i` lists the details, secrets masked.

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

test("containers: the editor shows the app's templates, instances by region and volumes; i lists them in full", async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const apps = await api.containers.listAllApps();
  // A running app with volumes, so every part has something to show.
  let index = -1;
  for (const [i, a] of apps.entries()) {
    if (a.status !== 'active') continue;
    if ((await api.containers.listVolumes(a.id)).items.length) {
      index = i;
      break;
    }
  }
  assert.ok(index >= 0, 'the seed has an active app with volumes');
  const target = apps[index]!;
  const [detail, overview, volumes] = await Promise.all([
    api.containers.getApp(target.id),
    api.containers.getAppOverview(target.id),
    api.containers.listVolumes(target.id),
  ]);

  const app = renderConsole(api, { cols: 100, rows: 30 });
  await app.waitFor('Screens');
  await runCommand(app, 'containers');
  await app.waitFor(/Applications\s+15 applications/);
  for (let i = 0; i < index; i++) await app.press('nav.down');
  await app.press('list.open');
  let screen = await app.waitFor(/^instances\s+\S+ \d/m);
  const line = (start: string) => squash(screen.split('\n').find((l) => l.startsWith(start)) ?? '');

  const main = detail.containerTemplates[0]!;
  assert.ok(line('runs').startsWith(`runs ${main.name} ${main.image}`), line('runs'));
  const byRegion = overview.regions.map((r) => `${r.region} ${r.instances}`).join(' · ');
  assert.ok(
    line('instances').startsWith(`instances ${byRegion} · ${overview.activeInstances!.indicator} of ${overview.desiredInstances} ready`),
    line('instances'),
  );
  const v = volumes.items[0]!;
  assert.ok(line('volumes').startsWith(`volumes ${v.name} ${v.size} GB on ${v.volumeInstances.length}`), line('volumes'));
  // The checklist says how many instances run in each region.
  screen = await app.waitFor(/ALLOW REQ\s+ID\s+NAME\s+GROUP\s+CAPACITY\s+ANYCAST\s+RUNNING/);
  const first = overview.regions[0]!;
  const row = tableRows(screen, 'ALLOW REQ', ['ALLOW', 'REQ', 'ID', 'NAME', 'GROUP', 'CAPACITY', 'ANYCAST', 'RUNNING']).find((r) => r.ID === first.region);
  assert.equal(row?.RUNNING, String(first.instances), `row of ${first.region}:\n${screen}`);

  // i: the full list, env secrets masked, one line per pod and volume instance.
  await app.press('containers.details');
  screen = await app.waitFor('APPLICATION (read-only)');
  assert.ok(screen.includes(`Container templates (${detail.containerTemplates.length})`), screen);
  const secret = main.environmentVariables.find((e) => /\*{8}/.test(e.value ?? ''));
  assert.ok(secret, 'the main template has a masked secret');
  const envLine = screen.split('\n').find((l) => l.includes(`${secret.name}=`));
  assert.ok(envLine, screen);
  assert.ok(envLine.includes(`${secret.name}=${secret.value}`), 'the masked value is shown as the platform sent it');
  // Filter the list down to the pods: every pod of the overview is there.
  await app.press('list.filter');
  await app.type('pod ');
  await app.press('filter.apply');
  screen = await app.waitFor(/pod \S+\s+ready/);
  for (const p of overview.regions.flatMap((r) => r.pods)) assert.ok(screen.includes(`pod ${p.name}`), `${p.name} listed`);
  await app.press('app.back');
  await app.press('app.back');
  await app.waitFor(/ALLOW REQ\s+ID/);
  await app.press('app.quit');
  await app.exited;
});
