import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPoller, type Timers } from '../../src/state/poller';

/** Timers driven by the test: tick() fires the interval callback once. */
function manualTimers() {
  let fn: (() => void) | null = null;
  let cleared = 0;
  const timers: Timers = {
    setInterval: (f) => {
      fn = f;
      return 1;
    },
    clearInterval: () => {
      fn = null;
      cleared += 1;
    },
  };
  return {
    timers,
    tick: () => fn?.(),
    get armed() {
      return fn !== null;
    },
    get cleared() {
      return cleared;
    },
  };
}

/** A task whose calls the test resolves or rejects by hand. */
function manualTask<T>() {
  const calls: { resolve: (v: T) => void; reject: (e: unknown) => void; signal: AbortSignal }[] = [];
  const task = (signal: AbortSignal) => new Promise<T>((resolve, reject) => calls.push({ resolve, reject, signal }));
  return { task, calls };
}

const flush = () => new Promise((r) => setImmediate(r));

test('start runs at once, then once per tick; a tick while a request is in flight is skipped', async () => {
  const t = manualTimers();
  const m = manualTask<number>();
  const seen: number[] = [];
  let clock = 1000;
  const p = createPoller({ intervalMs: 5000, task: m.task, timers: t.timers, now: () => clock, onSuccess: (v) => seen.push(v) });
  p.start();
  assert.equal(m.calls.length, 1, 'first request right away');
  assert.equal(p.state.inFlight, true);
  t.tick();
  t.tick();
  assert.equal(m.calls.length, 1, 'never two requests at once');
  assert.equal(p.state.skipped, 2);
  clock = 2000;
  m.calls[0]!.resolve(7);
  await flush();
  assert.deepEqual(seen, [7]);
  assert.equal(p.state.lastSuccessAt, 2000);
  assert.equal(p.state.inFlight, false);
  t.tick();
  assert.equal(m.calls.length, 2);
  p.stop();
});

test('errors are recorded until the next success', async () => {
  const t = manualTimers();
  const m = manualTask<string>();
  const errors: unknown[] = [];
  let clock = 10;
  const p = createPoller({ intervalMs: 1000, task: m.task, timers: t.timers, now: () => clock, onError: (e) => errors.push(e) });
  p.start();
  m.calls[0]!.resolve('ok');
  await flush();
  clock = 20;
  t.tick();
  m.calls[1]!.reject(new Error('connection refused'));
  await flush();
  assert.equal((p.state.lastError as Error).message, 'connection refused');
  assert.equal(p.state.lastErrorAt, 20);
  assert.equal(p.state.lastSuccessAt, 10, 'the last success is kept');
  assert.equal(errors.length, 1);
  clock = 30;
  t.tick();
  m.calls[2]!.resolve('back');
  await flush();
  assert.equal(p.state.lastError, null);
  assert.equal(p.state.lastSuccessAt, 30);
  p.stop();
});

test('stop aborts the request in flight, drops its result, and clears the timer', async () => {
  const t = manualTimers();
  const m = manualTask<number>();
  const seen: number[] = [];
  const p = createPoller({
    intervalMs: 1000,
    task: m.task,
    timers: t.timers,
    onSuccess: (v) => seen.push(v),
    onError: (e) => seen.push(-1 * Number(Boolean(e))),
  });
  p.start();
  p.stop();
  assert.equal(m.calls[0]!.signal.aborted, true);
  assert.equal(t.armed, false);
  assert.equal(t.cleared, 1);
  m.calls[0]!.resolve(5);
  await flush();
  assert.deepEqual(seen, [], 'neither success nor error after stop');
  t.tick();
  assert.equal(m.calls.length, 1);
  p.start();
  assert.equal(m.calls.length, 2, 'it can start again');
  p.stop();
});

test('pause skips ticks; resume refreshes at once; refreshNow joins a request in flight', async () => {
  const t = manualTimers();
  const m = manualTask<number>();
  const p = createPoller({ intervalMs: 1000, task: m.task, timers: t.timers });
  p.start();
  m.calls[0]!.resolve(1);
  await flush();
  p.pause();
  t.tick();
  assert.equal(m.calls.length, 1);
  assert.equal(p.state.paused, true);
  p.resume();
  assert.equal(m.calls.length, 2);
  const a = p.refreshNow();
  const b = p.refreshNow();
  assert.equal(m.calls.length, 2, 'refreshNow while in flight does not start another request');
  m.calls[1]!.resolve(2);
  await Promise.all([a, b]);
  const c = p.refreshNow();
  assert.equal(m.calls.length, 3, 'after it settled, refreshNow starts a new request');
  m.calls[2]!.resolve(3);
  await c;
  p.stop();
});

test('a zero or negative interval is refused', () => {
  assert.throws(() => createPoller({ intervalMs: 0, task: async () => 1 }), /above 0 ms/);
});
