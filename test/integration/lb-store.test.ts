import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { resolveSettings } from '../../src/config/settings';
import { createLoadBalancersStore } from '../../src/state/load-balancers-store';
import { createUiStore } from '../../src/state/ui-store';
import { until } from '../helpers/wait';

test('load balancers: the list, then one profile read through GET /loadbalancer/{id}; polling stops when unwatched', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 1 };
  const store = createLoadBalancersStore({ api, settings, ui, now: Date.now });
  const stop = store.getState().watch();
  await until('the list', () => store.getState().loadedAt !== null);
  assert.deepEqual(store.getState().items, await api.loadBalancers.listAll());
  const id = store.getState().items[2]!.LoadBalancerId;
  store.getState().openProfile(id);
  await until('the profile', () => store.getState().profile?.LoadBalancerId === id && emu.faultCounters().management.requests > 0);
  assert.deepEqual(store.getState().profile, await api.loadBalancers.get(id));
  assert.ok(ui.getState().request.lastSuccessAt !== null, 'the status bar knows the age of the data');

  store.getState().openProfile(999_999);
  await until('the 404', () => store.getState().profileError !== null);
  assert.match(store.getState().profileError!, /load balancer 999999 was not found \(404/);
  stop();
  // a request already on its way when the screen was hidden may still land: count from after it
  await new Promise((r) => setTimeout(r, 300));
  const n = emu.faultCounters().management.requests;
  await new Promise((r) => setTimeout(r, 1300));
  assert.equal(emu.faultCounters().management.requests, n, 'a hidden screen does not poll');
});

test('pause: no polling while paused (the status bar says so), a refresh at once on resume', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 1 };
  const store = createLoadBalancersStore({ api, settings, ui, now: Date.now });
  const stop = store.getState().watch();
  await until('the list', () => store.getState().loadedAt !== null);
  store.getState().togglePause();
  assert.equal(ui.getState().request.paused, true);
  const n = emu.faultCounters().management.requests;
  await new Promise((r) => setTimeout(r, 1300));
  assert.equal(emu.faultCounters().management.requests, n, 'paused: no request');
  const at = store.getState().loadedAt!;
  store.getState().togglePause();
  assert.equal(ui.getState().request.paused, false);
  await until('a refresh on resume', () => store.getState().loadedAt! > at, 500);
  stop();
});
