import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from '../helpers/emulator';
import { startEmulator } from '../../src/emulator/server';
import { call, obj } from '../contract/call';

// Load balancers, pull zones, 401 shapes per family, unknown paths, determinism.

const emu = await useEmulator();

interface Origin {
  OriginType: number;
  HealthStatus: number;
  StandardOrigin: unknown;
  StorageZoneId: number | null;
  EdgeScriptId: number | null;
  MagicContainersOrigin: { AppId: string } | null;
}
interface Group {
  Priority: number;
  Weight: number;
  Latitude: number;
  Longitude: number;
  HealthCheckSettings: unknown;
  Origins: Origin[];
}
interface Profile {
  LoadBalancerId: number;
  OriginGroupLoadBalancingMethod: number;
  StickySessionType: number;
  OriginGroups: Group[];
}

test('load balancers: ~8 profiles, several groups each, origins of every type with health status', async () => {
  const all = (await call(emu, 'GET', '/loadbalancer')).json as Profile[];
  assert.equal(all.length, 8);
  assert.ok(all.every((p) => p.OriginGroups.length >= 2));
  assert.deepEqual([...new Set(all.map((p) => p.OriginGroupLoadBalancingMethod))].sort(), [0, 1, 2, 3]);
  assert.ok(all.some((p) => p.StickySessionType === 1) && all.some((p) => p.StickySessionType === 0));
  const origins = all.flatMap((p) => p.OriginGroups.flatMap((g) => g.Origins));
  assert.deepEqual([...new Set(origins.map((o) => o.OriginType))].sort(), [0, 1, 2, 3]);
  assert.deepEqual([...new Set(origins.map((o) => o.HealthStatus))].sort(), [0, 1]);
  const apps = obj((await call(emu, 'GET', '/mc/apps?limit=1000')).json).items as { id: string }[];
  for (const o of origins) {
    // Exactly the settings block of its type is filled.
    assert.equal(o.StandardOrigin !== null, o.OriginType === 0);
    assert.equal(o.StorageZoneId !== null, o.OriginType === 1);
    assert.equal(o.EdgeScriptId !== null, o.OriginType === 2);
    assert.equal(o.MagicContainersOrigin !== null, o.OriginType === 3);
    if (o.MagicContainersOrigin)
      assert.ok(
        apps.some((a) => a.id === o.MagicContainersOrigin!.AppId),
        'MC origins point at real apps',
      );
  }
  const groups = all.flatMap((p) => p.OriginGroups);
  assert.ok(groups.every((g) => g.Weight >= 1 && g.Weight <= 255 && g.Priority >= 0 && g.Priority <= 255));
  assert.ok(new Set(groups.map((g) => g.Priority)).size > 1 && groups.some((g) => g.Latitude !== 0));
});

test('load balancer paging (page/count, plain array) and GET by id; unknown or malformed id -> 404 ApiErrorData', async () => {
  const all = (await call(emu, 'GET', '/loadbalancer')).json as Profile[];
  const pages = [];
  for (let page = 1; page <= 3; page++) pages.push(...((await call(emu, 'GET', `/loadbalancer?page=${page}&count=3`)).json as Profile[]));
  assert.deepEqual(
    pages.map((p) => p.LoadBalancerId),
    all.map((p) => p.LoadBalancerId),
  );
  assert.deepEqual((await call(emu, 'GET', '/loadbalancer?page=9')).json, []);
  for (const q of ['page=0', 'count=0', 'count=1001', 'page=x']) assert.equal((await call(emu, 'GET', `/loadbalancer?${q}`)).status, 400, q);
  assert.deepEqual((await call(emu, 'GET', `/loadbalancer/${all[2]!.LoadBalancerId}`)).json, all[2]);
  for (const id of ['1', '0', 'abc', '-3', '1.5', '%20']) {
    const a = await call(emu, 'GET', `/loadbalancer/${id}`);
    assert.equal(a.status, 404, id);
    assert.deepEqual(a.json, { ErrorKey: 'loadBalancer.not_found', Field: 'LoadBalancer', Message: 'The requested Load Balancer profile was not found' });
  }
});

