import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { RateBudget } from '../../src/api/rate-limit';

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (let i = 0; i < times.length; i++) {
    let n = 0;
    for (let j = i; j < times.length && times[j]! < times[i]! + windowMs; j++) n++;
    best = Math.max(best, n);
  }
  return best;
}

/**
 * node's fake setTimeout and Date for this test: the budget's waits pass when the test moves the
 * clock, not in real time. Create the budget after this (it reads Date.now as its clock).
 */
function fakeTime(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  const settle = () => new Promise((r) => setImmediate(r));
  return {
    /** Moves time on 1 ms at a time (so each timer sees its own moment) until `done` or `limitMs`. */
    async runUntil(done: () => boolean, limitMs = 60_000): Promise<void> {
      for (let ms = 0; !done(); ms++) {
        if (ms > limitMs) assert.fail(`not done after ${limitMs} ms of fake time`);
        t.mock.timers.tick(1);
        await settle();
      }
    },
    async advance(ms: number): Promise<void> {
      t.mock.timers.tick(ms);
      await settle();
    },
  };
}

test('sliding window: never more than the limit in any window, callers served in order', async (t) => {
  const time = fakeTime(t);
  const budget = new RateBudget({ limit: 5, windowMs: 300 });
  const grants: { i: number; at: number }[] = [];
  const all = Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      budget.acquire('z').then((done) => {
        grants.push({ i, at: Date.now() });
        done();
      }),
    ),
  );
  await time.runUntil(() => grants.length === 12);
  await all;
  assert.equal(grants.length, 12);
  assert.deepEqual(
    grants.map((g) => g.i),
    [...Array(12).keys()],
    'first come, first served',
  );
  assert.ok(
    maxInWindow(
      grants.map((g) => g.at),
      300,
    ) <= 5,
    `grants: ${grants.map((g) => g.at - grants[0]!.at).join(',')}`,
  );
  // 12 requests at 5 per 300 ms cannot take less than two full windows.
  assert.ok(grants[11]!.at - grants[0]!.at >= 600, 'the budget made callers wait');
  const s = budget.state('z');
  assert.equal(s.granted, 12);
  assert.ok(s.used <= 5);
});

test('keys are independent', async () => {
  const budget = new RateBudget({ limit: 2, windowMs: 10_000 });
  await budget.acquire('a');
  await budget.acquire('a');
  let third = false;
  const pending = budget.acquire('a').then(
    () => (third = true),
    () => undefined,
  );
  // with one budget for both keys this would wait the 10 s window out
  await budget.acquire('b');
  assert.equal(third, false, 'key a is out of budget for 10 s');
  assert.equal(budget.state('a').waiting, 1);
  budget.close();
  await pending;
});

test('429: backoff with full jitter, doubling per consecutive 429, capped, visible, reset by a success', () => {
  let now = 1_000_000;
  let roll = 1;
  const budget = new RateBudget({ limit: 25, windowMs: 10_000, backoffBaseMs: 1000, backoffCapMs: 8000, now: () => now, random: () => roll });
  const changes: string[] = [];
  budget.subscribe((k) => changes.push(k));
  assert.equal(budget.rateLimited('z'), 1000);
  assert.equal(budget.rateLimited('z'), 2000);
  assert.equal(budget.rateLimited('z'), 4000);
  assert.equal(budget.rateLimited('z'), 8000);
  assert.equal(budget.rateLimited('z'), 8000, 'capped');
  let s = budget.state('z');
  assert.equal(s.backoffUntil, now + 8000);
  assert.equal(s.backoffAttempt, 5);
  assert.equal(s.rateLimited, 5);
  assert.ok(changes.length >= 5, 'subscribers are told');
  budget.succeeded('z');
  assert.equal(budget.state('z').backoffAttempt, 0);
  roll = 0;
  now += 60_000;
  assert.equal(budget.rateLimited('z'), 100, 'full jitter can wait almost nothing, with a floor');
  roll = 0.5;
  assert.equal(budget.rateLimited('z'), 1000, 'half of the 2 s ceiling');
  s = budget.state('z');
  assert.equal(s.backoffUntil, now + 1000);
  budget.close();
});

test('callers wait out a backoff', async (t) => {
  const time = fakeTime(t);
  const budget = new RateBudget({ limit: 25, windowMs: 10_000, backoffBaseMs: 200, random: () => 1 });
  await budget.acquire('z');
  budget.rateLimited('z');
  const started = Date.now();
  let grantedAt = 0;
  void budget.acquire('z').then(() => (grantedAt = Date.now()));
  await time.runUntil(() => grantedAt > 0);
  assert.ok(grantedAt - started >= 200, `waited ${grantedAt - started} ms`);
  assert.equal(budget.state('z').backoffUntil, null, 'over');
});

test('a slot counts until a window after its request finished (in flight, it never expires)', async (t) => {
  const time = fakeTime(t);
  const budget = new RateBudget({ limit: 1, windowMs: 200 });
  const first = await budget.acquire('z');
  const granted = Date.now();
  let second = 0;
  const next = budget.acquire('z').then((done) => {
    second = Date.now();
    done();
  });
  await time.advance(350);
  assert.equal(second, 0, 'a slow request keeps its slot past the window');
  assert.equal(budget.state('z').used, 1);
  const finished = Date.now();
  first();
  first(); // twice is harmless
  await time.advance(199);
  assert.equal(second, 0, 'not within the window after it finished');
  await time.runUntil(() => second > 0);
  await next;
  assert.ok(second - finished >= 200, `granted ${second - finished} ms after the first finished`);
  assert.ok(second - granted >= 550);
});

test('an aborted caller leaves the queue; the others go on', async (t) => {
  const time = fakeTime(t);
  const budget = new RateBudget({ limit: 1, windowMs: 200 });
  (await budget.acquire('z'))();
  const ctl = new AbortController();
  const aborted = budget.acquire('z', ctl.signal);
  const next = budget.acquire('z');
  ctl.abort();
  await assert.rejects(aborted, (e: unknown) => e instanceof ApiError && e.kind === 'aborted');
  assert.equal(budget.state('z').waiting, 1);
  await time.runUntil(() => budget.state('z').granted === 2);
  await next;
});

test('close() rejects every waiting caller', async () => {
  const budget = new RateBudget({ limit: 1, windowMs: 60_000 });
  await budget.acquire('z');
  const waiting = budget.acquire('z');
  budget.close();
  await assert.rejects(waiting, /cancelled/);
});
