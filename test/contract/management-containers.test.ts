import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from './call';
import { checkResponse } from './openapi-schemas';

// Magic Containers endpoints against magic-containers-api.json (paths there are relative to /mc).

const emu = await useEmulator();
const ok = (why: string) => assert.equal(why, '', why);
const apps = obj((await call(emu, 'GET', '/mc/apps?limit=1000')).json).items as { id: string; status: string }[];
const active = apps.find((a) => a.status === 'active')!.id;
const suspended = apps.find((a) => a.status === 'suspended')!.id;

test('GET /mc/limits: 200 and 401', async () => {
  const a = await call(emu, 'GET', '/mc/limits');
  assert.equal(a.status, 200);
  ok(checkResponse('mc', '/limits', 'get', 200, a.json));
  const denied = await call(emu, 'GET', '/mc/limits', { key: null });
  assert.equal(denied.status, 401);
  ok(checkResponse('mc', '/limits', 'get', 401, denied.json));
});

test('GET /mc/apps and /mc/regions: pages, 400 and 401', async () => {
  for (const [path, doc] of [
    ['/mc/apps', '/apps'],
    ['/mc/regions', '/regions'],
  ] as const) {
    let cursor: string | null = null;
    let pages = 0;
    do {
      const a = await call(emu, 'GET', `${path}?limit=6${cursor ? `&nextCursor=${cursor}` : ''}`);
      assert.equal(a.status, 200);
      ok(checkResponse('mc', doc, 'get', 200, a.json));
      cursor = obj(a.json).cursor as string | null;
      pages++;
    } while (cursor && pages < 10);
    assert.ok(pages >= 3, `${path} has several pages of 6`);
    for (const q of ['limit=0', 'limit=1001', 'limit=x', 'nextCursor=garbage']) {
      const bad = await call(emu, 'GET', `${path}?${q}`);
      assert.equal(bad.status, 400, q);
      ok(checkResponse('mc', doc, 'get', 400, bad.json));
    }
    const denied = await call(emu, 'GET', path, { key: 'wrong' });
    assert.equal(denied.status, 401);
    ok(checkResponse('mc', doc, 'get', 401, denied.json));
  }
});

test('GET region-settings: 200 for every app, 404, 401', async () => {
  const doc = '/apps/{appId}/region-settings';
  for (const a of apps) {
    const r = await call(emu, 'GET', `/mc/apps/${a.id}/region-settings`);
    assert.equal(r.status, 200);
    ok(checkResponse('mc', doc, 'get', 200, r.json));
  }
  const missing = await call(emu, 'GET', '/mc/apps/doesNotExist123/region-settings');
  assert.equal(missing.status, 404);
  ok(checkResponse('mc', doc, 'get', 404, missing.json));
  const denied = await call(emu, 'GET', `/mc/apps/${active}/region-settings`, { key: null });
  assert.equal(denied.status, 401);
  ok(checkResponse('mc', doc, 'get', 401, denied.json));
});

test('PUT region-settings: empty 200 and every error status the document lists that the emulator produces', async () => {
  const doc = '/apps/{appId}/region-settings';
  const put = (id: string, body: unknown, key?: string | null) => call(emu, 'PUT', `/mc/apps/${id}/region-settings`, { body, key });
  const good = await put(active, { allowedRegionIds: ['DE', 'UK', 'NY'], requiredRegionIds: ['DE'], maxAllowedRegions: 2, nodeSelectors: { tier: 'gpu' } });
  assert.equal(good.status, 200);
  // The document gives the 200 no body; the facts say it is empty.
  assert.equal(good.text, '');
  const bad = await put(active, { allowedRegionIds: ['DE'], requiredRegionIds: ['NY'] });
  assert.equal(bad.status, 400);
  ok(checkResponse('mc', doc, 'put', 400, bad.json));
  const broken = await put(active, '{"allowedRegionIds": [');
  assert.equal(broken.status, 400);
  ok(checkResponse('mc', doc, 'put', 400, broken.json));
  const forbidden = await put(suspended, { maxAllowedRegions: 1, requiredRegionIds: [] });
  assert.equal(forbidden.status, 403);
  ok(checkResponse('mc', doc, 'put', 403, forbidden.json));
  const missing = await put('noSuchApp', {});
  assert.equal(missing.status, 404);
  ok(checkResponse('mc', doc, 'put', 404, missing.json));
  const full = await put(active, { allowedRegionIds: ['ES', 'DE'], requiredRegionIds: ['ES'], maxAllowedRegions: 2 });
  assert.equal(full.status, 422);
  ok(checkResponse('mc', doc, 'put', 422, full.json));
  const denied = await put(active, {}, null);
  assert.equal(denied.status, 401);
  ok(checkResponse('mc', doc, 'put', 401, denied.json));
});

