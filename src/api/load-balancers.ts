import type { HttpClient } from './http';
import { checkId, checkWhole, INT32_MAX, renameNotFound } from './input-checks';
import { lazySchema, type Infer } from './lazy-schema';

export const ORIGIN_GROUP_LB_METHOD: Readonly<Record<number, string>> = { 0: 'WeightedRandom', 1: 'RoundRobin', 2: 'GeoLocation', 3: 'LowestAverageLatency' };
export const LB_STICKY_SESSION_TYPE: Readonly<Record<number, string>> = { 0: 'Off', 1: 'Cookie' };
export const ORIGIN_LB_METHOD: Readonly<Record<number, string>> = { 0: 'RoundRobin', 1: 'WeightedRandom', 2: 'LeastConnections', 3: 'Latency' };
export const ORIGIN_TYPE: Readonly<Record<number, string>> = { 0: 'Standard', 1: 'Storage', 2: 'EdgeScript', 3: 'MagicContainer' };
export const HEALTH_STATUS: Readonly<Record<number, string>> = { 0: 'Healthy', 1: 'Degraded' };

export const LbOriginSchema = lazySchema((z) => {
  const int = z.number().int();
  return z.looseObject({
    Id: int,
    Weight: z.number().nullish(),
    Enabled: z.boolean().nullish(),
    HealthStatus: int.nullish(),
    OriginType: int.nullish(),
    EdgeScriptId: int.nullish(),
    StorageZoneId: int.nullish(),
    StandardOrigin: z.looseObject({ OriginUrl: z.string().nullish(), HostHeader: z.string().nullish(), VerifySsl: z.boolean().nullish() }).nullish(),
    MagicContainersOrigin: z.looseObject({ AppId: z.string().nullish(), EndPointId: z.string().nullish() }).nullish(),
  });
});
export type LbOrigin = Infer<typeof LbOriginSchema>;

export const LbOriginGroupSchema = lazySchema((z) => {
  const int = z.number().int();
  return z.looseObject({
    Id: int,
    Name: z.string().nullish(),
    Enabled: z.boolean().nullish(),
    Latitude: z.number().nullish(),
    Longitude: z.number().nullish(),
    Weight: z.number().nullish(),
    Priority: z.number().nullish(),
    OriginLoadBalancingMethod: int.nullish(),
    Origins: z
      .array(LbOriginSchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
    HealthCheckSettings: z.looseObject({ Enabled: z.boolean().nullish(), Path: z.string().nullish() }).nullish(),
  });
});
export type LbOriginGroup = Infer<typeof LbOriginGroupSchema>;

export const LoadBalancerSchema = lazySchema((z) => {
  const int = z.number().int();
  return z.looseObject({
    LoadBalancerId: int,
    Name: z.string().nullish(),
    OriginGroupLoadBalancingMethod: int.nullish(),
    StickySessionType: int.nullish(),
    OriginGroups: z
      .array(LbOriginGroupSchema.of(z))
      .nullish()
      .transform((v) => v ?? []),
  });
});
export type LoadBalancer = Infer<typeof LoadBalancerSchema>;

const LoadBalancerListSchema = lazySchema((z) => z.array(LoadBalancerSchema.of(z)));

/** Load balancer profiles (`{base}/loadbalancer`). */
export class LoadBalancersApi {
  constructor(private readonly http: HttpClient) {}

  /** One page (page from 1, count 1..1000, API defaults 1 and 50); the API answers a plain array. */
  async list(page = 1, count = 50, signal?: AbortSignal): Promise<LoadBalancer[]> {
    checkWhole('page', page, 1, INT32_MAX);
    checkWhole('count', count, 1, 1000);
    return this.http.getJson('/loadbalancer', LoadBalancerListSchema, { query: { page, count }, signal });
  }

  /** Every profile, page after page. */
  async listAll(signal?: AbortSignal): Promise<LoadBalancer[]> {
    const out: LoadBalancer[] = [];
    for (let page = 1; page <= 100_000; page++) {
      const batch = await this.list(page, 1000, signal);
      out.push(...batch);
      if (batch.length < 1000) break;
    }
    return out;
  }

  async get(id: number, signal?: AbortSignal): Promise<LoadBalancer> {
    const lbId = checkId('load balancer id', id);
    try {
      return await this.http.getJson(`/loadbalancer/${lbId}`, LoadBalancerSchema, { signal });
    } catch (error) {
      throw renameNotFound(error, `load balancer ${lbId}`);
    }
  }
}
