import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { formatV1Line } from '../../src/api/logs/v1';
import type { LogEntry } from '../../src/api/logs/entry';

// `v` on a past day in the console: the day shows while it is read, with its progress; ctrl-c and
// esc stop the read (the console stays, what was read stays); r reads the day again. The logging
// origin is this test's own: it sends the first part of the file and holds the rest back.

const emu = await useEmulator({ seed: 9 });
const zone = emu.world.pullZones.find((z) => z.EnableLogging)!;
const LINES = 4000;
const HEAD = 1500;
const entry = (i: number): LogEntry => ({
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
  referer: null,
  bodyBytesSent: null,
  contentRange: null,
  authorizationHeader: null,
  ja4Fingerprint: null,
  asn: null,
  asnOrganization: null,
});
const lines = Array.from({ length: LINES }, (_, i) => `${formatV1Line(entry(i))}\n`);
const head = Buffer.from(lines.slice(0, HEAD).join(''));
const tail = Buffer.from(lines.slice(HEAD).join(''));

const origin = http.createServer((req, res) => {
  if (!/^\/\d\d-\d\d-\d\d\/\d+\.log/.test(req.url ?? '')) {
    res.writeHead(503).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(head.length + tail.length) });
  res.write(head);
  // the rest never comes: the reader stops first
});
await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
after(() => {
  origin.closeAllConnections();
  origin.close();
});

test('v1 day: shown while read with its progress; ctrl-c and esc stop the read and keep it; the console stays', async () => {
  const env = envFor(emu, { BURROW_LOGGING_URL: `http://127.0.0.1:${(origin.address() as AddressInfo).port}` });
  const app = startBurrow([], { env, cols: 120, rows: 30 });
  await app.waitFor('Screens');
  await app.press(':');
  await app.type(`logs ${zone.Id}`);
  await app.press('enter');
  await app.waitFor(`zone ${zone.Id} `);
  await app.press('v');
  await app.waitFor('v1 day (MM-dd-yy, UTC):');
  await app.press('enter');

  const share = Math.floor((head.length / (head.length + tail.length)) * 100);
  let screen = await app.waitFor(new RegExp(`reading v1 day \\S+ \\(UTC\\) · ${share}% · `));
  assert.match(screen, /1,500 lines/);
  assert.match(screen, /esc: stop reading \(keeps what was read\)/);
  screen = await app.waitFor(/\/v1-read\/1499\b/);
  assert.match(screen, /reading v1 day/, 'the newest record read is on screen while the day is read');

  await app.press('ctrl-c');
  screen = await app.waitFor(/read stopped at \d+%/);
  assert.doesNotMatch(screen, /Quit burrow\?/, 'ctrl-c stopped the read, it did not ask to quit');
  assert.match(screen, /1,500 shown/);
  assert.match(screen, /\/v1-read\/1499\b/);

  await app.press('r');
  await app.waitFor(/reading v1 day .* 1,500 lines/);
  await app.press('esc');
  await app.waitFor(/read stopped at \d+%/);
  await app.press('esc');
  await app.waitForGone('· v1 file ·');
  await app.waitFor('· window 15m ·');
  await app.press('q');
  assert.equal((await app.exited).exitCode, 0);
});
