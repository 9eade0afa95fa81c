import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { request } from 'undici';
import { runBurrow } from '../helpers/cli';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { confirmYes } from '../helpers/confirm';
import { useLossyProxy } from '../helpers/lossy-proxy';
import { createApi, type Api } from '../../src/api/index';
import { resolveSettings } from '../../src/config/settings';
import { createShieldStore } from '../../src/state/shield-store';
import { createContainersStoreWith } from '../../src/state/containers-store';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import { textOf } from '../../src/keys/text-edit';

// Every mutation path, with its answer lost after the platform applied it: reported as an unknown
// outcome with the state read again (never retried), and the platform saw it exactly once.
// (The API Guardian PATCH with a timed-out answer is in shield-store.test.ts.)

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');
const emu = await useEmulator({ seed: 5, logRate: 0 });
const direct = apiFor(emu);
const proxy = await useLossyProxy(emu.info.baseUrl);
const lossy: Api = createApi({ baseUrl: proxy.url, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });

function uiStore(): UiStore {
  return createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
}
async function lose<T>(fn: () => Promise<T>): Promise<T> {
  proxy.mode = 'reset';
  try {
    return await fn();
  } finally {
    proxy.mode = 'pass';
  }
}

test('API Guardian PATCH, spec POST and spec PATCH: each sent once, unknown outcome, refreshed state shown', async () => {
  const ui = uiStore();
  const store = createShieldStore({ api: lossy, settings: { ...resolveSettings({}, {}, {}), refreshSeconds: 60 }, ui, now: Date.now }, { cwd: FIXTURES });
  const s = () => store.getState();
  const zones = await direct.shield.listAllZones();
  let target: number | null = null;
  for (const z of zones.filter((z) => z.planType !== 0))
    if ((await direct.shield.getApiGuardian(z.shieldZoneId)).configuration.title === null) target = z.shieldZoneId;
  assert.ok(target !== null, 'a paid zone without a spec');
  s().openZone(target);
  await s().refresh();

  // PATCH of a setting
  const enabled = s().guardian!.configuration.isEnabled;
  s().toggleEnabled();
  assert.equal(s().reviewChanges(), true);
  let from = proxy.seen.length;
  await lose(() => confirmYes(ui));
  assert.deepEqual(
    proxy.mutationsSince(from).map((r) => r.method),
    ['PATCH'],
    'sent exactly once',
  );
  assert.equal((await direct.shield.getApiGuardian(target)).configuration.isEnabled, !enabled, 'the platform applied it');
  assert.equal(s().guardian!.configuration.isEnabled, !enabled, 'refreshed state shown');
  assert.match(s().lastResult!.text, /^unknown outcome: .*not retried.*refreshed state shown/);
  assert.match(ui.getState().status!.text, /unknown outcome/);

  // spec POST, then PATCH
  for (const [file, method, title] of [
    ['openapi-petstore.yaml', 'POST', 'Petstore'],
    ['openapi-anchors.yaml', 'PATCH', 'Anchors'],
  ] as const) {
    s().openSpec();
    s().setSpecInput(textOf(file));
    await s().checkSpec();
    assert.equal(s().reviewSpec(false), true);
    from = proxy.seen.length;
    await lose(() => confirmYes(ui));
    assert.deepEqual(
      proxy.mutationsSince(from).map((r) => r.method),
      [method],
      `${method} sent exactly once`,
    );
    assert.equal((await direct.shield.getApiGuardian(target)).configuration.title, title, 'the platform applied it');
    assert.equal(s().guardian!.configuration.title, title, 'refreshed state shown');
    assert.match(
      s().lastResult!.text,
      new RegExp(`^unknown outcome: the ${method} of ${file.replace('.', '\\.')} was sent but no answer came \\(it was not retried\\); refreshed state shown`),
    );
    assert.equal(s().lastResult!.tone, 'warn');
    assert.match(ui.getState().status!.text, /unknown outcome/);
  }
});

test('region settings PUT: sent once, unknown outcome, the settings read back and shown', async () => {
  const ui = uiStore();
  const store = createContainersStoreWith({ api: lossy, settings: { ...resolveSettings({}, {}, {}), refreshSeconds: 60 }, ui, now: Date.now });
  const s = () => store.getState();
  await s().refresh();
  const app = s().apps.items[0]!;
  s().openEditor(app);
  await until('the editor loaded', () => s().editor?.draft, 5000);
  const before = await direct.containers.getRegionSettings(app.id);
  const candidate = (s().regions ?? []).find((r) => !before.allowedRegionIds.includes(r.id));
  assert.ok(candidate, 'a region to add');
  s().toggleAllowed(candidate.id);
  s().save();
  const from = proxy.seen.length;
  await lose(() => confirmYes(ui));
  assert.deepEqual(
    proxy.mutationsSince(from).map((r) => `${r.method} ${r.path}`),
    [`PUT /mc/apps/${app.id}/region-settings`],
    'sent exactly once',
  );
  const after = await direct.containers.getRegionSettings(app.id);
  assert.ok(after.allowedRegionIds.includes(candidate.id), 'the platform applied it');
  assert.deepEqual(s().editor!.settings!.allowedRegionIds, after.allowedRegionIds, 'refreshed state shown');
  assert.equal(s().editor!.outcome?.kind, 'unknown');
  assert.match(
    ui.getState().status!.text,
    /unknown outcome: the PUT of the region settings was sent but no answer came \(it was not retried\); refreshed state shown/,
  );
  assert.equal(ui.getState().status!.level, 'warn');
});

const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-once-'));
const burrow = (args: string[]) =>
  runBurrow(args, { env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, ...envFor(emu, { BURROW_BASE_URL: proxy.url }) } });

test('db tokens create and invalidate: sent once, unknown outcome said plainly, nothing retried', async () => {
  let from = proxy.seen.length;
  const created = await lose(() => burrow(['db', 'tokens', 'create', 'burrow-demo']));
  assert.equal(created.code, 1, created.stderr);
  assert.match(
    created.stderr,
    /^burrow: unknown outcome: creating a full-access token for burrow-demo was sent but no answer came \(it was not retried\): a token may have been created/,
  );
  assert.deepEqual(
    proxy.mutationsSince(from).map((r) => r.method),
    ['PUT'],
    'generate sent exactly once',
  );
  assert.equal(created.stdout, '');

  const pipeline = () =>
    request(`${emu.info.databaseUrl}/v2/pipeline`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.info.databaseToken}` },
      body: '{"requests":[{"type":"execute","stmt":{"sql":"SELECT 1"}}]}',
    });
  const ok = await pipeline();
  assert.equal(ok.statusCode, 200);
  await ok.body.dump();
  from = proxy.seen.length;
  const revoked = await lose(() => burrow(['db', 'tokens', 'invalidate', 'burrow-demo', '--yes']));
  assert.equal(revoked.code, 1, revoked.stderr);
  assert.match(
    revoked.stderr,
    /^burrow: unknown outcome: invalidating every token of burrow-demo was sent but no answer came \(it was not retried\): the tokens may or may not be invalidated now/,
  );
  assert.deepEqual(
    proxy.mutationsSince(from).map((r) => r.method),
    ['POST'],
    'revoke sent exactly once',
  );
  const refused = await pipeline();
  assert.equal(refused.statusCode, 401, 'the platform did revoke them');
  await refused.body.dump();
});
