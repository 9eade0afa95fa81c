import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { apiFor, useEmulator } from '../helpers/emulator';
import { HttpClient } from '../../src/api/http';
import { ShieldApi } from '../../src/api/shield';
import type { Api } from '../../src/api/index';
import { resolveSettings } from '../../src/config/settings';
import { createShieldStore, type ShieldStore } from '../../src/state/shield-store';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import { textOf } from '../../src/keys/text-edit';
import { confirmYes } from '../helpers/confirm';
import { until } from '../helpers/wait';
import { countCalls, manualTimers } from '../helpers/manual-timers';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');
const emu = await useEmulator({ seed: 3 });
const direct = apiFor(emu);
const zones = await direct.shield.listAllZones();
const basic = zones.find((z) => z.planType === 0)!;
const paid = zones.filter((z) => z.planType !== 0);

/**
 * A loopback proxy in front of the emulator that records every request body, and can swallow
 * the answer to mutations (the server applies them, the client never hears back).
 */
const seen: { method: string; path: string; body: string }[] = [];
let dropMutationAnswers = false;
const held: http.ServerResponse[] = [];
const proxy = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    seen.push({ method: req.method!, path: req.url!, body });
    const up = http.request(`${emu.info.baseUrl}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
      const parts: Buffer[] = [];
      upRes.on('data', (c: Buffer) => parts.push(c));
      upRes.on('end', () => {
        if (dropMutationAnswers && req.method !== 'GET') {
          held.push(res);
          return;
        }
        res.writeHead(upRes.statusCode!, upRes.headers);
        res.end(Buffer.concat(parts));
      });
    });
    up.end(body);
  });
});
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
after(async () => {
  for (const r of held) r.destroy();
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
});
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
const proxied = new HttpClient({ baseUrl: proxyUrl, auth: () => ({ AccessKey: emu.info.accessKey }), requestTimeoutMs: 700 });
after(() => proxied.close());
const api = { ...direct, shield: new ShieldApi(proxied) } as Api;

function setup(options: { readOnly?: boolean; perPage?: number } = {}): { store: ShieldStore; ui: UiStore } {
  const ui = createUiStore({ readOnly: options.readOnly ?? false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 60 };
  const store = createShieldStore({ api, settings, ui, now: Date.now }, { perPage: options.perPage, cwd: FIXTURES });
  return { store, ui };
}

const confirmLines = (ui: UiStore) => {
  const o = ui.getState().overlay;
  return o?.kind === 'confirm' ? o.request.lines.map((l) => `${l.path}: ${l.before ?? ''} -> ${l.after ?? ''}`) : [];
};

test('zones come one page at a time from the page envelope; paging clamps and drops the old page', async () => {
  const { store, ui } = setup({ perPage: 4 });
  const stop = store.getState().watchZones();
  try {
    await until('the first page', () => store.getState().pageInfo !== null);
    const first = await direct.shield.listZones(1, 4);
    assert.deepEqual(store.getState().zones, first.zones);
    assert.deepEqual(store.getState().pageInfo, first.page);
    store.getState().goToPage(2);
    await until('page 2', () => store.getState().pageInfo?.currentPage === 2);
    assert.deepEqual(
      store.getState().zones.map((z) => z.shieldZoneId),
      (await direct.shield.listZones(2, 4)).zones.map((z) => z.shieldZoneId),
    );
    store.getState().goToPage(99);
    await until('the last page', () => store.getState().pageInfo?.currentPage === 3);
    assert.equal(store.getState().zones.length, zones.length - 8);
    store.getState().goToPage(4);
    assert.match(ui.getState().status?.text ?? '', /this is the last page \(3\)/);
    assert.ok(ui.getState().request.lastSuccessAt !== null, 'the status bar gets the age');
  } finally {
    stop();
  }
});

test('edits are local; PATCH sends exactly the changed fields; the answer is shown and state refreshed', async () => {
  const { store, ui } = setup();
  const id = paid[0]!.shieldZoneId;
  store.getState().openZone(id);
  await store.getState().refresh();
  const before = store.getState().guardian!.configuration;

  store.getState().toggleEnabled();
  store.getState().toggleEnabled();
  assert.deepEqual(store.getState().draft, {}, 'toggled back: nothing to send');
  assert.equal(store.getState().reviewChanges(), false);
  assert.match(ui.getState().status?.text ?? '', /nothing to send/);

  store.getState().cycle('unmatchedPathAction');
  store.getState().cycle('executionMode');
  const nextUnmatched = (before.unmatchedPathAction + 1) % 3;
  const nextMode = 1 - before.executionMode;
  assert.deepEqual(store.getState().draft, { unmatchedPathAction: nextUnmatched, executionMode: nextMode });
  assert.equal(seen.filter((r) => r.method === 'PATCH').length, 0, 'nothing sent while editing');

  assert.equal(store.getState().reviewChanges(), true);
  assert.deepEqual(confirmLines(ui).sort(), [
    `executionMode: ${before.executionMode} -> ${nextMode}`,
    `unmatchedPathAction: ${before.unmatchedPathAction} -> ${nextUnmatched}`,
  ]);
  const sent = seen.length;
  await confirmYes(ui);
  const patches = seen.slice(sent).filter((r) => r.method === 'PATCH');
  assert.equal(patches.length, 1);
  assert.deepEqual(JSON.parse(patches[0]!.body), { executionMode: nextMode, unmatchedPathAction: nextUnmatched }, 'only the changed fields');
  const server = (await direct.shield.getApiGuardian(id)).configuration;
  assert.deepEqual(
    [server.executionMode, server.unmatchedPathAction, server.isEnabled, server.bodyLimitAction],
    [nextMode, nextUnmatched, before.isEnabled, before.bodyLimitAction],
  );
  assert.deepEqual(store.getState().guardian!.configuration, server, 'the screen shows the refreshed state');
  assert.deepEqual(store.getState().draft, {});
  assert.equal(store.getState().lastResult?.tone, 'ok');
  assert.match(store.getState().lastResult!.text, /saved; the server's answer: executionMode (Log|Block), unmatchedPathAction (Block|Log|Ignore)/);
  assert.match(ui.getState().status?.text ?? '', new RegExp(`API Guardian of shield zone ${id} updated`));
});

test('a refresh that brings the edited value drops the edit instead of sending it again', async () => {
  const { store } = setup();
  const id = paid[1]!.shieldZoneId;
  store.getState().openZone(id);
  await store.getState().refresh();
  const was = store.getState().guardian!.configuration.bodyLimitAction;
  store.getState().cycle('bodyLimitAction');
  const wanted = store.getState().draft.bodyLimitAction!;
  await direct.shield.updateApiGuardian(id, { bodyLimitAction: wanted }); // someone else, meanwhile
  await store.getState().refresh();
  assert.deepEqual(store.getState().draft, {});
  assert.notEqual(wanted, was);
});

test('the 403 envelope of a zone without API Guardian is kept with its message and errorKey', async () => {
  const { store } = setup();
  store.getState().openZone(basic.shieldZoneId);
  await store.getState().refresh();
  assert.equal(store.getState().guardian, null);
  const e = store.getState().guardianError!;
  assert.equal(e.status, 403);
  assert.equal(e.code, 'invalid_plan_type.api_guardian');
  assert.match(e.message, /API Guardian is not available on the Basic plan/);
  store.getState().toggleEnabled();
  assert.deepEqual(store.getState().draft, {}, 'nothing to edit');
});

test('a PATCH whose answer is lost: unknown outcome, never retried, refreshed state shown', async () => {
  const { store, ui } = setup();
  const id = paid[2]!.shieldZoneId;
  store.getState().openZone(id);
  await store.getState().refresh();
  const before = store.getState().guardian!.configuration;
  store.getState().toggleEnabled();
  assert.equal(store.getState().reviewChanges(), true);
  const sent = seen.length;
  dropMutationAnswers = true;
  try {
    await confirmYes(ui);
  } finally {
    dropMutationAnswers = false;
  }
  assert.equal(seen.slice(sent).filter((r) => r.method === 'PATCH').length, 1, 'sent once, not retried');
  const server = (await direct.shield.getApiGuardian(id)).configuration;
  assert.equal(server.isEnabled, !before.isEnabled, 'the server did apply it');
  assert.equal(store.getState().guardian!.configuration.isEnabled, server.isEnabled, 'refreshed state shown');
  assert.equal(store.getState().lastResult?.tone, 'warn');
  assert.match(
    store.getState().lastResult!.text,
    /^unknown outcome: PATCH of isEnabled was sent but no answer came \(it was not retried\); refreshed state shown/,
  );
  assert.match(ui.getState().status?.text ?? '', /^unknown outcome/);
  assert.notEqual(ui.getState().status?.level, 'error');
});

test('read-only: the confirm path refuses and nothing is sent', async () => {
  const { store, ui } = setup({ readOnly: true });
  store.getState().openZone(paid[0]!.shieldZoneId);
  await store.getState().refresh();
  store.getState().toggleEnabled();
  const sent = seen.length;
  assert.equal(store.getState().reviewChanges(), false);
  assert.match(ui.getState().status?.text ?? '', /read-only mode/);
  assert.equal(ui.getState().overlay, null);
  assert.equal(seen.slice(sent).filter((r) => r.method !== 'GET').length, 0);
});

test('spec files: clear errors; an over-limit file is refused locally; a good one is uploaded (POST) then replaced (PATCH)', async () => {
  const { store, ui } = setup();
  // a zone without a spec yet, so the first send is a POST
  let target: number | null = null;
  for (const z of paid) if ((await direct.shield.getApiGuardian(z.shieldZoneId)).configuration.title === null) target = z.shieldZoneId;
  assert.ok(target !== null, 'the seed has a paid zone without a spec');
  store.getState().openZone(target);
  await store.getState().refresh();
  const s = () => store.getState();

  s().openSpec();
  s().setSpecInput(textOf('missing.yaml'));
  await s().checkSpec();
  assert.equal(s().spec!.error, `no such file: ${path.join(FIXTURES, 'missing.yaml')}`);
  s().setSpecInput(textOf('openapi-broken.yaml'));
  await s().checkSpec();
  assert.match(s().spec!.error!, /^openapi-broken\.yaml is not a usable OpenAPI 3 document: neither JSON nor valid YAML/);

  s().setSpecInput(textOf('openapi-recursive.json'));
  await s().checkSpec();
  assert.equal(s().spec!.error, null);
  assert.deepEqual(
    s()
      .spec!.check!.checks.filter((c) => c.over)
      .map((c) => c.limit),
    ['maxNestingDepth'],
  );
  const sent = seen.length;
  assert.equal(s().reviewSpec(false), false);
  assert.match(ui.getState().status!.text, /not sent: the spec is over the plan limits \(nesting depth\)/);
  // the override sends it anyway, and the server's refusal is shown with its errorKey
  assert.equal(s().reviewSpec(true), true);
  await confirmYes(ui);
  assert.equal(ui.getState().status?.level, 'error');
  assert.match(ui.getState().status!.text, /failed: 400 Bad Request api_guardian\.spec_limit_exceeded/);
  assert.equal(s().lastResult?.code, 'api_guardian.spec_limit_exceeded');
  assert.match(s().lastResult!.text, /^spec not uploaded: 400 Bad Request api_guardian\.spec_limit_exceeded: .*maxNestingDepth/);
  assert.deepEqual(
    seen
      .slice(sent)
      .filter((r) => r.method !== 'GET')
      .map((r) => r.method),
    ['POST'],
  );

  s().setSpecInput(textOf('openapi-petstore.yaml'));
  await s().checkSpec();
  assert.equal(s().spec!.check!.withinLimits, true);
  assert.equal(s().reviewSpec(false), true);
  assert.deepEqual(confirmLines(ui), [`content:  -> "<openapi-petstore.yaml, ${(s().spec!.file!.bytes / 1024).toFixed(1)} KiB: Petstore 1.2.0, 5 endpoints>"`]);
  await confirmYes(ui);
  const up = await direct.shield.getApiGuardian(target);
  assert.equal(up.configuration.title, 'Petstore');
  assert.equal(up.endpoints.length, 5);
  assert.equal(s().spec, null, 'the panel closes after a successful upload');
  assert.equal(s().guardian!.configuration.title, 'Petstore');

  s().openSpec();
  s().setSpecInput(textOf(path.join(FIXTURES, 'openapi-anchors.yaml')));
  await s().checkSpec();
  const n = seen.length;
  assert.equal(s().reviewSpec(false), true);
  await confirmYes(ui);
  assert.deepEqual(
    seen
      .slice(n)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`),
    [`PATCH /shield/shield-zone/${target}/api-guardian/spec`],
  );
  assert.equal((await direct.shield.getApiGuardian(target)).configuration.title, 'Anchors');
});

