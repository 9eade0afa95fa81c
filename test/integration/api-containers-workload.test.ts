import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { ApiError } from '../../src/api/errors';

// The containers client's app calls against the emulator: what an app runs, where, on which volumes.

const emu = await useEmulator();
const api = apiFor(emu);
const apps = await api.containers.listAllApps();

test('getApp, getAppOverview and listVolumes tell one story for every app', async () => {
  const registries = await api.containers.listRegistries();
  assert.ok(registries.length > 0);
  assert.ok(
    registries.some((r) => r.lastPasswordSymbols),
    'a private registry shows the end of its password',
  );
  let volumesSeen = 0;
  for (const listed of apps) {
    const [app, overview, volumes] = await Promise.all([
      api.containers.getApp(listed.id),
      api.containers.getAppOverview(listed.id),
      api.containers.listVolumes(listed.id),
    ]);
    assert.equal(app.id, listed.id);
    assert.ok(app.containerTemplates.length > 0);
    for (const t of app.containerTemplates) {
      assert.ok(
        registries.some((r) => String(r.id) === t.imageRegistryId),
        `${t.image} comes from a listed registry`,
      );
      assert.ok(t.image?.endsWith(`:${t.imageTag}`));
    }
    const podsByRegion = overview.regions.map((r) => [r.region, r.pods.map((p) => p.name)] as const);
    const pods = podsByRegion.flatMap(([, names]) => names);
    assert.equal(overview.desiredInstances, pods.length);
    assert.deepEqual(new Set(app.containerInstances.map((i) => i.podId)), new Set(pods));
    assert.deepEqual(
      volumes.items.map((v) => v.name),
      app.volumes.map((v) => v.name),
    );
    for (const v of volumes.items) {
      volumesSeen++;
      for (const i of v.volumeInstances) {
        const region = podsByRegion.find(([, names]) => names.includes(i.attachedPods![0]!))?.[0];
        assert.equal(i.region, region, "a volume instance sits in its pod's region");
      }
    }
  }
  assert.ok(volumesSeen > 0);
});

test('secrets in env vars arrive masked; plain values as they are', async () => {
  const all = await Promise.all(apps.map((a) => api.containers.getApp(a.id)));
  const env = all.flatMap((a) => a.containerTemplates.flatMap((t) => t.environmentVariables));
  const token = env.find((e) => e.name === 'SERVICE_DATABASE_AUTH_TOKEN');
  assert.ok(token, 'some app has database credentials');
  assert.match(token.value ?? '', /^.{4}\*{8}.{4}$/);
  const port = env.find((e) => e.name === 'PORT');
  assert.match(port?.value ?? '', /^\d+$/);
});

test('an unknown app: 404 for the app and its overview, an empty volume list (the document lists no 404 there)', async () => {
  for (const call of [() => api.containers.getApp('noSuchApp123'), () => api.containers.getAppOverview('noSuchApp123')]) {
    await assert.rejects(call, (e: unknown) => e instanceof ApiError && e.status === 404);
  }
  assert.deepEqual((await api.containers.listVolumes('noSuchApp123')).items, []);
  await assert.rejects(
    () => api.containers.getApp('bad id!'),
    (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input',
  );
});