interface AppJson {
  status: string;
  regionSettings: { requiredRegionIds: string[]; allowedRegionIds: string[] };
  containerTemplates: {
    id: string;
    imageRegistryId: string;
    environmentVariables: { name: string; value?: string }[];
    endpoints: { id: string }[];
    volumeMounts: { name: string }[];
  }[];
  containerInstances: { id: string; podId: string; templateId: string }[];
  volumes: { name: string; size: number }[];
  displayEndpoint: { id: string };
}
interface OverviewJson {
  activeInstances: { indicator: number };
  desiredInstances: number;
  regions: { region: string; instances: number; pods: { name: string; containers: { id: string }[] }[] }[];
}
interface VolumesJson {
  items: { name: string; size: number; volumeInstances: { region: string; attachedPods: string[] }[] }[];
}

test('an app holds together: templates, instances, endpoints and volumes agree with /overview, /volumes, /endpoints, /registries and the limits', async () => {
  const limits = obj((await call(emu, 'GET', '/mc/limits')).json) as {
    maxNumberOfInstancesPerRegion: number;
    maxNumberOfInstancesPerApplication: number;
    maxNumberOfVolumesPerApplication: number;
    maxVolumeSize: number;
  };
  const registries = await call(emu, 'GET', '/mc/registries');
  assert.equal(registries.status, 200);
  ok(checkResponse('mc', '/registries', 'get', 200, registries.json));
  const registryIds = new Set((obj(registries.json).items as { id: number; lastPasswordSymbols: string | null }[]).map((r) => String(r.id)));
  const denied = await call(emu, 'GET', '/mc/registries', { key: null });
  assert.equal(denied.status, 401);
  ok(checkResponse('mc', '/registries', 'get', 401, denied.json));

  let masked = 0;
  let withVolumes = 0;
  let running = 0;
  for (const { id } of apps) {
    const app = obj((await call(emu, 'GET', `/mc/apps/${id}`)).json) as unknown as AppJson;
    ok(checkResponse('mc', '/apps/{appId}', 'get', 200, app));
    const overview = obj((await call(emu, 'GET', `/mc/apps/${id}/overview`)).json) as unknown as OverviewJson;
    const volumes = await call(emu, 'GET', `/mc/apps/${id}/volumes`);
    assert.equal(volumes.status, 200);
    ok(checkResponse('mc', '/apps/{appId}/volumes', 'get', 200, volumes.json));
    const endpoints = await call(emu, 'GET', `/mc/apps/${id}/endpoints`);
    assert.equal(endpoints.status, 200);
    ok(checkResponse('mc', '/apps/{appId}/endpoints', 'get', 200, endpoints.json));

    assert.ok(app.containerTemplates.length >= 1, 'every app has a container template');
    for (const t of app.containerTemplates) {
      assert.ok(registryIds.has(t.imageRegistryId), 'the image comes from a listed registry');
      const one = await call(emu, 'GET', `/mc/apps/${id}/containers/${t.id}`);
      ok(checkResponse('mc', '/apps/{appId}/containers/{containerId}', 'get', 200, one.json));
      masked += t.environmentVariables.filter((e) => /\*{8}/.test(e.value ?? '')).length;
    }
    // The endpoint the list shows is one the app's containers expose, and /endpoints lists them all.
    const listed = (obj(endpoints.json).items as { id: string }[]).map((e) => e.id);
    assert.deepEqual(
      listed,
      app.containerTemplates.flatMap((t) => t.endpoints.map((e) => e.id)),
    );
    assert.ok(listed.includes(app.displayEndpoint.id));

    // Instances: one per template in each pod the overview reports, every pod in an overview region.
    const pods = overview.regions.flatMap((r) => r.pods.map((p) => p.name));
    assert.deepEqual([...new Set(app.containerInstances.map((i) => i.podId))].sort(), [...pods].sort());
    assert.equal(app.containerInstances.length, pods.length * app.containerTemplates.length);
    assert.equal(overview.desiredInstances, pods.length);
    assert.ok(overview.activeInstances.indicator <= overview.desiredInstances);
    for (const r of overview.regions) {
      assert.equal(r.instances, r.pods.length);
      assert.ok(r.instances <= limits.maxNumberOfInstancesPerRegion, 'within the per-region limit');
    }
    assert.ok(pods.length <= limits.maxNumberOfInstancesPerApplication);
    const expectedRegions = app.regionSettings.requiredRegionIds.length
      ? app.regionSettings.requiredRegionIds
      : app.regionSettings.allowedRegionIds.slice(0, 1);
    if (app.status === 'active' || app.status === 'progressing') {
      running++;
      assert.deepEqual(
        overview.regions.map((r) => r.region),
        expectedRegions,
      );
    } else assert.equal(pods.length, 0, `a ${app.status} app runs nothing`);

    // Volumes: the app's templates, mounted by a container, one instance per pod in the pod's region.
    const items = (obj(volumes.json) as unknown as VolumesJson).items;
    assert.deepEqual(
      items.map((v) => ({ name: v.name, size: v.size })),
      app.volumes,
    );
    assert.ok(items.length <= limits.maxNumberOfVolumesPerApplication);
    for (const v of items) {
      assert.ok(v.size <= limits.maxVolumeSize);
      assert.ok(
        app.containerTemplates.some((t) => t.volumeMounts.some((m) => m.name === v.name)),
        `${v.name} is mounted`,
      );
      assert.deepEqual(v.volumeInstances.map((i) => i.attachedPods[0]).sort(), [...pods].sort());
      for (const i of v.volumeInstances) assert.ok(overview.regions.find((r) => r.region === i.region)!.pods.some((p) => p.name === i.attachedPods[0]));
    }
    if (items.length) withVolumes++;
  }
  assert.ok(masked > 0, 'some env secrets come back masked');
  assert.ok(withVolumes > 0 && running > 0);

  for (const path of ['/mc/apps/nope/endpoints', '/mc/apps/nope/containers/x', `/mc/apps/${active}/containers/nope`]) {
    const missing = await call(emu, 'GET', path);
    assert.equal(missing.status, 404, path);
    ok(checkResponse('mc', path.includes('/endpoints') ? '/apps/{appId}/endpoints' : '/apps/{appId}/containers/{containerId}', 'get', 404, missing.json));
  }
  const noVolumes = await call(emu, 'GET', `/mc/apps/${active}/volumes`, { key: null });
  assert.equal(noVolumes.status, 401);
  ok(checkResponse('mc', '/apps/{appId}/volumes', 'get', 401, noVolumes.json));
});

test('a region settings change moves the instances and the volumes with it', async () => {
  const target = apps.filter((a) => a.status === 'active').at(-1)!.id;
  const put = await call(emu, 'PUT', `/mc/apps/${target}/region-settings`, {
    body: { allowedRegionIds: ['SG', 'JP', 'DE'], requiredRegionIds: ['SG', 'JP'], maxAllowedRegions: 3 },
  });
  assert.equal(put.status, 200);
  const overview = obj((await call(emu, 'GET', `/mc/apps/${target}/overview`)).json) as unknown as OverviewJson;
  assert.deepEqual(
    overview.regions.map((r) => r.region),
    ['SG', 'JP'],
  );
  const app = obj((await call(emu, 'GET', `/mc/apps/${target}`)).json) as unknown as AppJson;
  assert.equal(app.containerInstances.length, overview.desiredInstances * app.containerTemplates.length);
});
