import type { Random } from '../random';
import type { McApp } from './containers-seed';

export interface LbOrigin {
  Id: number;
  Weight: number;
  Enabled: boolean;
  /** 0 Healthy, 1 Degraded. */
  HealthStatus: number;
  /** 0 Standard, 1 Storage, 2 EdgeScript, 3 MagicContainer. */
  OriginType: number;
  EdgeScriptId: number | null;
  StorageZoneId: number | null;
  StandardOrigin: { OriginUrl: string; HostHeader: string; VerifySsl: boolean } | null;
  MagicContainersOrigin: { AppId: string; EndPointId: string } | null;
}

export interface LbOriginGroup {
  Id: number;
  Name: string;
  Enabled: boolean;
  Latitude: number;
  Longitude: number;
  Weight: number;
  Priority: number;
  /** 0 RoundRobin, 1 WeightedRandom, 2 LeastConnections, 3 Latency. */
  OriginLoadBalancingMethod: number;
  Origins: LbOrigin[];
  HealthCheckSettings: { Enabled: boolean; Path: string } | null;
}

export interface LoadBalancerProfile {
  LoadBalancerId: number;
  Name: string;
  /** 0 WeightedRandom, 1 RoundRobin, 2 GeoLocation, 3 LowestAverageLatency. */
  OriginGroupLoadBalancingMethod: number;
  /** 0 Off, 1 Cookie. */
  StickySessionType: number;
  OriginGroups: LbOriginGroup[];
}

const PROFILES = ['shop-global', 'api-failover', 'media-origins', 'eu-only', 'partner-gateway', 'docs-static', 'game-servers', 'canary-rollout'];
// [name, lat, long]
const SITES: [string, number, number][] = [
  ['frankfurt', 50.1109, 8.6821],
  ['london', 51.5072, -0.1276],
  ['amsterdam', 52.3676, 4.9041],
  ['new-york', 40.7128, -74.006],
  ['ashburn', 39.0438, -77.4874],
  ['los-angeles', 34.0522, -118.2437],
  ['singapore', 1.3521, 103.8198],
  ['tokyo', 35.6762, 139.6503],
  ['sydney', -33.8688, 151.2093],
  ['sao-paulo', -23.5558, -46.6396],
];
const HOSTS = ['origin', 'app', 'web', 'api', 'static', 'edge'];

export function seedLoadBalancers(r: Random, apps: McApp[]): LoadBalancerProfile[] {
  const cdnApps = apps.filter((a) => a.displayEndpoint.type === 'cdn');
  let profileId = 3_100 + r.int(0, 200);
  let groupId = 91_000 + r.int(0, 500);
  let originId = 540_000 + r.int(0, 5000);
  return PROFILES.map((name, p) => {
    profileId += r.int(1, 25);
    const groupCount = r.int(2, 4);
    const sites = [...SITES];
    const groups: LbOriginGroup[] = [];
    for (let g = 0; g < groupCount; g++) {
      const [site, lat, lon] = sites.splice(r.int(0, sites.length - 1), 1)[0]!;
      const originCount = r.int(1, 4);
      const origins: LbOrigin[] = [];
      for (let o = 0; o < originCount; o++) {
        // The first profile shows every origin type in its first group.
        const type =
          p === 0 && g === 0
            ? o % 4
            : r.weighted([
                [0, 6],
                [1, 2],
                [2, 1],
                [3, cdnApps.length ? 1 : 0],
              ]);
        const app = type === 3 ? r.pick(cdnApps) : null;
        const host = `${r.pick(HOSTS)}-${site}-${o + 1}.example.net`;
        origins.push({
          Id: ++originId,
          Weight: r.pick([1, 10, 50, 100, 100, 100, 200]),
          Enabled: r.bool(0.9),
          HealthStatus: r.bool(0.8) ? 0 : 1,
          OriginType: type,
          EdgeScriptId: type === 2 ? r.int(10_000, 99_999) : null,
          StorageZoneId: type === 1 ? r.int(640_000, 700_000) : null,
          StandardOrigin: type === 0 ? { OriginUrl: `https://${host}`, HostHeader: r.bool(0.5) ? `${name}.example.com` : '', VerifySsl: r.bool(0.85) } : null,
          MagicContainersOrigin: app ? { AppId: app.id, EndPointId: app.displayEndpoint.id } : null,
        });
      }
      groups.push({
        Id: ++groupId,
        Name: `${site}${g === groupCount - 1 && groupCount > 2 ? '-fallback' : ''}`,
        Enabled: g === 0 || r.bool(0.85),
        Latitude: lat,
        Longitude: lon,
        Weight: r.pick([100, 100, 50, 200, 255, 1]),
        Priority: g === 0 ? 1 : r.pick([1, 2, 10, 100]),
        OriginLoadBalancingMethod: r.int(0, 3),
        Origins: origins,
        HealthCheckSettings: r.bool(0.85) ? { Enabled: r.bool(0.8), Path: r.pick(['/health', '/healthz', '/status', '/ping', '/']) } : null,
      });
    }
    return {
      LoadBalancerId: profileId,
      Name: name,
      OriginGroupLoadBalancingMethod: p < 4 ? p : r.int(0, 3),
      StickySessionType: r.bool(0.4) ? 1 : 0,
      OriginGroups: groups,
    };
  });
}
