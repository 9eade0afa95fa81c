import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';
import { videoLibraries } from '../../src/emulator/management/video-libraries';
import { shieldState } from '../../src/emulator/management/shield';

// `burrow get` through the real binary: secrets masking and bad ids (run `npm run build` first).

const emu = await useEmulator();
const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-get-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, ...envFor(emu) };

const burrow = (...args: string[]) => runBurrow(args, { env });
const json = async (...args: string[]) => {
  const r = await burrow('get', ...args, '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as unknown;
};

const shield = shieldState(emu.world);
const libs = videoLibraries(emu.world);

test('video library keys are masked in JSON and NDJSON unless --show-secrets', async () => {
  const first = libs[0]!;
  const masked = (await json('video-libraries')) as Record<string, string>[];
  const shown = masked.find((l) => Number(l.Id) === first.Id)!;
  for (const key of ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey'] as const) {
    assert.equal(shown[key], `••••••••${first[key].slice(-4)}`, key);
  }
  const ndjson = await burrow('get', 'video-libraries', '-o', 'ndjson');
  assert.equal(ndjson.code, 0);
  assert.equal(ndjson.stdout.trimEnd().split('\n').length, libs.length);
  assert.ok(!ndjson.stdout.includes(first.ApiKey) && !ndjson.stdout.includes(first.ReadOnlyApiKey));
  const revealed = await burrow('get', 'video-libraries', '-o', 'json', '--show-secrets');
  const lib = (JSON.parse(revealed.stdout) as Record<string, string>[]).find((l) => Number(l.Id) === first.Id)!;
  assert.equal(lib.ApiKey, first.ApiKey);
  assert.equal(lib.ReadOnlyApiKey, first.ReadOnlyApiKey);
});

test('bad ids: a malformed one is a usage error (exit 2) before any request; an unknown one names the resource (exit 1)', async () => {
  const before = emu.faultCounters().management.requests;
  const cases: [string[], number, RegExp][] = [
    [['load-balancer', 'abc'], 2, /load balancer ID must be a positive whole number \(got "abc"\)/],
    [['api-guardian', '2147483648'], 2, /shield zone ID must be a positive whole number up to 2147483647/],
    [['region-settings', 'a/b'], 2, /APP must be an application id/],
  ];
  for (const [args, code, message] of cases) {
    const r = await burrow('get', ...args);
    assert.equal(r.code, code, args.join(' '));
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
  assert.equal(emu.faultCounters().management.requests, before, 'no request was sent for malformed ids');
  const unknownLb = await burrow('get', 'load-balancer', '1');
  assert.equal(unknownLb.code, 1);
  assert.match(unknownLb.stderr, /load balancer 1 was not found \(404 loadBalancer.not_found\)/);
  const unknownZone = await burrow('get', 'api-guardian', '77');
  assert.equal(unknownZone.code, 1);
  assert.match(unknownZone.stderr, /404 Not Found shield_zone.not_found: Shield zone 77 was not found/);
  const basic = shield.zones.find((z) => z.planType === 0)!;
  const plan = await burrow('get', 'api-guardian', String(basic.shieldZoneId));
  assert.equal(plan.code, 1);
  assert.match(plan.stderr, /403 Forbidden invalid_plan_type.api_guardian/);
});
