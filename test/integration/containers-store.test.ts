import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiFor, useEmulator } from '../helpers/emulator';
import { createApi, type Api } from '../../src/api/index';
import type { App } from '../../src/api/containers';
import { resolveSettings } from '../../src/config/settings';
import { createContainersStoreWith, type ContainersStore } from '../../src/state/containers-store';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import { diffLineText } from '../../src/text/diff';
import { containersState } from '../../src/emulator/management/containers';
import type { RunningEmulator } from '../../src/emulator/server';
import { until } from '../helpers/wait';

function setup(api: Api, options: { readOnly?: boolean; pageSize?: number } = {}): { store: ContainersStore; ui: UiStore } {
  const ui = createUiStore({ readOnly: options.readOnly ?? false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 60 };
  const store = createContainersStoreWith({ api, settings, ui, now: Date.now }, { pageSize: options.pageSize });
  return { store, ui };
}

/** Presses "y" on the confirm dialog the one confirm path opened; returns its diff lines. */
async function confirm(ui: UiStore): Promise<string[]> {
  const o = ui.getState().overlay;
  assert.ok(o?.kind === 'confirm', 'a confirm dialog is open');
  const lines = o.request.lines.map(diffLineText);
  ui.getState().closeOverlay();
  await o.request.onYes();
  return lines;
}

const mgmtRequests = (emu: RunningEmulator) => emu.faultCounters().management.requests;

async function openEditorOf(store: ContainersStore, app: App): Promise<void> {
  store.getState().openEditor(app);
  await until('the region settings', () => store.getState().editor?.draft != null && store.getState().regions !== null);
}

test('apps: cursor pages on demand, one page at a time; a refresh reloads what is loaded in one request', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const { store } = setup(api, { pageSize: 5 });
  await store.getState().refresh();
  const all = await api.containers.listAllApps();
  assert.equal(all.length, 15);
  assert.deepEqual(
    store.getState().apps.items.map((a) => a.id),
    all.slice(0, 5).map((a) => a.id),
  );
  assert.equal(store.getState().apps.totalItems, 15);
  assert.ok(store.getState().apps.cursor);
  assert.ok(store.getState().limits, 'the limits come with the same refresh');

  await store.getState().loadMoreApps();
  assert.equal(store.getState().apps.items.length, 10);
  await store.getState().loadMoreApps();
  assert.deepEqual(
    store.getState().apps.items.map((a) => a.id),
    all.map((a) => a.id),
  );
  assert.equal(store.getState().apps.cursor, null, 'the last page has no cursor');
  const before = mgmtRequests(emu);
  await store.getState().loadMoreApps();
  assert.equal(mgmtRequests(emu), before, 'nothing more to load: no request');

  await store.getState().refresh();
  assert.equal(mgmtRequests(emu), before + 2, 'limits + one apps request with limit 15');
  assert.equal(store.getState().apps.items.length, 15);
});

test('region settings: edit, confirm with the diff, PUT, empty 200; the emulator has what was sent', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const { store, ui } = setup(api);
  await store.getState().refresh();
  const app = store.getState().apps.items.find((a) => a.status === 'active')!;
  await openEditorOf(store, app);
  const current = await api.containers.getRegionSettings(app.id);
  assert.deepEqual(store.getState().editor!.settings, current);

  const regions = store.getState().regions!;
  const extra = regions.find((r) => r.hasCapacity && !current.allowedRegionIds.includes(r.id))!;
  store.getState().toggleAllowed(extra.id);
  store.getState().bumpMax(1);
  store.getState().startSelectorEdit(null);
  store.getState().setSelectorText({ value: 'tier', cursor: 4 });
  store.getState().selectorEnter();
  store.getState().setSelectorText({ value: 'gpu', cursor: 3 });
  store.getState().selectorEnter();
  const draft = store.getState().editor!.draft!;
  assert.deepEqual(draft.selectors, [{ key: 'tier', value: 'gpu' }]);

  store.getState().save();
  const lines = await confirm(ui);
  assert.ok(
    lines.includes(`~ allowedRegionIds: ${JSON.stringify(current.allowedRegionIds)} → ${JSON.stringify([...current.allowedRegionIds, extra.id])}`),
    lines.join('\n'),
  );
  assert.ok(lines.includes('+ nodeSelectors.tier: "gpu"'), lines.join('\n'));
  assert.equal(lines.length, 3, `allowed, max and the selector: ${lines.join(' | ')}`);

  const after = await api.containers.getRegionSettings(app.id);
  assert.deepEqual(after.allowedRegionIds, draft.allowed);
  assert.deepEqual(after.requiredRegionIds, current.requiredRegionIds);
  assert.equal(after.maxAllowedRegions, draft.maxAllowedRegions);
  assert.deepEqual(containersState(emu.world).regionSettings.get(app.id)!.nodeSelectors, { tier: 'gpu' });
  const e = store.getState().editor!;
  assert.equal(e.outcome?.kind, 'saved');
  assert.deepEqual(e.settings, after, 'the settings were read back after the empty 200');
  assert.deepEqual(e.draft!.knownSelectors, [{ key: 'tier', value: 'gpu' }], 'the selectors sent are known from now on');
  assert.match(ui.getState().status?.text ?? '', /region settings of .* saved/);
});

