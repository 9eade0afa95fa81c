import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { spawnBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { parseV1, v1Date } from '../../src/api/logs/v1';
import { EmulatorClock } from '../../src/emulator/clock';

// `burrow logs --v1` without --limit streams the whole day to stdout as it is read (the built binary).

const clock = new EmulatorClock(Date.now());
const emu = await useEmulator({ seed: 9, logRate: 3, now: clock.now });
const zone = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
const day = v1Date(clock.now() - 86_400_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-v1-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = {
  PATH: process.env.PATH ?? '',
  TZ: 'UTC',
  HOME: dir,
  XDG_CONFIG_HOME: path.join(dir, 'cfg'),
  XDG_STATE_HOME: path.join(dir, 'state'),
  ...envFor(emu),
};
const burrow = (args: string[]) => spawnBurrow(args, { env, timeoutMs: 60_000 }).done;

const raw = await request(`${emu.info.loggingUrl}/${day}/${zone}.log?order=asc`, { headers: { AccessKey: emu.info.accessKey } });
const whole = parseV1(await raw.body.text(), zone);

test('--v1 without --limit: every record of the day, oldest first, as ndjson', async () => {
  assert.ok(whole.entries.length > 5_000, `${whole.entries.length} records`);
  const r = await burrow(['logs', String(zone), '--v1', '--date', day, '-o', 'ndjson']);
  assert.equal(r.code, 0, r.stderr);
  const ids = r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { requestId: string }).requestId);
  assert.equal(ids.length, whole.entries.length);
  assert.deepEqual(
    ids,
    whole.entries.map((e) => e.requestId),
  );
  assert.equal(r.stderr, '');
});

test('--v1 --country without --limit: the matching records of the whole day; with --limit the newest N', async () => {
  const want = whole.entries.filter((e) => e.countryCode === 'DE').map((e) => e.requestId);
  assert.ok(want.length > 10);
  const all = await burrow(['logs', String(zone), '--v1', '--date', day, '--country', 'DE', '-o', 'ndjson']);
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(
    all.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { requestId: string }).requestId),
    want,
  );
  const few = await burrow(['logs', String(zone), '--v1', '--date', day, '--country', 'DE', '--limit', '7', '-o', 'ndjson']);
  assert.equal(few.code, 0, few.stderr);
  assert.deepEqual(
    few.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { requestId: string }).requestId),
    want.slice(-7),
  );
  assert.match(few.stderr, new RegExp(`showing the newest 7 of ${want.length} matching records`));
});
