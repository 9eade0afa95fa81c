import type { Router } from '../http-kit';
import type { PullZoneSeed, World } from '../world';
import { readCorePaging, sendCoreList } from './core-paging';
import { coreError, parseWhole } from './replies';

/** Extra, fixed fields of a pull zone record, seeded once per zone id. */
interface ZoneExtras {
  Type: number;
  MonthlyBandwidthUsed: number;
  MonthlyCharges: number;
  EnableOriginShield: boolean;
  OriginShieldZoneCode: string;
  LogAnonymizationType: number;
  LoggingIPAnonymizationEnabled: boolean;
  CacheControlMaxAgeOverride: number;
}

const extrasByWorld = new WeakMap<World, Map<number, ZoneExtras>>();

function extrasFor(world: World, zone: PullZoneSeed): ZoneExtras {
  let map = extrasByWorld.get(world);
  if (!map) extrasByWorld.set(world, (map = new Map()));
  let e = map.get(zone.Id);
  if (!e) {
    const r = world.random.fork(`pull-zone-${zone.Id}`);
    const bandwidth = Math.round(zone.trafficWeight * 4e12 * (0.5 + r.next()) + r.int(0, 5e9));
    e = {
      Type: r.bool(0.8) ? 0 : 1,
      MonthlyBandwidthUsed: bandwidth,
      MonthlyCharges: Math.round((bandwidth / 1e9) * 0.01 * 100) / 100,
      EnableOriginShield: r.bool(0.5),
      OriginShieldZoneCode: r.pick(['FR', 'IL', 'NY', 'LA']),
      LogAnonymizationType: r.bool(0.7) ? 0 : 1,
      LoggingIPAnonymizationEnabled: r.bool(0.6),
      CacheControlMaxAgeOverride: r.pick([-1, -1, 0, 3600, 86400]),
    };
    map.set(zone.Id, e);
  }
  return e;
}

/** A PullZoneModel subset: the fields a zone list and the log screen's picker need. */
export function pullZoneRecord(world: World, zone: PullZoneSeed): Record<string, unknown> {
  return {
    Id: zone.Id,
    Name: zone.Name,
    OriginUrl: zone.OriginUrl,
    Enabled: zone.Enabled,
    Suspended: zone.Suspended,
    Hostnames: zone.Hostnames.map((h) => ({ ...h, IsManagedHostname: false })),
    StorageZoneId: 0,
    EnableLogging: zone.EnableLogging,
    CnameDomain: 'b-cdn.net',
    OriginType: 0,
    VideoLibraryId: 0,
    LoadBalancerId: null,
    ...extrasFor(world, zone),
  };
}

export function registerPullZones(router: Router, world: World): void {
  router.get('/pullzone', (ctx) => {
    const paging = readCorePaging(ctx);
    if (!paging) return;
    const { search } = paging;
    const zones = world.pullZones.filter((z) => search === null || z.Name.toLowerCase().includes(search));
    sendCoreList(
      ctx,
      paging,
      zones.map((z) => pullZoneRecord(world, z)),
    );
  });
  router.get('/pullzone/:id', (ctx) => {
    const id = parseWhole(ctx.params.id ?? '');
    const zone = id === null ? undefined : world.pullZones.find((z) => z.Id === id);
    // The body the core API documents in its errors page.
    if (!zone) return coreError(ctx, 404, 'pullZone.not_found', 'PullZone', 'The requested Pull Zone was not found');
    ctx.send(200, pullZoneRecord(world, zone));
  });
}