test('pull zones: the world zones with logging flags, both list forms, search, by id, 404', async () => {
  const all = (await call(emu, 'GET', '/pullzone')).json as { Id: number; Name: string; EnableLogging: boolean; Hostnames: unknown[] }[];
  assert.deepEqual(
    all.map((z) => [z.Id, z.Name, z.EnableLogging]),
    emu.world.pullZones.map((z) => [z.Id, z.Name, z.EnableLogging]),
  );
  assert.ok(all.some((z) => z.EnableLogging) && all.some((z) => !z.EnableLogging));
  const paged = obj((await call(emu, 'GET', '/pullzone?page=2&perPage=5')).json);
  assert.deepEqual(
    (paged.Items as { Id: number }[]).map((z) => z.Id),
    all.slice(5, 10).map((z) => z.Id),
  );
  assert.equal(paged.HasMoreItems, all.length > 10);
  const found = (await call(emu, 'GET', '/pullzone?search=SHOP')).json as { Name: string }[];
  assert.deepEqual(
    found.map((z) => z.Name),
    all.filter((z) => z.Name.includes('shop')).map((z) => z.Name),
  );
  assert.deepEqual((await call(emu, 'GET', `/pullzone/${all[1]!.Id}`)).json, all[1]);
  const missing = await call(emu, 'GET', '/pullzone/1');
  assert.equal(missing.status, 404);
  assert.equal(obj(missing.json).ErrorKey, 'pullZone.not_found');
});

test('401 in each family shape: shield ProblemDetails (shield-zones: UnauthorizedResult), MC ProblemDetails, core empty', async () => {
  for (const key of [null, 'wrong-key']) {
    const shield = await call(emu, 'GET', '/shield/shield-zone/1/api-guardian', { key });
    assert.equal(shield.status, 401);
    assert.equal(obj(shield.json).status, 401);
    assert.equal(obj(shield.json).title, 'Unauthorized');
    assert.deepEqual((await call(emu, 'GET', '/shield/shield-zones', { key })).json, { statusCode: 401 });
    const mc = await call(emu, 'PUT', '/mc/apps/x/region-settings', { key, body: {} });
    assert.equal(mc.status, 401);
    assert.equal(obj(mc.json).status, 401);
    for (const path of ['/videolibrary', '/loadbalancer/1', '/pullzone']) {
      const core = await call(emu, 'GET', path, { key });
      assert.equal(core.status, 401, path);
      assert.equal(core.text, '', path);
    }
  }
});

test('unknown paths answer the HTML 404 page; a known path with another method answers 405', async () => {
  for (const path of ['/nope', '/shield/shield-zone/1/api-guardian/extra', '/mc/app', '/videolibrary/1/x/y', '/loadbalancers']) {
    const a = await call(emu, 'GET', path);
    assert.equal(a.status, 404, path);
    assert.match(a.contentType, /text\/html/);
    assert.match(a.text, /<title>404/);
  }
  assert.equal((await call(emu, 'DELETE', '/videolibrary')).status, 405);
});

test('same seed (and clock), same world; another seed, another world', async () => {
  const paths = ['/shield/shield-zones?perPage=100', '/mc/apps?limit=1000', '/mc/regions?limit=1000', '/videolibrary', '/loadbalancer', '/pullzone'];
  // Seeded dates are relative to the start time, so the clock is fixed too.
  const now = () => Date.parse('2026-05-01T12:00:00Z');
  const [one, twin, other] = await Promise.all([
    startEmulator({ seed: 7, port: 0, now }),
    startEmulator({ seed: 7, port: 0, now }),
    startEmulator({ seed: 8, port: 0, now }),
  ]);
  try {
    const all = async (e: typeof emu) => {
      const zs = obj((await call(e, 'GET', '/shield/shield-zones?perPage=100')).json).data as { shieldZoneId: number }[];
      const apps = obj((await call(e, 'GET', '/mc/apps?limit=1000')).json).items as { id: string }[];
      const bodies = await Promise.all([
        ...paths.map((p) => call(e, 'GET', p)),
        ...zs.map((z) => call(e, 'GET', `/shield/shield-zone/${z.shieldZoneId}/api-guardian`)),
        ...apps.map((a) => call(e, 'GET', `/mc/apps/${a.id}/region-settings`)),
      ]);
      return bodies.map((b) => b.text);
    };
    const [a, b, c] = await Promise.all([all(one), all(twin), all(other)]);
    assert.equal(a.length, b.length);
    for (let i = 0; i < a.length; i++) assert.ok(a[i] === b[i], `answer ${i} is the same for the same seed`);
    assert.notEqual(one.info.accessKey, twin.info.accessKey, 'the seed makes the data, never the secrets');
    // Regions are a fixed catalogue; everything else is seeded.
    for (let i = 0; i < paths.length; i++) if (!paths[i]!.startsWith('/mc/regions')) assert.ok(a[i] !== c[i], `${paths[i]} differs for another seed`);
  } finally {
    await Promise.all([one.close(), twin.close(), other.close()]);
  }
});
