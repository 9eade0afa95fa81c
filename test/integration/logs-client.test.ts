import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator, apiFor } from '../helpers/emulator';
import { configureLoggingRateLimit, generatedLogRecords, loggingStats } from '../../src/emulator/logging/index';
import { LogsApi } from '../../src/api/logs/index';
import { createApi } from '../../src/api/index';
import { ApiError } from '../../src/api/errors';
import { v1Date } from '../../src/api/logs/v1';
import { LogPageReader } from '../../src/log-engine/index';

const T0 = Date.UTC(2026, 7, 8, 9, 30, 0);
const emu = await useEmulator({ seed: 51, now: () => T0, logRate: 2 });
// The client runs on the emulator's frozen clock too (retention checks are done before sending).
const api = { logs: new LogsApi(apiFor(emu).logging, { now: () => T0, budgetOptions: { now: Date.now }, pageReader: new LogPageReader() }) };
const [ZONE] = emu.info.pullZoneIds as [number];
const H = 3_600_000;
const FROM = T0 - 2 * H;
const TO = T0 - 10 * 60_000;
const generated = generatedLogRecords(emu.world, ZONE, FROM, TO) as { requestId: string; statusCode: number }[];
// With time frozen the server's 10 s window never moves on: this file is about the client, not the limit.
configureLoggingRateLimit(emu.world, { limit: 1_000_000, windowMs: 10_000 });

test('query: one typed page, the server window and order', async () => {
  const page = await api.logs.query(ZONE, { from: FROM, to: TO, order: 'asc', limit: 20 });
  assert.equal(page.entries.length, 20);
  assert.deepEqual(
    page.entries.map((e) => e.requestId),
    generated.slice(0, 20).map((g) => g.requestId),
  );
  assert.equal(page.from, FROM);
  assert.equal(page.to, TO);
  assert.equal(page.order, 'asc');
  assert.equal(page.hasMore, true);
  assert.equal(page.skipped, 0);
  assert.deepEqual(
    page.times,
    page.entries.map((e) => Date.parse(e.timestamp)),
  );
});

test('fetchAll: offset paging while hasMore, pinned to one window', async () => {
  const r = await api.logs.fetchAll(ZONE, { from: FROM, to: TO, order: 'asc', limit: 2000, status: '2xx' }, { maxRecords: 1_000_000 });
  const want = generated.filter((g) => g.statusCode < 300).map((g) => g.requestId);
  assert.deepEqual(
    r.entries.map((e) => e.requestId),
    want,
  );
  assert.equal(r.hasMore, false);
  assert.ok(want.length > 4000, `${want.length} records`);
  assert.equal(r.requests, Math.ceil(want.length / 2000) + (want.length % 2000 === 0 ? 1 : 0));
  const capped = await api.logs.fetchAll(ZONE, { from: FROM, to: TO, order: 'desc', limit: 300 }, { maxRecords: 700 });
  assert.equal(capped.entries.length, 700);
  assert.equal(capped.hasMore, true);
  assert.deepEqual(
    capped.entries.map((e) => e.requestId),
    [...generated]
      .reverse()
      .slice(0, 700)
      .map((g) => g.requestId),
  );
});

test('invalid input is refused before anything is sent', async () => {
  const before = loggingStats(emu.world).zone(ZONE).requests;
  for (const q of [{ status: '5xz' }, { limit: 0 }, { search: 'x'.repeat(129) }, { from: T0 - 4 * 24 * H }]) {
    await assert.rejects(api.logs.query(ZONE, q), (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input');
  }
  await assert.rejects(api.logs.v1Day(ZONE, '2026-08-08'), /MM-dd-yy/);
  assert.equal(loggingStats(emu.world).zone(ZONE).requests, before);
});

test('v1Day: the day file parsed into the same records as v2', async () => {
  const day = await api.logs.v1Day(ZONE, v1Date(T0), { order: 'asc' });
  assert.equal(day.skipped, 0);
  const v2 = await api.logs.fetchAll(ZONE, { from: Date.UTC(2026, 7, 8), order: 'asc', limit: 10_000 }, { maxRecords: 1_000_000 });
  assert.deepEqual(
    day.entries.map((e) => e.requestId),
    v2.entries.map((e) => e.requestId),
  );
  const byId = new Map(v2.entries.map((e) => [e.requestId, e]));
  for (const e of day.entries.slice(0, 200)) {
    const w = byId.get(e.requestId)!;
    for (const k of [
      'timestamp',
      'statusCode',
      'bytesSent',
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
      assert.equal(e[k], w[k], k);
    }
  }
  const five = await api.logs.v1Day(ZONE, v1Date(T0), { status: '5xx', order: 'desc', end: 5 });
  assert.equal(five.entries.length, 5);
  assert.ok(five.entries.every((e) => e.statusCode >= 500));
});

test('API errors are ApiErrors with the platform code', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  await assert.rejects(api.logs.query(off.Id), (e: unknown) => e instanceof ApiError && e.status === 404 && e.code === 'logging_disabled');
});

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (payload: Record<string, unknown>) => `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64(payload)}.c2ln`;

test('a configured bearer JWT is sent instead of the API key', async () => {
  const withToken = createApi({
    baseUrl: emu.info.baseUrl,
    loggingUrl: emu.info.loggingUrl,
    apiKey: 'wrong-key',
    loggingToken: jwt({ exp: T0 / 1000 + 3600 }),
  });
  after(() => withToken.close());
  const page = await withToken.logs.query(ZONE, { limit: 3 });
  assert.equal(page.entries.length, 3);
  const expired = createApi({
    baseUrl: emu.info.baseUrl,
    loggingUrl: emu.info.loggingUrl,
    apiKey: emu.info.accessKey,
    loggingToken: jwt({ exp: T0 / 1000 - 1 }),
  });
  after(() => expired.close());
  await assert.rejects(expired.logs.query(ZONE, { limit: 1 }), (e: unknown) => e instanceof ApiError && e.status === 403 && /expired/.test(e.message));
});
