import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { rawJsonOf } from '../../src/api/raw-json';

const emu = await useEmulator();
const api = apiFor(emu);

async function serverJson(path: string): Promise<unknown> {
  const res = await fetch(`${emu.info.baseUrl}${path}`, { headers: { AccessKey: emu.info.accessKey } });
  assert.equal(res.status, 200);
  return res.json();
}

test('list clients keep each record as the server sent it: video libraries, load balancers and their groups and origins, apps', async () => {
  const page = await api.videoLibraries.listPage(1, 10);
  const rawPage = (await serverJson('/videolibrary?page=1&perPage=10')) as { Items: unknown[] };
  assert.equal(page.items.length, 10);
  page.items.forEach((item, i) => assert.deepEqual(rawJsonOf(item), rawPage.Items[i]));

  const lbs = await api.loadBalancers.list(1, 50);
  const rawLbs = (await serverJson('/loadbalancer?page=1&count=50')) as { OriginGroups: { Origins: unknown[] }[] }[];
  lbs.forEach((lb, i) => assert.deepEqual(rawJsonOf(lb), rawLbs[i]));
  const lb = await api.loadBalancers.get(lbs[0]!.LoadBalancerId);
  const rawLb = (await serverJson(`/loadbalancer/${lb.LoadBalancerId}`)) as { OriginGroups: { Origins: unknown[] }[] };
  lb.OriginGroups.forEach((g, i) => {
    assert.deepEqual(rawJsonOf(g), rawLb.OriginGroups[i]);
    g.Origins.forEach((o, k) => assert.deepEqual(rawJsonOf(o), rawLb.OriginGroups[i]!.Origins[k]));
  });

  const apps = await api.containers.listApps({ limit: 5 });
  const rawApps = (await serverJson('/mc/apps?limit=5')) as { items: unknown[] };
  apps.items.forEach((a, i) => assert.deepEqual(rawJsonOf(a), rawApps.items[i]));
});

test('shield: zones and the API Guardian endpoints (unwrapped from their envelope) keep their raw JSON', async () => {
  const { zones } = await api.shield.listZones(1, 10);
  const rawZones = (await serverJson('/shield/shield-zones?page=1&perPage=10')) as { data: unknown[] };
  zones.forEach((z, i) => assert.deepEqual(rawJsonOf(z), rawZones.data[i]));
  for (const zone of zones) {
    const guardian = await api.shield.getApiGuardian(zone.shieldZoneId);
    if (guardian.endpoints.length === 0) continue;
    const raw = (await serverJson(`/shield/shield-zone/${zone.shieldZoneId}/api-guardian`)) as { data: { endpoints: unknown[] } };
    guardian.endpoints.forEach((e, i) => assert.deepEqual(rawJsonOf(e), raw.data.endpoints[i]));
    return;
  }
  assert.fail('no zone with API Guardian endpoints in the seed');
});
