import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';
import { videoLibraries } from '../../src/emulator/management/video-libraries';
import { loadBalancers } from '../../src/emulator/management/load-balancers';
import { shieldState } from '../../src/emulator/management/shield';
import { containersState } from '../../src/emulator/management/containers';

// `burrow get` through the real binary, every resource (run `npm run build` first; `npm test` does it).
// Masking and bad ids are in api-get-command-errors.test.ts.

const emu = await useEmulator();
const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-get-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, ...envFor(emu) };

const burrow = (...args: string[]) => runBurrow(args, { env });
const json = async (...args: string[]) => {
  const r = await burrow('get', ...args, '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as unknown;
};
const table = async (...args: string[]) => {
  const r = await burrow('get', ...args);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trimEnd().split('\n');
};

const shield = shieldState(emu.world);
const guardedZone = [...shield.guardian.values()].find((g) => g.configuration.title !== null)!.configuration;
const app = containersState(emu.world).apps[0]!;
const lb = loadBalancers(emu.world)[0]!;
const libs = videoLibraries(emu.world);

test('every resource prints JSON with the records and a table with a header and one line per row', async () => {
  const cases: [string[], string, (data: unknown, lines: string[]) => void][] = [
    [
      ['shield-zones'],
      'ZONE',
      (d, lines) => {
        assert.equal((d as unknown[]).length, shield.zones.length);
        assert.equal(lines.length, shield.zones.length + 1);
        assert.match(lines.join('\n'), /Enterprise/);
      },
    ],
    [
      ['api-guardian', String(guardedZone.shieldZoneId)],
      'FIELD',
      (d, lines) => {
        assert.equal((d as { configuration: { title: string } }).configuration.title, guardedZone.title);
        assert.ok(lines.some((l) => l.startsWith('spec title') && l.includes(guardedZone.title!)));
        assert.ok(lines.some((l) => /^execution mode\s+(Log|Block)$/.test(l)));
      },
    ],
    [
      ['limits'],
      'LIMIT',
      (d, lines) => {
        assert.equal((d as { existingNumberOfApplications: number }).existingNumberOfApplications, containersState(emu.world).apps.length);
        assert.ok(lines.length > 3);
      },
    ],
    [
      ['apps'],
      'NAME',
      (d, lines) => {
        assert.equal((d as unknown[]).length, 15);
        assert.ok(lines.some((l) => l.startsWith(app.name) && l.includes(app.id) && l.includes(app.status)));
      },
    ],
    [
      ['region-settings', app.id],
      'FIELD',
      (d, lines) => {
        const s = containersState(emu.world).regionSettings.get(app.id)!;
        assert.deepEqual((d as { allowedRegionIds: string[] }).allowedRegionIds, s.allowedRegionIds);
        assert.ok(lines.some((l) => l.startsWith('allowed regions') && l.endsWith(`${s.allowedRegionIds.join(' ')} (${s.allowedRegionIds.length})`)));
      },
    ],
    [
      ['regions'],
      'ID',
      (d, lines) => {
        assert.equal((d as unknown[]).length, 20);
        assert.equal(lines.length, 21);
      },
    ],
    [
      ['video-libraries'],
      'NAME',
      (d, lines) => {
        assert.equal((d as unknown[]).length, libs.length);
        assert.equal(lines.length, libs.length + 1);
        assert.match(lines[0]!, /^NAME\s+ID\s+VIDEOS\s+STORAGE\s+TRAFFIC\s+CREATED\s+REGIONS\s+DRM$/);
      },
    ],
    [
      ['load-balancers'],
      'NAME',
      (d, lines) => {
        assert.equal((d as unknown[]).length, 8);
        assert.ok(lines.some((l) => l.startsWith(lb.Name) && l.includes(String(lb.LoadBalancerId))));
      },
    ],
    [
      ['load-balancer', String(lb.LoadBalancerId)],
      'GROUP / ORIGIN',
      (d, lines) => {
        assert.equal((d as { LoadBalancerId: number }).LoadBalancerId, lb.LoadBalancerId);
        assert.equal(lines.length, 1 + lb.OriginGroups.reduce((n, g) => n + 1 + g.Origins.length, 0));
        for (const type of ['Standard', 'Storage', 'EdgeScript', 'MagicContainer'])
          assert.ok(
            lines.some((l) => l.includes(type)),
            type,
          );
      },
    ],
    [
      ['pull-zones'],
      'ID',
      (d, lines) => {
        assert.equal((d as unknown[]).length, emu.world.pullZones.length);
        assert.ok(lines.slice(1).every((l) => /\s(yes|no)\s+(yes|no)\s+(yes|no)\s/.test(l)));
      },
    ],
  ];
  await Promise.all(
    cases.map(async ([args, header, check]) => {
      const [data, lines] = await Promise.all([json(...args), table(...args)]);
      assert.ok(lines[0]!.startsWith(header), `${args.join(' ')}: ${lines[0]}`);
      check(data, lines);
    }),
  );
});
