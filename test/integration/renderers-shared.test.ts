import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { csvRows } from '../helpers/csv';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { cellText, columnWidths, rawValue, type Column, type RawValue } from '../../src/text/table-model';
import { fit } from '../../src/text/fit';
import { zoneColumns } from '../../src/renderers/shield-zones';
import { apiGuardianRows } from '../../src/renderers/api-guardian';
import { fieldColumns } from '../../src/renderers/field-rows';
import { limitColumns, limitRows } from '../../src/renderers/container-limits';
import { appColumns } from '../../src/renderers/container-apps';
import { regionColumns, regionSettingsRows } from '../../src/renderers/container-regions';
import { libraryColumns } from '../../src/renderers/video-libraries';
import { lbColumns, profileColumns, profileRows } from '../../src/renderers/load-balancers';
import { pullZoneColumns } from '../../src/renderers/pull-zones';

// One renderer per resource: `burrow get -o csv` and the screens show the cells the renderer
// makes from the records the API returns.

const emu = await useEmulator();
const api = apiFor(emu);
const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(path.join(os.tmpdir(), 'burrow-renderers-')), ...envFor(emu) };

/** CSV writes each column's raw value (numbers, ISO times) where it has one, else the screen's cell. */
function expected<T>(rows: readonly T[], columns: readonly Column<T>[]): string[][] {
  const text = (v: RawValue) => (v === null ? '' : String(v));
  return [columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => text(rawValue(c, r))))];
}

test('burrow get -o csv prints, for every resource, the raw values of its renderer', async () => {
  const zones = await api.shield.listAllZones();
  const guarded = zones.find((z) => z.planType !== 0)!;
  const apps = await api.containers.listAllApps();
  const lbs = await api.loadBalancers.listAll();
  const cases: [string[], () => Promise<string[][]>][] = [
    [['shield-zones'], async () => expected(zones, zoneColumns)],
    [
      ['api-guardian', String(guarded.shieldZoneId)],
      async () => expected(apiGuardianRows(await api.shield.getApiGuardian(guarded.shieldZoneId)), fieldColumns),
    ],
    [['limits'], async () => expected(limitRows(await api.containers.getLimits()), limitColumns)],
    [['apps'], async () => expected(apps, appColumns)],
    [['region-settings', apps[0]!.id], async () => expected(regionSettingsRows(await api.containers.getRegionSettings(apps[0]!.id)), fieldColumns)],
    [['regions'], async () => expected(await api.containers.listAllRegions(), regionColumns)],
    [['video-libraries'], async () => expected(await api.videoLibraries.listAll(null), libraryColumns)],
    [['load-balancers'], async () => expected(lbs, lbColumns)],
    [['load-balancer', String(lbs[0]!.LoadBalancerId)], async () => expected(profileRows(await api.loadBalancers.get(lbs[0]!.LoadBalancerId)), profileColumns)],
    [['pull-zones'], async () => expected(await api.pullZones.list(), pullZoneColumns)],
  ];
  for (const [args, cells] of cases) {
    const run = await runBurrow(['get', ...args, '-o', 'csv'], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(csvRows(run.stdout), await cells(), `burrow get ${args.join(' ')}`);
  }
});

/** The screen line of a row: each cell fitted to its column width, in column order. */
function rowPattern<T>(row: T, columns: Column<T>[], width: number): RegExp {
  const widths = columnWidths(columns, width);
  const parts = columns.map((c, i) => fit(cellText(c.cell(row)), widths[i]!, c.align ?? 'left').trim()).filter(Boolean);
  return new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*'));
}

test('the screens show the same cells: shield zones, applications, video libraries and load balancers', async () => {
  const [zones, apps, libs, lbs] = await Promise.all([
    api.shield.listZones(1, 10),
    api.containers.listAllApps(),
    api.videoLibraries.listAll(null),
    api.loadBalancers.listAll(),
  ]);
  const app = startBurrow([], { env: envFor(emu), cols: 200, rows: 30 });
  await app.waitFor('Screens');
  const open = async (command: string, ready: RegExp | string) => {
    await app.press(':');
    await app.type(command);
    await app.press('enter');
    return app.waitFor(ready);
  };
  const shown = (screen: string, first: string) => screen.split('\n').find((l) => l.includes(first)) ?? `(no line with ${first})`;

  const zone = zones.zones[0]!;
  let screen = await open('shield', new RegExp(`\\b${zone.shieldZoneId}\\b`));
  assert.match(shown(screen, String(zone.shieldZoneId)), rowPattern(zone, zoneColumns, widthOf(screen, 'ZONE')));

  screen = await open('containers', apps[0]!.id);
  assert.match(shown(screen, apps[0]!.id), rowPattern(apps[0]!, appColumns, widthOf(screen, 'NAME')));

  screen = await open('videos', libs[0]!.Name!);
  assert.match(shown(screen, libs[0]!.Name!), rowPattern(libs[0]!, libraryColumns, widthOf(screen, 'NAME')));

  screen = await open('lb', lbs[0]!.Name!);
  assert.match(shown(screen, lbs[0]!.Name!), rowPattern(lbs[0]!, lbColumns, widthOf(screen, 'NAME')));
  app.kill();
});

/** The width the table got: from its header's first column to the right edge of the terminal. */
function widthOf(screen: string, firstHeader: string): number {
  const header = screen.split('\n').find((l) => l.trimStart().startsWith(firstHeader)) ?? '';
  return 200 - header.indexOf(firstHeader);
}
