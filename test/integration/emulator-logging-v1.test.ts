import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { configureLoggingRateLimit, generatedLogRecords } from '../../src/emulator/logging/index';
import { parseV1, v1Date } from '../../src/api/logs/v1';

const T0 = Date.UTC(2026, 7, 8, 3, 0, 0);
let now = T0;
const emu = await useEmulator({ seed: 11, now: () => now, logRate: 1, ingestDelayMs: 20_000 });
configureLoggingRateLimit(emu.world, { limit: 1_000_000, windowMs: 10_000 });
const [ZONE] = emu.info.pullZoneIds as [number];
const D = 86_400_000;
const TODAY = v1Date(T0);
const dayStart = Date.UTC(2026, 7, 8);

async function get(path: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const qs = new URLSearchParams(params).toString();
  const res = await request(`${emu.info.loggingUrl}${path}${qs ? `?${qs}` : ''}`, { headers: { AccessKey: emu.info.accessKey, ...headers } });
  const raw = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, raw, text: raw.toString('utf8') };
}
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

// Visible at T0: everything generated before T0 - 60 s (quiet zones lag up to 3 x 20 s).
const generated = generatedLogRecords(emu.world, ZONE, dayStart, T0 - 60_000) as Record<string, unknown>[];
const ids = (text: string) => lines(text).map((l) => l.split('|').at(-2));

test('a day as 12-field lines, newest first by default, the same records as v2', async () => {
  const a = await get(`/${TODAY}/${ZONE}.log`);
  assert.equal(a.status, 200);
  assert.match(String(a.headers['content-type']), /^text\/plain/);
  const all = lines(a.text);
  assert.ok(all.every((l) => l.split('|').length >= 12));
  const parsed = parseV1(a.text, ZONE);
  assert.equal(parsed.skipped, 0);
  const times = parsed.times;
  assert.deepEqual(
    times,
    [...times].sort((x, y) => y - x),
    'desc by default',
  );
  // Everything generated up to a minute ago is there, with the fields v1 carries.
  const byId = new Map(parsed.entries.map((e) => [e.requestId, e]));
  for (const g of generated) {
    const e = byId.get(g.requestId as string);
    assert.ok(e, `missing ${String(g.requestId)}`);
    for (const k of [
      'timestamp',
      'statusCode',
      'bytesSent',
      'pullZoneId',
      'remoteIp',
      'referer',
      'url',
      'host',
      'path',
      'edgeLocation',
      'userAgent',
      'countryCode',
      'cacheStatus',
    ] as const) {
      assert.equal(e[k], g[k], `${k} of ${String(g.requestId)}`);
    }
  }
  assert.ok(all.length >= generated.length);
  const first = all.at(-1)!.split('|');
  assert.match(first[2]!, /^\d{13}$/, 'timestamp in epoch milliseconds');
});

test('sort and order both choose the order; start/end are line offsets', async () => {
  const desc = ids((await get(`/${TODAY}/${ZONE}.log`)).text);
  const asc = ids((await get(`/${TODAY}/${ZONE}.log`, { sort: 'asc' })).text);
  assert.deepEqual(asc, [...desc].reverse());
  assert.deepEqual(ids((await get(`/${TODAY}/${ZONE}.log`, { order: 'asc' })).text), asc);
  assert.deepEqual(ids((await get(`/${TODAY}/${ZONE}.log`, { start: '10', end: '15' })).text), desc.slice(10, 15));
  assert.deepEqual(ids((await get(`/${TODAY}/${ZONE}.log`, { sort: 'asc', start: '3' })).text), asc.slice(3));
  assert.equal((await get(`/${TODAY}/${ZONE}.log`, { sort: 'sideways' })).status, 400);
  assert.equal((await get(`/${TODAY}/${ZONE}.log`, { start: '-1' })).status, 400);
});

test('status and search filters', async () => {
  const all = lines((await get(`/${TODAY}/${ZONE}.log`)).text);
  const errors = lines((await get(`/${TODAY}/${ZONE}.log`, { status: '404,5xx' })).text);
  assert.ok(errors.length > 0);
  assert.deepEqual(
    errors,
    all.filter((l) => /^[^|]*\|(404|5\d\d)\|/.test(l)),
  );
  const search = lines((await get(`/${TODAY}/${ZONE}.log`, { search: 'WP-LOGIN' })).text);
  assert.ok(search.length > 0);
  assert.deepEqual(
    search,
    all.filter((l) => l.toLowerCase().includes('wp-login')),
  );
});

test('download and gzip', async () => {
  const a = await get(`/${TODAY}/${ZONE}.log`, { download: 'true', end: '5' }, { 'accept-encoding': 'gzip' });
  assert.equal(a.status, 200);
  assert.equal(a.headers['content-disposition'], `attachment; filename="${TODAY}-${ZONE}.log"`);
  assert.equal(a.headers['content-encoding'], 'gzip');
  assert.equal(lines(gunzipSync(a.raw).toString('utf8')).length, 5);
});

test('dates: malformed -> 403; outside retention or in the future -> 404; yesterday is partly kept', async () => {
  for (const bad of ['2026-08-08', '13-01-26', '02-30-26', '8-8-26']) {
    const a = await get(`/${bad}/${ZONE}.log`);
    assert.equal(a.status, 403, bad);
    assert.match(a.text, /MM-dd-yy/);
  }
  assert.equal((await get(`/${v1Date(T0 - 4 * D)}/${ZONE}.log`)).status, 404, 'older than 3 days');
  assert.equal((await get(`/${v1Date(T0 + D)}/${ZONE}.log`)).status, 404, 'tomorrow');
  const edge = await get(`/${v1Date(T0 - 3 * D)}/${ZONE}.log`, { sort: 'asc' });
  assert.equal(edge.status, 200, 'the day retention begins in');
  const t = parseV1(edge.text).times;
  assert.ok(t.length > 0 && t.every((x) => x >= T0 - 3 * D), 'only the retained part of that day');
});

test('zones and auth, as in v2', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  const a = await get(`/${TODAY}/${off.Id}.log`);
  assert.equal(a.status, 404);
  assert.match(a.text, /logging_disabled/);
  assert.equal((await get(`/${TODAY}/999999.log`)).status, 403);
  assert.equal((await get(`/${TODAY}/${ZONE}.txt`)).status, 404);
  const res = await request(`${emu.info.loggingUrl}/${TODAY}/${ZONE}.log`);
  assert.equal(res.statusCode, 401);
  await res.body.dump();
});
