import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { logEntry } from '../helpers/log-entry';
import { openZone } from '../helpers/logs-screen';
import { startBurrow } from '../helpers/pty';
import { heldBackV1Day } from '../helpers/v1-origin';

// `v` on a past day in the console: the day shows while it is read, with its progress; ctrl-c and
// esc stop the read (the console stays, what was read stays); r reads the day again. The logging
// origin is this test's own: it sends the first part of the file and holds the rest back.

const emu = await useEmulator({ seed: 9 });
const zone = emu.world.pullZones.find((z) => z.EnableLogging)!;
const LINES = 4000;
const HEAD = 1500;
const entry = (i: number) =>
  logEntry({
    timestamp: new Date(Date.now() - 30 * 3_600_000 + i * 1000).toISOString(),
    pullZoneId: zone.Id,
    requestId: (i + 1).toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    statusCode: 200,
    bytesSent: 1000 + i,
    remoteIp: '10.2.3.4',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'cdn.example',
    path: `/v1-read/${i}`,
    url: `https://cdn.example/v1-read/${i}`,
    userAgent: 'curl/8',
  });
// the rest never comes: the reader stops first
const origin = await heldBackV1Day({ zoneId: zone.Id, entries: Array.from({ length: LINES }, (_, i) => entry(i)), heldBackFrom: HEAD });

test('v1 day: shown while read with its progress; ctrl-c and esc stop the read and keep it; the console stays', async () => {
  const app = startBurrow([], { env: envFor(emu, { BURROW_LOGGING_URL: origin.url }), cols: 120, rows: 30 });
  await openZone(app, zone.Id, new RegExp(`zone ${zone.Id} `));
  await app.press('logs.v1');
  await app.waitFor('v1 day (MM-dd-yy, UTC):');
  await app.press('prompt.apply');

  const share = Math.floor((origin.headBytes / origin.totalBytes) * 100);
  let screen = await app.waitFor(new RegExp(`reading v1 day \\S+ \\(UTC\\) · ${share}% · `));
  assert.match(screen, /1,500 lines/);
  assert.match(screen, /esc: stop reading \(keeps what was read\)/);
  screen = await app.waitFor(/\/v1-read\/1499\b/);
  assert.match(screen, /reading v1 day/, 'the newest record read is on screen while the day is read');

  await app.press('app.interrupt');
  screen = await app.waitFor(/read stopped at \d+%/);
  assert.doesNotMatch(screen, /Quit burrow\?/, 'ctrl-c stopped the read, it did not ask to quit');
  assert.match(screen, /1,500 shown/);
  assert.match(screen, /\/v1-read\/1499\b/);

  await app.press('screen.refresh');
  await app.waitFor(/reading v1 day .* 1,500 lines/);
  await app.press('app.back');
  await app.waitFor(/read stopped at \d+%/);
  await app.press('app.back');
  await app.waitForGone('· v1 file ·');
  await app.waitFor('· window 15m ·');
  await app.press('app.quit');
  assert.equal((await app.exited).exitCode, 0);
});
