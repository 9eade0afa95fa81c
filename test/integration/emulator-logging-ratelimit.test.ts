import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { loggingStats } from '../../src/emulator/logging/index';
import { v1Date } from '../../src/api/logs/v1';

const T0 = Date.UTC(2026, 7, 8, 14, 0, 0);
let now = T0;
const emu = await useEmulator({ seed: 5, now: () => now, logRate: 1 });
const [A, B] = emu.info.pullZoneIds as [number, number];

async function hit(kind: 'v1' | 'v2', zone: number): Promise<{ status: number; body: string; retryAfter: string | undefined }> {
  const path = kind === 'v2' ? `/v2/pullzones/${zone}/logs?limit=1` : `/${v1Date(now)}/${zone}.log?end=1`;
  const res = await request(`${emu.info.loggingUrl}${path}`, { headers: { AccessKey: emu.info.accessKey } });
  const retryAfter = res.headers['retry-after'];
  return { status: res.statusCode, body: await res.body.text(), retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined };
}

test('the 31st request inside 10 s gets 429 rate_limited; v1 and v2 share the limit; zones do not', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) {
    now = T0 + i * 100; // 30 requests in 3 s
    statuses.push((await hit(i % 2 ? 'v1' : 'v2', A)).status);
  }
  assert.deepEqual(statuses, Array(30).fill(200));
  const over = await hit('v1', A);
  assert.equal(over.status, 429);
  assert.deepEqual(JSON.parse(over.body).error.code, 'rate_limited');
  // the first request (at T0) leaves the window at T0 + 10 s: 7.1 s from now, so 8 whole seconds
  assert.equal(over.retryAfter, '8');
  now = T0 + 9000;
  const later = await hit('v2', A);
  assert.equal(later.status, 429, 'v2 is limited too');
  assert.equal(later.retryAfter, '1');
  assert.equal((await hit('v2', B)).status, 200, 'another zone has its own limit');
  const s = loggingStats(emu.world).zone(A);
  assert.equal(s.accepted, 30);
  assert.equal(s.rateLimited, 2);
  assert.equal(s.v1, 16);
  assert.equal(s.v2, 16);
  assert.equal(loggingStats(emu.world).maxInWindow(A), 30);
});

test('the window slides: a slot frees exactly 10 s after each accepted request', async () => {
  // The first accepted request of the previous test was at T0.
  now = T0 + 10_000 - 1;
  assert.equal((await hit('v2', A)).status, 429, 'still inside the window of the first request');
  now = T0 + 10_000;
  assert.equal((await hit('v2', A)).status, 200, 'the first request left the window');
  assert.equal((await hit('v2', A)).status, 429, 'only one slot freed');
  now = T0 + 10_000 + 100;
  assert.equal((await hit('v1', A)).status, 200, 'the second one left as well');
  assert.ok(loggingStats(emu.world).maxInWindow(A) <= 30, 'never more than 30 accepted in any 10 s');
});

test('rejected requests do not extend the lock-out', async () => {
  now = T0 + 60_000;
  for (let i = 0; i < 30; i++) assert.equal((await hit('v2', B)).status, 200);
  for (let i = 0; i < 20; i++) assert.equal((await hit('v2', B)).status, 429);
  now = T0 + 70_000;
  assert.equal((await hit('v2', B)).status, 200);
});