test('bad input is refused before sending; a server validation error lands next to its field', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const { store, ui } = setup(api);
  await store.getState().refresh();
  const app = store.getState().apps.items.find((a) => a.status === 'active')!;
  await openEditorOf(store, app);
  const current = await api.containers.getRegionSettings(app.id);

  const notAllowed = store.getState().regions!.find((r) => !current.allowedRegionIds.includes(r.id))!;
  store.getState().toggleRequired(notAllowed.id);
  const before = mgmtRequests(emu);
  store.getState().save();
  assert.equal(ui.getState().overlay, null, 'no confirm dialog for a draft with problems');
  assert.match(ui.getState().status?.text ?? '', /not sent: fix the fields marked/);
  assert.equal(mgmtRequests(emu), before, 'nothing was sent');

  // A required region without capacity passes the local checks; the server answers 422.
  store.getState().resetDraft();
  const full = store.getState().regions!.find((r) => r.hasCapacity === false)!;
  if (!current.allowedRegionIds.includes(full.id)) store.getState().toggleAllowed(full.id);
  store.getState().toggleRequired(full.id);
  while ((store.getState().editor!.draft!.maxAllowedRegions ?? 99) < store.getState().editor!.draft!.required.length) store.getState().bumpMax(1);
  store.getState().save();
  await confirm(ui);
  const e = store.getState().editor!;
  assert.deepEqual(e.serverErrors.required, [`region ${full.id} has no capacity at the moment`]);
  assert.equal(e.outcome?.kind, 'failed');
  assert.match(ui.getState().status?.text ?? '', /failed: 422 Unprocessable Entity/);
  assert.deepEqual(await api.containers.getRegionSettings(app.id), current, 'nothing changed on the platform');

  store.getState().toggleAllowed(current.allowedRegionIds[0]!);
  assert.deepEqual(store.getState().editor!.serverErrors, {}, 'editing clears what the server said');
});

test('a suspended app: the 403 is shown on the general line', async () => {
  const emu = await useEmulator();
  const { store, ui } = setup(apiFor(emu));
  await store.getState().refresh();
  const app = store.getState().apps.items.find((a) => a.status === 'suspended')!;
  await openEditorOf(store, app);
  store.getState().bumpMax(1);
  if (store.getState().editor!.draft!.maxAllowedRegions === store.getState().editor!.settings!.maxAllowedRegions) store.getState().bumpMax(-1);
  store.getState().save();
  await confirm(ui);
  assert.match(store.getState().editor!.serverErrors.general?.[0] ?? '', /^403 Forbidden: The application is suspended/);
});

test('an answer lost after the PUT was sent: reported as an unknown outcome, never retried', async () => {
  const emu = await useEmulator();
  let puts = 0;
  // Forwards everything to the emulator, except that a PUT gets its connection cut once the body is in.
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'PUT') {
        puts++;
        req.socket.destroy();
        return;
      }
      const upstream = await fetch(`${emu.info.baseUrl}${req.url}`, { method: req.method, headers: { AccessKey: String(req.headers.accesskey ?? '') } });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  after(() => new Promise<void>((r) => proxy.close(() => r())));
  const api = createApi({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
  after(() => api.close());

  const { store, ui } = setup(api);
  await store.getState().refresh();
  const app = store.getState().apps.items.find((a) => a.status === 'active')!;
  await openEditorOf(store, app);
  const extra = store.getState().regions!.find((r) => r.hasCapacity && !store.getState().editor!.draft!.allowed.includes(r.id))!;
  store.getState().toggleAllowed(extra.id);
  store.getState().save();
  await confirm(ui);
  const outcome = store.getState().editor!.outcome;
  assert.equal(outcome?.kind, 'unknown');
  assert.match(
    outcome?.kind === 'unknown' ? outcome.message : '',
    /^unknown outcome: the PUT of the region settings was sent but no answer came \(it was not retried\); refreshed state shown/,
  );
  assert.equal(puts, 1, 'the PUT went out exactly once');
  assert.match(ui.getState().status?.text ?? '', /unknown outcome/);
  // Refreshed state shown: this proxy cut the PUT before the platform saw it, so the region is not allowed there.
  const fresh = await apiFor(emu).containers.getRegionSettings(app.id);
  assert.ok(!fresh.allowedRegionIds.includes(extra.id));
  assert.deepEqual([...store.getState().editor!.draft!.allowed].sort(), [...fresh.allowedRegionIds].sort(), 'the editor shows what the platform has');
});

test('read-only: the confirm path refuses; live refresh brings changes made elsewhere into a clean draft', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const { store, ui } = setup(api, { readOnly: true });
  await store.getState().refresh();
  const app = store.getState().apps.items.find((a) => a.status === 'active')!;
  await openEditorOf(store, app);
  store.getState().bumpMax(1);
  store.getState().save();
  assert.equal(ui.getState().overlay, null);
  assert.match(ui.getState().status?.text ?? '', /read-only mode/);

  store.getState().resetDraft();
  const current = await api.containers.getRegionSettings(app.id);
  const extra = store.getState().regions!.find((r) => r.hasCapacity && !current.allowedRegionIds.includes(r.id))!;
  await api.containers.putRegionSettings(app.id, { allowedRegionIds: [...current.allowedRegionIds, extra.id] });
  await store.getState().refresh();
  assert.ok(store.getState().editor!.settings!.allowedRegionIds.includes(extra.id));
  assert.ok(store.getState().editor!.draft!.allowed.includes(extra.id), 'an untouched draft follows the platform');
});
