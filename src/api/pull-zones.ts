import type { HttpClient } from './http';
import { checkId, INT32_MAX, renameNotFound } from './input-checks';
import { lazySchema, type Infer } from './lazy-schema';

export const PullZoneSchema = lazySchema((z) =>
  z.looseObject({
    Id: z.number().int(),
    Name: z.string().nullish(),
    OriginUrl: z.string().nullish(),
    Enabled: z.boolean().nullish(),
    Suspended: z.boolean().nullish(),
    EnableLogging: z.boolean().nullish(),
    Hostnames: z
      .array(z.looseObject({ Id: z.number().int().nullish(), Value: z.string().nullish(), IsSystemHostname: z.boolean().nullish() }))
      .nullish()
      .transform((v) => v ?? []),
  }),
);
export type PullZone = Infer<typeof PullZoneSchema>;

const ListSchema = lazySchema((z) => {
  const zone = PullZoneSchema.of(z);
  const int = z.number().int();
  return z.union([z.array(zone), z.object({ Items: z.array(zone).nullish(), CurrentPage: int, TotalItems: int, HasMoreItems: z.boolean() })]);
});

/** Pull zones (`{base}/pullzone`). */
export class PullZonesApi {
  constructor(private readonly http: HttpClient) {}

  /** Every pull zone, 1000 per request; the plain-array answer is accepted too. */
  async list(signal?: AbortSignal): Promise<PullZone[]> {
    const out: PullZone[] = [];
    for (let page = 1; page <= INT32_MAX; page++) {
      const res = await this.http.getJson('/pullzone', ListSchema, { query: { page, perPage: 1000 }, signal });
      if (Array.isArray(res)) return res;
      const items = res.Items ?? [];
      out.push(...items);
      if (!res.HasMoreItems || items.length === 0) break;
    }
    return out;
  }

  async get(id: number, signal?: AbortSignal): Promise<PullZone> {
    const zoneId = checkId('pull zone id', id);
    try {
      return await this.http.getJson(`/pullzone/${zoneId}`, PullZoneSchema, { signal });
    } catch (error) {
      throw renameNotFound(error, `pull zone ${zoneId}`);
    }
  }
}
