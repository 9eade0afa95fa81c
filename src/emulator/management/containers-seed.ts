import type { Random } from '../random';

export type AppStatus = 'unknown' | 'active' | 'progressing' | 'inactive' | 'failing' | 'suspended';

export interface McRegion {
  id: string;
  name: string;
  group: string;
  hasAnycastSupport: boolean;
  hasCapacity: boolean;
}

export interface McApp {
  id: string;
  name: string;
  description: string;
  displayEndpoint: { id: string; address: string; type: 'cdn' | 'anycast' | 'publicIp' };
  status: AppStatus;
}

export interface McRegionSettings {
  allowedRegionIds: string[];
  requiredRegionIds: string[];
  maxAllowedRegions: number | null;
  provisioningType: 'static' | 'dynamic';
  /** Accepted by PUT and kept; the GET shape does not include it. */
  nodeSelectors: Record<string, string>;
}

// [id, name, group, anycast, capacity]
const REGIONS: [string, string, string, boolean, boolean][] = [
  ['DE', 'Frankfurt', 'Europe', true, true],
  ['UK', 'London', 'Europe', true, true],
  ['FR', 'Paris', 'Europe', true, true],
  ['SE', 'Stockholm', 'Europe', false, true],
  ['PL', 'Warsaw', 'Europe', false, true],
  ['ES', 'Madrid', 'Europe', false, false],
  ['IT', 'Milan', 'Europe', false, true],
  ['NY', 'New York', 'North America', true, true],
  ['LA', 'Los Angeles', 'North America', true, true],
  ['TX', 'Dallas', 'North America', false, true],
  ['MI', 'Miami', 'North America', false, false],
  ['CA', 'Toronto', 'North America', false, true],
  ['BR', 'Sao Paulo', 'South America', true, true],
  ['SG', 'Singapore', 'Asia', true, true],
  ['JP', 'Tokyo', 'Asia', true, true],
  ['HK', 'Hong Kong', 'Asia', false, true],
  ['IN', 'Mumbai', 'Asia', false, false],
  ['SYD', 'Sydney', 'Oceania', true, true],
  ['JH', 'Johannesburg', 'Africa', false, false],
  ['IL', 'Tel Aviv', 'Middle East', false, true],
];

export function seedRegions(): McRegion[] {
  return REGIONS.map(([id, name, group, hasAnycastSupport, hasCapacity]) => ({ id, name, group, hasAnycastSupport, hasCapacity }));
}

// [name, description]
const APPS: [string, string][] = [
  ['checkout-api', 'Payment and order API behind the shop'],
  ['image-resizer', 'On-the-fly image transforms for images-cdn'],
  ['search-indexer', 'Builds the product search index every 10 minutes'],
  ['auth-gateway', 'OIDC login and session service'],
  ['chat-relay', 'WebSocket relay for support chat'],
  ['pdf-renderer', 'Invoice and report rendering'],
  ['recommendations', 'Personalised product suggestions'],
  ['webhook-fanout', 'Delivers partner webhooks with retries'],
  ['geo-ip-lookup', 'IP to region service for the edge'],
  ['metrics-collector', 'Collects RUM beacons'],
  ['legacy-cms', 'Old CMS kept for the archive'],
  ['game-lobby', 'Matchmaking lobby (UDP, anycast)'],
  ['ml-inference', 'Image classification model server'],
  ['mail-sender', 'Transactional e-mail queue worker'],
  ['staging-preview', 'Preview builds of the marketing site'],
];
const STATUSES: AppStatus[] = ['active', 'progressing', 'inactive', 'failing', 'suspended', 'unknown'];

export function seedApps(r: Random): McApp[] {
  return APPS.map(([name, description], i) => {
    // Every status at least once, then mostly active.
    const status =
      i < STATUSES.length
        ? STATUSES[i]!
        : r.weighted<AppStatus>([
            ['active', 6],
            ['progressing', 1],
            ['failing', 1],
            ['inactive', 1],
          ]);
    const type = r.weighted<'cdn' | 'anycast' | 'publicIp'>([
      ['cdn', 6],
      ['anycast', 2],
      ['publicIp', 2],
    ]);
    const ip = `${r.pick([185, 188, 84, 45])}.${r.int(1, 254)}.${r.int(1, 254)}.${r.int(1, 254)}`;
    const address = type === 'cdn' ? `mc-${r.alnum(10).toLowerCase()}.b-cdn.net` : type === 'anycast' ? ip : `${ip}:${r.pick([80, 443, 8080, 3000])}`;
    return {
      id: r.alnum(15),
      name,
      description,
      displayEndpoint: { id: String(r.int(100_000, 999_999)), address, type },
      status,
    };
  });
}

export function seedRegionSettings(r: Random, regions: McRegion[], maxPerApp: number): McRegionSettings {
  const usable = regions.filter((x) => x.hasCapacity).map((x) => x.id);
  const count = r.int(1, 6);
  const allowed: string[] = [];
  while (allowed.length < count) {
    const id = r.pick(usable);
    if (!allowed.includes(id)) allowed.push(id);
  }
  const required = allowed.slice(0, r.int(1, Math.min(2, allowed.length)));
  const max = r.bool(0.25) ? null : Math.min(maxPerApp, r.int(Math.max(required.length, 1), Math.max(allowed.length, required.length)));
  return {
    allowedRegionIds: allowed,
    requiredRegionIds: required,
    maxAllowedRegions: max,
    provisioningType: r.bool(0.7) ? 'static' : 'dynamic',
    nodeSelectors: r.bool(0.3) ? { tier: r.pick(['standard', 'gpu', 'high-memory']) } : {},
  };
}
