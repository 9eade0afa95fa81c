import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { generatedLogRecords } from '../../src/emulator/logging/index';

// Local time by default, UTC with --utc, BURROW_UTC=1 or `utc: true` in the config file: the
// built binary run with TZ set, so local and UTC differ.

const emu = await useEmulator({ seed: 41, logRate: 10, ingestDelayMs: 500 });
const [ZONE] = emu.info.pullZoneIds as [number];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-utc-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: dir,
  XDG_CONFIG_HOME: path.join(dir, 'cfg'),
  XDG_STATE_HOME: path.join(dir, 'state'),
  ...envFor(emu),
  ...extra,
});
const burrow = async (args: string[], extra: Record<string, string> = {}) => {
  const r = await runBurrow(args, { env: env(extra), timeoutMs: 20_000 });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
};

/** What Intl says the time is in a zone: "2026-11-24T09:05:30.123". */
function wallClock(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${String(ms % 1000).padStart(3, '0')}`;
}

/** "-05:00": the zone's offset at that time, as Intl knows it. */
function offset(ms: number, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(ms).find((p) => p.type === 'timeZoneName')!.value;
  return name.replace('GMT', '');
}

// A finished window in the past: every record in it is visible, so the answer is exact.
const FROM = Date.now() - 40 * 60_000;
const TO = Date.now() - 39 * 60_000;
const window = ['logs', String(ZONE), '--from', new Date(FROM).toISOString(), '--to', new Date(TO).toISOString(), '--limit', '5'];
const expected = (generatedLogRecords(emu.world, ZONE, FROM, TO) as { timestamp: string }[])
  .map((r) => Date.parse(r.timestamp))
  .sort((a, b) => a - b)
  .slice(-5);

test('logs -o text: the TIME column in the local zone (TZ) by default; --utc, BURROW_UTC=1 and utc: true print UTC; ndjson stays ISO UTC', async () => {
  assert.equal(expected.length, 5);
  const times = (out: string) =>
    out
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]);

  const ny = times(await burrow([...window, '-o', 'text'], { TZ: 'America/New_York' }));
  assert.deepEqual(
    ny,
    expected.map((t) => `${wallClock(t, 'America/New_York')}${offset(t, 'America/New_York')}`),
  );
  assert.ok(ny.every((t) => /-0[45]:00$/.test(t!)));

  const tokyo = times(await burrow([...window, '-o', 'text'], { TZ: 'Asia/Tokyo' }));
  assert.deepEqual(
    tokyo,
    expected.map((t) => `${wallClock(t, 'Asia/Tokyo')}+09:00`),
  );

  const utc = expected.map((t) => new Date(t).toISOString());
  assert.deepEqual(times(await burrow(['--utc', ...window, '-o', 'text'], { TZ: 'America/New_York' })), utc);
  assert.deepEqual(times(await burrow([...window, '-o', 'text'], { TZ: 'America/New_York', BURROW_UTC: '1' })), utc);
  const config = path.join(dir, 'utc-config.yaml');
  fs.writeFileSync(config, 'utc: true\n');
  assert.deepEqual(times(await burrow([...window, '-o', 'text'], { TZ: 'America/New_York', BURROW_CONFIG: config })), utc);

  const ndjson = (await burrow([...window, '-o', 'ndjson'], { TZ: 'America/New_York' }))
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { timestamp: string }).timestamp);
  assert.deepEqual(ndjson, utc, 'machine output keeps ISO UTC');

  const bad = await runBurrow([...window], { env: env({ BURROW_UTC: 'maybe' }) });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /BURROW_UTC must be 1 or 0 \(true or false\), got "maybe"/);
});

test('logs --from/--to: a time without a zone is in the display zone (TZ, or UTC with --utc), as the console reads it', async () => {
  const isoWindow = await burrow([...window, '-o', 'ndjson']);
  assert.equal(isoWindow.trim().split('\n').length, 5);
  const textWindow = (zone: string) => [
    'logs',
    String(ZONE),
    '--from',
    wallClock(FROM, zone),
    '--to',
    wallClock(TO, zone).replace('T', ' '),
    '--limit',
    '5',
    '-o',
    'ndjson',
  ];
  assert.equal(await burrow(textWindow('Asia/Tokyo'), { TZ: 'Asia/Tokyo' }), isoWindow);
  assert.equal(await burrow(['--utc', ...textWindow('UTC')], { TZ: 'Asia/Tokyo' }), isoWindow);
  // the UTC wall-clock text read in Tokyo is nine hours earlier: another window
  assert.notEqual(await burrow(textWindow('UTC'), { TZ: 'Asia/Tokyo' }), isoWindow);
  // the console's other forms are taken too, and bad ones say which forms there are
  assert.equal((await burrow(['logs', String(ZONE), '--from', '-41m', '--to', '-39m', '--limit', '1', '-o', 'ndjson'])).trim().split('\n').length, 1);
  const bad = await runBurrow(['logs', String(ZONE), '--from', '2026-02-30 10:00'], { env: env() });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--from "2026-02-30 10:00" has no day 30 in that month: use 14:05 · 14:05:30 · 2026-11-24 14:05/);
});

test('get video-libraries: the CREATED day follows TZ (25 hours apart: every day differs) and --utc', async () => {
  const libraries = JSON.parse(await burrow(['get', 'video-libraries', '-o', 'json'])) as { Name: string; DateCreated: string }[];
  assert.ok(libraries.length >= 3);
  const created = (out: string) =>
    out
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => /\s(\d{4}-\d\d-\d\d)\s/.exec(l)?.[1]);
  const day = (iso: string, timeZone: string) => wallClock(Date.parse(/Z|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`), timeZone).slice(0, 10);
  const east = created(await burrow(['get', 'video-libraries'], { TZ: 'Pacific/Kiritimati' }));
  const west = created(await burrow(['get', 'video-libraries'], { TZ: 'Pacific/Pago_Pago' }));
  assert.deepEqual(
    east,
    libraries.map((l) => day(l.DateCreated, 'Pacific/Kiritimati')),
  );
  assert.deepEqual(
    west,
    libraries.map((l) => day(l.DateCreated, 'Pacific/Pago_Pago')),
  );
  assert.ok(
    east.every((d, i) => d !== west[i]),
    'UTC+14 and UTC-11 are on different days',
  );
  const utcEast = created(await burrow(['--utc', 'get', 'video-libraries'], { TZ: 'Pacific/Kiritimati' }));
  const utcWest = created(await burrow(['get', 'video-libraries', '--utc'], { TZ: 'Pacific/Pago_Pago' }));
  assert.deepEqual(
    utcEast,
    libraries.map((l) => day(l.DateCreated, 'UTC')),
  );
  assert.deepEqual(utcWest, utcEast);
});
