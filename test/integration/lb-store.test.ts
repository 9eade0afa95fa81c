import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { resolveSettings } from '../../src/config/settings';
import { createLoadBalancersStore } from '../../src/state/load-balancers-store';
import { createUiStore } from '../../src/state/ui-store';

const until = async (ok: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('load balancers: the list, then one profile read through GET /loadbalancer/{id}; polling stops when unwatched', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 1 };
  const store = createLoadBalancersStore({ api, settings, ui, now: Date.now });
  const stop = store.getState().watch();
  await until(() => store.getState().loadedAt !== null, 'the list');
  assert.deepEqual(store.getState().items, await api.loadBalancers.listAll());
  const id = store.getState().items[2]!.LoadBalancerId;
  store.getState().openProfile(id);
  await until(() => store.getState().profile?.LoadBalancerId === id && emu.faultCounters().management.requests > 0, 'the profile');
  assert.deepEqual(store.getState().profile, await api.loadBalancers.get(id));
  assert.ok(ui.getState().request.lastSuccessAt !== null, 'the status bar knows the age of the data');

  store.getState().openProfile(999_999);
  await until(() => store.getState().profileError !== null, 'the 404');
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
  await until(() => store.getState().loadedAt !== null, 'the list');
  store.getState().togglePause();
  assert.equal(ui.getState().request.paused, true);
  const n = emu.faultCounters().management.requests;
  await new Promise((r) => setTimeout(r, 1300));
  assert.equal(emu.faultCounters().management.requests, n, 'paused: no request');
  const at = store.getState().loadedAt!;
  store.getState().togglePause();
  assert.equal(ui.getState().request.paused, false);
  await until(() => store.getState().loadedAt! > at, 'a refresh on resume', 500);
  stop();
});
