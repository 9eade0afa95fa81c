import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPoller, sharedPoller, type Timers } from '../../src/state/poller';

function manualTimers() {
  let fn: (() => void) | null = null;
  const timers: Timers = {
    setInterval: (f) => {
      fn = f;
      return 1;
    },
    clearInterval: () => {
      fn = null;
    },
  };
  return { timers, tick: () => fn?.() };
}

const flush = () => new Promise((r) => setImmediate(r));

function setup() {
  const t = manualTimers();
  let requests = 0;
  const changes: boolean[] = [];
  const shared = sharedPoller({
    create: () => createPoller({ intervalMs: 1000, timers: t.timers, task: async () => ++requests }),
    onPausedChange: (paused) => changes.push(paused),
  });
  return { t, shared, changes, requests: () => requests };
}

test('the pause flag lives in the shared poller: set before any view watches, the poller starts paused', async () => {
  const { t, shared, changes, requests } = setup();
  assert.equal(shared.paused, false);
  shared.setPaused(true);
  shared.setPaused(true);
  assert.deepEqual(changes, [true], 'told once per change');
  const leave = shared.watch();
  await flush();
  assert.equal(shared.current!.state.paused, true);
  assert.equal(requests(), 0, 'no request while paused');
  t.tick();
  assert.equal(requests(), 0);
  assert.equal(shared.togglePaused(), false, 'toggle returns the new flag');
  assert.deepEqual(changes, [true, false]);
  await flush();
  assert.equal(requests(), 1, 'resuming refreshes at once');
  leave();
});

test('togglePaused while watched pauses and resumes the running poller; the flag outlives the last view', async () => {
  const { t, shared, changes, requests } = setup();
  const leave = shared.watch();
  await flush();
  assert.equal(requests(), 1, 'watching starts polling');
  assert.equal(shared.togglePaused(), true);
  assert.equal(shared.current!.state.paused, true);
  t.tick();
  await flush();
  assert.equal(requests(), 1, 'a tick while paused is skipped');
  leave();
  assert.equal(shared.current!.state.running, false);
  const again = shared.watch();
  await flush();
  assert.equal(shared.paused, true);
  assert.equal(shared.current!.state.paused, true, 'a view that comes back finds it paused');
  assert.equal(requests(), 1);
  shared.setPaused(false);
  await flush();
  assert.equal(requests(), 2);
  assert.deepEqual(changes, [true, false]);
  again();
});
