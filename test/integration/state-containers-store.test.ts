import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { createContainersStore } from '../../src/state/containers-store';
import { DomainStores } from '../../src/state/domain-stores';
import { createUiStore } from '../../src/state/ui-store';
import { resolveSettings } from '../../src/config/settings';
import { createApi } from '../../src/api/index';
import { until } from '../helpers/wait';
import { countCalls, manualTimers } from '../helpers/manual-timers';

test('the containers store polls the limits while watched, reports to the ui store, and stops', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const containers = countCalls(api.containers);
  const timers = manualTimers();
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 1 };
  const stores = new DomainStores({ api: { ...api, containers: containers.proxy }, settings, ui, now: Date.now, timers });
  const store = stores.get(createContainersStore);
  assert.equal(stores.get(createContainersStore), store, 'one store per session');

  const unwatch = store.getState().watchLimits();
  await until('limits', () => store.getState().limits !== null && !store.getState().limitsLoading);
  assert.deepEqual(store.getState().limits, await api.containers.getLimits());
  assert.ok(ui.getState().request.lastSuccessAt !== null);
  const before = emu.faultCounters().management.requests;
  timers.tick();
  await until('a second poll', () => emu.faultCounters().management.requests >= before + 1, 3000);
  unwatch();
  assert.equal(timers.armed, 0, 'unwatching disarms the timer');
  const stopped = containers.calls();
  timers.tick();
  assert.equal(containers.calls(), stopped, 'no requests once unwatched (hidden screens do not poll)');
});

test('an error keeps the last limits and is reported to the status bar', async () => {
  const emu = await useEmulator();
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const good = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
  const store = createContainersStore({ api: good, settings: resolveSettings({}, {}, {}), ui, now: Date.now });
  await store.getState().refreshLimits();
  const limits = store.getState().limits;
  assert.ok(limits);
  await good.close();

  const refused = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: 'wrong-key-123456' });
  const bad = createContainersStore({ api: refused, settings: resolveSettings({}, {}, {}), ui, now: Date.now });
  bad.setState({ limits, limitsAt: 1 });
  await bad.getState().refreshLimits();
  assert.deepEqual(bad.getState().limits, limits, 'last data kept');
  assert.match(bad.getState().limitsError ?? '', /^401 Unauthorized/);
  assert.match(ui.getState().request.lastError ?? '', /^401 Unauthorized/);
  await refused.close();
});
