import type { z } from 'zod';
import type { HttpClient } from './http';
import { checkWhole, invalidInput } from './input-checks';
import { lazySchema, type Infer, type LazySchema, type Zod } from './lazy-schema';
import {
  AppDetailSchema,
  AppOverviewSchema,
  RegistriesAnswerSchema,
  VolumesAnswerSchema,
  type AppDetail,
  type AppOverview,
  type Registry,
  type VolumesAnswer,
} from './containers-workload';

export const ContainerLimitsSchema = lazySchema((z) => {
  const int = z.number().int();
  return z.object({
    maxNumberOfApplications: int,
    existingNumberOfApplications: int,
    maxNumberOfRegionsPerApplication: int.nullable(),
    maxNumberOfInstancesPerRegion: int,
    maxNumberOfInstancesPerApplication: int.nullable(),
    maxNumberOfVolumesPerApplication: int,
    maxVolumeSize: int.nullable(),
  });
});
export type ContainerLimits = Infer<typeof ContainerLimitsSchema>;

export const APP_STATUSES = ['unknown', 'active', 'progressing', 'inactive', 'failing', 'suspended'] as const;
export type AppStatus = (typeof APP_STATUSES)[number];

// Lenient where the real API is known to send null for fields its spec marks non-null.
export const AppSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    name: z.string().nullish(),
    description: z.string().nullish(),
    displayEndpoint: z.looseObject({ id: z.string().nullish(), address: z.string().nullish(), type: z.string().nullish() }).nullish(),
    status: z.string().nullish(),
  }),
);
export type App = Infer<typeof AppSchema>;

export const RegionSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string(),
    name: z.string().nullish(),
    group: z.string().nullish(),
    hasAnycastSupport: z.boolean().nullish(),
    hasCapacity: z.boolean().nullish(),
  }),
);
export type Region = Infer<typeof RegionSchema>;

// Both lists are required by the API (null is tolerated): an answer with neither is not region settings.
export const RegionSettingsSchema = lazySchema((z) =>
  z.looseObject({
    allowedRegionIds: z
      .array(z.string())
      .nullable()
      .transform((v) => v ?? []),
    requiredRegionIds: z
      .array(z.string())
      .nullable()
      .transform((v) => v ?? []),
    maxAllowedRegions: z
      .number()
      .int()
      .nullish()
      .transform((v) => v ?? null),
    provisioningType: z.string().nullish(),
  }),
);
export type RegionSettings = Infer<typeof RegionSettingsSchema>;

/** PUT body: every field optional; a field left out (or null) is left as it is. */
export interface RegionSettingsUpdate {
  allowedRegionIds?: string[] | null;
  requiredRegionIds?: string[] | null;
  maxAllowedRegions?: number | null;
  nodeSelectors?: Record<string, string> | null;
}

/** A page: `items` may be null or left out when empty, but an answer with none of the page's fields is not a page. */
const isPage = (raw: unknown) => typeof raw === 'object' && raw !== null && !Array.isArray(raw) && ['items', 'meta', 'cursor'].some((k) => k in raw);
const listOf = <T extends z.ZodType>(z: Zod, item: T) =>
  z.custom<unknown>(isPage, 'not a list page (no items, meta or cursor)').pipe(
    z.object({
      items: z
        .array(item)
        .nullish()
        .transform((v) => v ?? []),
      meta: z.looseObject({ totalItems: z.number().int().nullish() }).nullish(),
      cursor: z.string().nullish(),
    }),
  );
const AppPageSchema = lazySchema((z) => listOf(z, AppSchema.of(z)));
const RegionPageSchema = lazySchema((z) => listOf(z, RegionSchema.of(z)));

/** A list page as its schema gives it. */
type PageSchema<T> = LazySchema<z.ZodType<{ items: T[]; meta?: { totalItems?: number | null } | null; cursor?: string | null }>>;

export interface CursorPage<T> {
  items: T[];
  totalItems: number | null;
  /** Pass back as `cursor` for the next page; null on the last page. */
  cursor: string | null;
}

const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;
function checkAppId(appId: unknown): string {
  if (typeof appId !== 'string' || !APP_ID.test(appId)) {
    throw invalidInput(`app id must be 1 to 64 letters, digits, "-" or "_" (like pdZdipupoFrUKG4), got ${JSON.stringify(String(appId).slice(0, 40))}`);
  }
  return appId;
}

function checkCursor(cursor: unknown): string | null {
  if (cursor === null || cursor === undefined || cursor === '') return null;
  if (typeof cursor !== 'string' || cursor.length > 2000) throw invalidInput('cursor must be the cursor string of a previous page');
  return cursor;
}

