import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { LoadBalancerSchema, type LoadBalancer } from '../../src/api/load-balancers';
import { cellText, cellTone } from '../../src/text/table-model';
import {
  groupDetail,
  groupsByPriority,
  healthCell,
  healthCount,
  lbColumns,
  originTarget,
  profileColumns,
  profileRows,
  profileSummary,
} from '../../src/renderers/load-balancers';
import { enumName } from '../../src/renderers/format';

const origin = (Id: number, OriginType: number, over: Record<string, unknown> = {}) => ({
  Id,
  Weight: 100,
  Enabled: true,
  HealthStatus: 0,
  OriginType,
  ...over,
});
const profile = (): LoadBalancer =>
  LoadBalancerSchema.of(z).parse({
    LoadBalancerId: 42,
    Name: 'shop',
    OriginGroupLoadBalancingMethod: 3,
    StickySessionType: 1,
    OriginGroups: [
      {
        Id: 1,
        Name: 'fallback',
        Enabled: true,
        Latitude: 1.35211,
        Longitude: 103.8198,
        Weight: 50,
        Priority: 100,
        OriginLoadBalancingMethod: 0,
        HealthCheckSettings: null,
        Origins: [origin(11, 1, { StorageZoneId: 640001, HealthStatus: 1 })],
      },
      {
        Id: 2,
        Name: 'primary',
        Enabled: true,
        Latitude: 50.1109,
        Longitude: 8.6821,
        Weight: 100,
        Priority: 1,
        OriginLoadBalancingMethod: 2,
        HealthCheckSettings: { Enabled: true, Path: '/healthz' },
        Origins: [
          origin(21, 0, { StandardOrigin: { OriginUrl: 'https://o.example.net', HostHeader: 'shop.example.com', VerifySsl: false } }),
          origin(22, 2, { EdgeScriptId: 777, Enabled: false }),
          origin(23, 3, { MagicContainersOrigin: { AppId: 'pdZdipupoFrUKG4', EndPointId: '123456' }, HealthStatus: 1 }),
        ],
      },
      {
        Id: 3,
        Name: 'secondary',
        Enabled: false,
        Latitude: 0,
        Longitude: 0,
        Weight: 1,
        Priority: 1,
        HealthCheckSettings: { Enabled: false, Path: '/' },
        Origins: [],
      },
    ],
  });

test('groups by Priority, lower first; equal priorities keep the API order', () => {
  assert.deepEqual(
    groupsByPriority(profile()).map((g) => g.Name),
    ['primary', 'secondary', 'fallback'],
  );
  const rows = profileRows(profile());
  assert.deepEqual(
    rows.map((r) => (r.kind === 'group' ? `G:${r.group.Name}` : `O:${r.origin.Id}`)),
    ['G:primary', 'O:21', 'O:22', 'O:23', 'G:secondary', 'G:fallback', 'O:11'],
  );
});

test('origins by type with their target; enum names, unknown values said so', () => {
  const [p] = [profile()];
  const byId = new Map(p.OriginGroups.flatMap((g) => g.Origins).map((o) => [o.Id, o]));
  assert.equal(originTarget(byId.get(21)!), 'https://o.example.net · host header shop.example.com · TLS not verified');
  assert.equal(originTarget(byId.get(11)!), 'storage zone 640001');
  assert.equal(originTarget(byId.get(22)!), 'edge script 777');
  assert.equal(originTarget(byId.get(23)!), 'app pdZdipupoFrUKG4 · endpoint 123456');
  assert.equal(originTarget({ Id: 1, OriginType: 9 }), 'origin type 9');
  assert.equal(enumName({ 0: 'Off' }, 5), 'unknown (5)');
  const item = profileColumns.find((c) => c.id === 'item')!;
  const types = profileRows(p)
    .filter((r) => r.kind === 'origin')
    .map((r) => cellText(item.cell(r)).trim());
  assert.deepEqual(types, ['Standard', 'EdgeScript', 'MagicContainer', 'Storage']);
});

test('health: counts and colours (all healthy green, some degraded yellow, none red); group location and check', () => {
  const p = profile();
  const all = p.OriginGroups.flatMap((g) => g.Origins);
  assert.deepEqual(healthCount(all), { healthy: 2, degraded: 2, unknown: 0, total: 4 });
  assert.deepEqual(healthCell(healthCount(all)), { text: '2/4 healthy', tone: 'warn' });
  assert.deepEqual(healthCell(healthCount([all[1]!])), { text: '1/1 healthy', tone: 'ok' });
  assert.deepEqual(healthCell(healthCount([all[0]!])), { text: '0/1 healthy', tone: 'error' });
  assert.deepEqual(healthCell(healthCount([])), { text: 'no origins', tone: 'muted' });
  const [primary, secondary, fallback] = groupsByPriority(p);
  assert.equal(groupDetail(primary!), 'lat 50.1109, long 8.6821 · health check /healthz · origins LeastConnections');
  assert.equal(groupDetail(secondary!), 'lat 0, long 0 · health check off (/)');
  assert.equal(groupDetail(fallback!), 'lat 1.3521, long 103.8198 · no health check settings · origins RoundRobin');
  const health = profileColumns.find((c) => c.id === 'health')!;
  const degraded = profileRows(p).find((r) => r.kind === 'origin' && r.origin.Id === 23)!;
  assert.equal(cellText(health.cell(degraded)), 'Degraded');
  assert.equal(cellTone(health.cell(degraded)), 'warn');
});

test('list row and profile summary: method and sticky sessions by name', () => {
  const p = profile();
  assert.deepEqual(
    lbColumns.map((c) => cellText(c.cell(p))),
    ['shop', '42', 'LowestAverageLatency', 'Cookie', '3', '4', '2/4 healthy'],
  );
  assert.equal(profileSummary(p), 'method LowestAverageLatency · sticky sessions Cookie · 3 groups · 4 origins');
});
