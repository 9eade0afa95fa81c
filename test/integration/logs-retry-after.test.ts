import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { configureLoggingRateLimit, loggingStats } from '../../src/emulator/logging/index';
import { EmulatorClock } from '../../src/emulator/clock';
import { LogsApi } from '../../src/api/logs/index';
import { ApiError, parseRetryAfter } from '../../src/api/errors';

// The emulator's clock stands still, and so does the budget's: the waits are exact.
const T0 = Date.parse('2026-03-02T10:00:00Z');
const clock = new EmulatorClock(T0, { running: false });
const emu = await useEmulator({ seed: 3, logRate: 1, now: clock.now });
const [ZONE] = emu.info.pullZoneIds as [number];

test('a 429 with Retry-After: the zone backs off exactly that long (not a jittered guess); without one, jitter', async () => {
  configureLoggingRateLimit(emu.world, { limit: 1, windowMs: 4000 });
  // a client budget far above the server's limit: only the server's answer holds it back
  const logs = new LogsApi(apiFor(emu).logging, {
    now: clock.now,
    budgetOptions: { limit: 100, now: clock.now, backoffBaseMs: 50, backoffCapMs: 100, random: () => 0.5 },
  });
  await logs.query(ZONE, { limit: 1 }, { retries: 0 });
  clock.advance(1500);
  const refused = await logs.query(ZONE, { limit: 1 }, { retries: 0 }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(refused instanceof ApiError && refused.status === 429, String(refused));
  // the first request leaves the server's window 2.5 s from now: "Retry-After: 3"
  assert.equal(refused.retryAfterMs, 3000);
  const state = logs.budget.state(String(ZONE));
  assert.equal(state.backoffUntil, clock.now() + 3000, 'the budget waits what the server asked, not 25-50 ms of jitter');
  assert.equal(loggingStats(emu.world).zone(ZONE).rateLimited, 1);

  // a 429 without the header (as the platform's docs describe it): the jittered backoff
  const before = clock.now();
  const wait = logs.budget.rateLimited('other');
  assert.equal(logs.budget.state('other').backoffUntil, before + wait);
  assert.ok(wait >= 5 && wait <= 100, `jittered wait ${wait}`);
});

test('Retry-After values: delta-seconds or an HTTP date; unreadable ones are ignored; huge ones capped', () => {
  const now = Date.parse('2026-03-02T10:00:00Z');
  assert.equal(parseRetryAfter('3', now), 3000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Mon, 02 Mar 2026 10:00:07 GMT', now), 7000);
  assert.equal(parseRetryAfter('Mon, 02 Mar 2026 09:00:00 GMT', now), 0, 'a date in the past: no wait');
  assert.equal(parseRetryAfter('99999', now), 10 * 60_000);
  for (const bad of [null, '', 'soon', '-5', '1e3']) assert.equal(parseRetryAfter(bad, now), null, String(bad));
});