/** Type checks of a region settings update before it is sent (the meaning is the server's to judge). */
export function checkRegionSettingsUpdate(update: RegionSettingsUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const known = ['allowedRegionIds', 'requiredRegionIds', 'maxAllowedRegions', 'nodeSelectors'];
  for (const key of Object.keys(update)) if (!known.includes(key)) throw invalidInput(`"${key}" is not a region setting: the fields are ${known.join(', ')}`);
  for (const key of ['allowedRegionIds', 'requiredRegionIds'] as const) {
    const v = update[key];
    if (v === undefined) continue;
    if (v !== null && (!Array.isArray(v) || v.some((id) => typeof id !== 'string' || id.trim() === ''))) {
      throw invalidInput(`${key} must be a list of region ids such as ["DE", "NY"]`);
    }
    if (v && new Set(v).size !== v.length) throw invalidInput(`${key} lists a region more than once`);
    body[key] = v;
  }
  const max = update.maxAllowedRegions;
  if (max !== undefined) {
    if (max !== null) checkWhole('maxAllowedRegions', max, 1, 1000);
    body.maxAllowedRegions = max;
  }
  const sel = update.nodeSelectors;
  if (sel !== undefined) {
    if (sel !== null && (typeof sel !== 'object' || Array.isArray(sel) || Object.values(sel).some((v) => typeof v !== 'string'))) {
      throw invalidInput('nodeSelectors must map names to string values, like {"tier": "gpu"}');
    }
    if (sel && Object.keys(sel).some((k) => k.trim() === '')) throw invalidInput('nodeSelectors keys must not be empty');
    body.nodeSelectors = sel;
  }
  return body;
}

/** Magic Containers (`{base}/mc`). */
export class ContainersApi {
  constructor(private readonly http: HttpClient) {}

  getLimits(signal?: AbortSignal): Promise<ContainerLimits> {
    return this.http.getJson('/mc/limits', ContainerLimitsSchema, { signal });
  }

  /** One page of applications (limit 1..1000, API default 20). */
  listApps(options: { limit?: number; cursor?: string | null } = {}, signal?: AbortSignal): Promise<CursorPage<App>> {
    return this.page('/mc/apps', AppPageSchema, options, signal);
  }

  async listAllApps(signal?: AbortSignal): Promise<App[]> {
    return this.all('/mc/apps', AppPageSchema, signal);
  }

  listRegions(options: { limit?: number; cursor?: string | null } = {}, signal?: AbortSignal): Promise<CursorPage<Region>> {
    return this.page('/mc/regions', RegionPageSchema, options, signal);
  }

  async listAllRegions(signal?: AbortSignal): Promise<Region[]> {
    return this.all('/mc/regions', RegionPageSchema, signal);
  }

  async getRegionSettings(appId: string, signal?: AbortSignal): Promise<RegionSettings> {
    return this.http.getJson(`/mc/apps/${encodeURIComponent(checkAppId(appId))}/region-settings`, RegionSettingsSchema, { signal });
  }

  /** The application with its container templates, instances and volume templates. */
  async getApp(appId: string, signal?: AbortSignal): Promise<AppDetail> {
    return this.http.getJson(`/mc/apps/${encodeURIComponent(checkAppId(appId))}`, AppDetailSchema, { signal });
  }

  /** The instances per region and their pods. */
  async getAppOverview(appId: string, signal?: AbortSignal): Promise<AppOverview> {
    return this.http.getJson(`/mc/apps/${encodeURIComponent(checkAppId(appId))}/overview`, AppOverviewSchema, { signal });
  }

  /** The app's volumes with their instances per region. */
  async listVolumes(appId: string, signal?: AbortSignal): Promise<VolumesAnswer> {
    return this.http.getJson(`/mc/apps/${encodeURIComponent(checkAppId(appId))}/volumes`, VolumesAnswerSchema, { signal });
  }

  /** The container registries images are pulled from (passwords come as first and last symbols only). */
  async listRegistries(signal?: AbortSignal): Promise<Registry[]> {
    return (await this.http.getJson('/mc/registries', RegistriesAnswerSchema, { signal })).items;
  }

  /** PUT; the platform answers 200 with an empty body. */
  async putRegionSettings(appId: string, update: RegionSettingsUpdate, signal?: AbortSignal): Promise<void> {
    const body = checkRegionSettingsUpdate(update);
    await this.http.request(`/mc/apps/${encodeURIComponent(checkAppId(appId))}/region-settings`, { method: 'PUT', body, expect: 'empty', signal });
  }

  private async page<T>(
    path: string,
    pageSchema: PageSchema<T>,
    options: { limit?: number; cursor?: string | null },
    signal?: AbortSignal,
  ): Promise<CursorPage<T>> {
    const limit = checkWhole('limit', options.limit ?? 20, 1, 1000);
    const cursor = checkCursor(options.cursor);
    const res = await this.http.getJson(path, pageSchema, { query: { limit, nextCursor: cursor }, signal });
    return { items: res.items, totalItems: res.meta?.totalItems ?? null, cursor: res.cursor ?? null };
  }

  private async all<T>(path: string, pageSchema: PageSchema<T>, signal?: AbortSignal): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | null = null;
    const seen = new Set<string>();
    do {
      const res: CursorPage<T> = await this.page(path, pageSchema, { limit: 1000, cursor }, signal);
      out.push(...res.items);
      cursor = res.cursor;
      // A cursor seen before would loop forever.
      if (cursor !== null && seen.has(cursor)) break;
      if (cursor !== null) seen.add(cursor);
    } while (cursor !== null);
    return out;
  }
}
