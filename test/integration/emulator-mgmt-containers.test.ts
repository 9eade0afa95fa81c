import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from '../contract/call';

const emu = await useEmulator();

interface App {
  id: string;
  name: string;
  status: string;
  displayEndpoint: { type: string };
}
interface Region {
  id: string;
  hasCapacity: boolean;
  hasAnycastSupport: boolean;
  group: string;
}
interface Problem {
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: { field: string | null; message: string }[];
  id?: string;
}

async function walk<T>(path: string, limit: number): Promise<{ items: T[]; pages: number; totals: number[] }> {
  const items: T[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const a = await call(emu, 'GET', `${path}?limit=${limit}${cursor ? `&nextCursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(a.status, 200);
    const body = obj(a.json);
    const page = body.items as T[];
    assert.ok(page.length <= limit);
    items.push(...page);
    totals.push(obj(body.meta).totalItems as number);
    cursor = body.cursor as string | null;
    pages++;
  } while (cursor !== null && pages < 100);
  return { items, pages, totals };
}

const apps = (await walk<App>('/mc/apps', 1000)).items;
const regions = (await walk<Region>('/mc/regions', 1000)).items;
const putSettings = (id: string, body: unknown) => call(emu, 'PUT', `/mc/apps/${id}/region-settings`, { body });
const getSettings = async (id: string) => obj((await call(emu, 'GET', `/mc/apps/${id}/region-settings`)).json);
const active = apps.find((a) => a.status === 'active')!;

test('apps: every status, count equals existingNumberOfApplications, 15-character ids', async () => {
  assert.equal(apps.length, 15);
  assert.deepEqual([...new Set(apps.map((a) => a.status))].sort(), ['active', 'failing', 'inactive', 'progressing', 'suspended', 'unknown']);
  const limits = obj((await call(emu, 'GET', '/mc/limits')).json);
  assert.equal(limits.existingNumberOfApplications, apps.length);
  for (const a of apps) assert.match(a.id, /^[A-Za-z0-9]{15}$/);
  assert.ok(new Set(apps.map((a) => a.displayEndpoint.type)).size >= 2);
});

test('regions: ~20, some without capacity, some anycast', () => {
  assert.equal(regions.length, 20);
  assert.ok(regions.some((r) => !r.hasCapacity) && regions.some((r) => r.hasCapacity));
  assert.ok(regions.some((r) => r.hasAnycastSupport) && regions.some((r) => !r.hasAnycastSupport));
});

test('cursor paging walks every app and region exactly once; default limit is 20', async () => {
  for (const [path, all] of [
    ['/mc/apps', apps.map((a) => a.id)],
    ['/mc/regions', regions.map((r) => r.id)],
  ] as const) {
    for (const limit of [1, 4, 7]) {
      const w = await walk<{ id: string }>(path, limit);
      assert.deepEqual(
        w.items.map((x) => x.id),
        all,
        `${path} limit ${limit}`,
      );
      assert.equal(w.pages, Math.ceil(all.length / limit));
      assert.ok(w.totals.every((t) => t === all.length));
    }
    const first = obj((await call(emu, 'GET', path)).json);
    assert.equal((first.items as unknown[]).length, Math.min(20, all.length));
    assert.equal(first.cursor, all.length > 20 ? first.cursor : null);
  }
  // A cursor of one list is not accepted by the other.
  const appsPage = obj((await call(emu, 'GET', '/mc/apps?limit=2')).json);
  const crossed = await call(emu, 'GET', `/mc/regions?nextCursor=${appsPage.cursor as string}`);
  assert.equal(crossed.status, 400);
});

test('limit and cursor bounds -> 400 ErrorDetails with the field', async () => {
  for (const [q, field] of [
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['nextCursor=%%%', 'nextCursor'],
    ['nextCursor=eyJrIjoiYXBwcyIsIm8iOi0xfQ', 'nextCursor'],
  ] as const) {
    const a = await call(emu, 'GET', `/mc/apps?${q}`);
    assert.equal(a.status, 400, q);
    const p = obj(a.json) as unknown as Problem;
    assert.equal(p.status, 400);
    assert.equal(p.instance, '/mc/apps');
    assert.equal(p.errors?.[0]?.field, field, q);
  }
  const ok = await call(emu, 'GET', '/mc/apps?limit=1000');
  assert.equal(ok.status, 200);
});

test('region settings: GET, PUT answers 200 with an empty body, the change is kept, null/absent fields stay', async () => {
  const before = await getSettings(active.id);
  assert.ok(Array.isArray(before.allowedRegionIds) && (before.allowedRegionIds as string[]).length > 0);
  assert.ok(['static', 'dynamic'].includes(before.provisioningType as string));
  assert.equal('nodeSelectors' in before, false);
  const a = await putSettings(active.id, {
    allowedRegionIds: ['DE', 'UK', 'NY'],
    requiredRegionIds: ['DE', 'UK'],
    maxAllowedRegions: 3,
    nodeSelectors: { tier: 'gpu' },
  });
  assert.equal(a.status, 200);
  assert.equal(a.text, '');
  const after = await getSettings(active.id);
  assert.deepEqual(after, {
    allowedRegionIds: ['DE', 'UK', 'NY'],
    requiredRegionIds: ['DE', 'UK'],
    maxAllowedRegions: 3,
    provisioningType: before.provisioningType,
  });
  const partial = await putSettings(active.id, { maxAllowedRegions: 2, allowedRegionIds: null });
  assert.equal(partial.status, 200);
  assert.deepEqual(await getSettings(active.id), { ...after, maxAllowedRegions: 2 });
  assert.equal((await putSettings(active.id, {})).status, 200);
});

test('region settings validation: every rule answers 400 with errors[] naming the field, and nothing changes', async () => {
  const app = apps.filter((a) => a.status === 'active')[1]!;
  const before = await getSettings(app.id);
  const cases: [unknown, string, RegExp][] = [
    [{ allowedRegionIds: ['DE', 'XX'] }, 'allowedRegionIds', /unknown region ids: XX/],
    [{ allowedRegionIds: ['DE'], requiredRegionIds: ['QQ'] }, 'requiredRegionIds', /unknown region ids: QQ/],
    [{ allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['NY'] }, 'requiredRegionIds', /must also be allowed: NY/],
    [{ allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['DE'], maxAllowedRegions: 11 }, 'maxAllowedRegions', /over the account limit of 10/],
    [{ allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['DE', 'UK'], maxAllowedRegions: 1 }, 'maxAllowedRegions', /less than the 2 required/],
    [{ allowedRegionIds: ['DE'], maxAllowedRegions: 0 }, 'maxAllowedRegions', /at least 1/],
    [{ allowedRegionIds: ['DE', 'DE'] }, 'allowedRegionIds', /more than once/],
    [{ allowedRegionIds: 'DE' }, 'allowedRegionIds', /array of region id strings/],
    [{ requiredRegionIds: [1, 2] }, 'requiredRegionIds', /array of region id strings/],
    [{ maxAllowedRegions: '3' }, 'maxAllowedRegions', /whole number or null/],
    [{ maxAllowedRegions: 2.5 }, 'maxAllowedRegions', /whole number or null/],
    [{ nodeSelectors: ['a'] }, 'nodeSelectors', /object of string keys to string values/],
    [{ nodeSelectors: { tier: 5 } }, 'nodeSelectors.tier', /must be strings/],
    [{ allowedRegionIds: [] }, 'allowedRegionIds', /at least one region/],
    [{ regions: ['DE'] }, 'regions', /unknown field/],
  ];
  for (const [body, field, message] of cases) {
    const a = await putSettings(app.id, body);
    assert.equal(a.status, 400, JSON.stringify(body));
    const p = obj(a.json) as unknown as Problem;
    assert.equal(p.id, app.id);
    const e = p.errors?.find((x) => x.field === field);
    assert.ok(e, `${JSON.stringify(body)} -> ${JSON.stringify(p.errors)}`);
    assert.match(e.message, message);
  }
  for (const raw of ['{"allowedRegionIds": [', '[]', 'null']) {
    const a = await putSettings(app.id, raw);
    assert.equal(a.status, 400, raw);
    assert.ok((obj(a.json) as unknown as Problem).detail);
  }
  assert.deepEqual(await getSettings(app.id), before);
});

test('region settings: unknown app -> 404, suspended app -> 403, required region without capacity -> 422', async () => {
  for (const method of ['GET', 'PUT'] as const) {
    const a = await call(emu, method, '/mc/apps/NoSuchApp000000/region-settings', { body: method === 'PUT' ? {} : undefined });
    assert.equal(a.status, 404);
    assert.match((obj(a.json) as unknown as Problem).detail, /not found/);
  }
  const suspended = apps.find((a) => a.status === 'suspended')!;
  const s = await putSettings(suspended.id, { maxAllowedRegions: 1, requiredRegionIds: [] });
  assert.equal(s.status, 403);
  const full = regions.find((r) => !r.hasCapacity)!;
  const f = await putSettings(active.id, { allowedRegionIds: [full.id, 'DE'], requiredRegionIds: [full.id], maxAllowedRegions: 2 });
  assert.equal(f.status, 422);
  assert.match(JSON.stringify(obj(f.json).errors), new RegExp(`region ${full.id} has no capacity`));
});
