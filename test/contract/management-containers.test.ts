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
  for (const [path, doc] of [['/mc/apps', '/apps'], ['/mc/regions', '/regions']] as const) {
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