test('live refresh: polls while watched, pause stops the requests, unwatching (screen hidden) stops them too', async () => {
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const shield = countCalls(api.shield);
  const timers = manualTimers();
  const store = createShieldStore({
    api: { ...api, shield: shield.proxy },
    settings: { ...resolveSettings({}, {}, {}), refreshSeconds: 1 },
    ui,
    now: Date.now,
    timers,
  });
  const id = paid[0]!.shieldZoneId;
  const gets = () => seen.filter((r) => r.method === 'GET' && r.path === `/shield/shield-zone/${id}/api-guardian`).length;
  store.getState().openZone(id);
  const start = gets();
  const unwatch = store.getState().watchGuardian();
  await until('the first read', () => !store.getState().guardianLoading && gets() === start + 1);
  timers.tick();
  await until('a poll on the tick', () => !store.getState().guardianLoading && gets() === start + 2);
  assert.ok(store.getState().guardian);
  store.getState().togglePause();
  assert.equal(ui.getState().request.paused, true);
  const paused = shield.calls();
  timers.tick();
  timers.tick();
  assert.equal(shield.calls(), paused, 'no requests while paused');
  store.getState().togglePause();
  await until('resumed', () => gets() > start + 2, 3000);
  unwatch();
  assert.equal(timers.armed, 0, 'unwatching disarms the timer');
  const stopped = shield.calls();
  timers.tick();
  assert.equal(shield.calls(), stopped, 'no requests once unwatched');
});
