import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { resolveSettings } from '../../src/config/settings';
import { polledListStore } from '../../src/state/polled-slice';
import { createUiStore } from '../../src/state/ui-store';
import { until } from '../helpers/wait';
import { countCalls, manualTimers } from '../helpers/manual-timers';

// polledListStore: the whole store of a simple list screen (rows, loaded at, error, paused,
// refresh), here over the pull zones of the emulator.

const emu = await useEmulator();
const api = apiFor(emu);

function setup(fail = false) {
  const zones = countCalls(api.pullZones);
  const timers = manualTimers();
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 1 };
  const create = polledListStore((a, signal) => (fail ? Promise.reject(new Error('the platform is down')) : a.pullZones.list(signal)));
  const store = create({ api: { ...api, pullZones: zones.proxy }, settings, ui, now: Date.now, timers });
  return { zones, timers, ui, store };
}

test('rows on watch, a request per tick while watched, none once unwatched or paused; refresh reads now', async () => {
  const { zones, timers, ui, store } = setup();
  assert.equal(store.getState().loadedAt, null);
  const stop = store.getState().watch();
  await until('the rows', () => store.getState().loadedAt !== null);
  assert.deepEqual(store.getState().rows, await api.pullZones.list());
  assert.ok(ui.getState().request.lastSuccessAt !== null, 'the status bar knows the age of the data');
  const n = zones.calls();
  let answers = 0;
  store.subscribe((s, prev) => void (s.rows !== prev.rows && answers++));
  timers.tick();
  await until('an answer to the tick', () => zones.calls() === n + 1 && answers === 1);

  store.getState().togglePause();
  assert.equal(store.getState().paused, true);
  assert.equal(ui.getState().request.paused, true);
  const paused = zones.calls();
  timers.tick();
  assert.equal(zones.calls(), paused, 'no request while paused');
  store.getState().togglePause();
  await until('a refresh on resume', () => zones.calls() > paused);

  stop();
  assert.equal(timers.armed, 0, 'unwatched: no timer');
  const at = store.getState().loadedAt!;
  await store.getState().refresh();
  assert.ok(store.getState().loadedAt! >= at && zones.calls() > paused + 1, 'refresh reads at once without a poller');
});

test('an error is kept in the store and the status bar; the rows stay empty', async () => {
  const { ui, store } = setup(true);
  await store.getState().refresh();
  assert.equal(store.getState().error, 'the platform is down');
  assert.equal(store.getState().loadedAt, null);
  assert.deepEqual(store.getState().rows, []);
  assert.equal(ui.getState().request.lastError, 'the platform is down');
});
