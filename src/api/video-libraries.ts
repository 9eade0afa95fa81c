import type { HttpClient } from './http';
import { checkWhole, INT32_MAX, invalidInput } from './input-checks';
import { lazySchema, type Infer, type Zod } from './lazy-schema';

export const DRM_VERSION: Readonly<Record<number, string>> = { 0: 'Basic', 1: 'Enterprise', 2: 'BasicV2' };
export const ENCODING_TIER: Readonly<Record<number, string>> = { 0: 'Free', 1: 'Premium' };
export const PULL_ZONE_TYPE: Readonly<Record<number, string>> = { 0: 'Premium', 1: 'Volume' };
/** Fields that hold library keys: masked everywhere unless asked for. */
export const VIDEO_LIBRARY_SECRET_FIELDS = ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey'] as const;

const DrmFields = (z: Zod) => ({
  Enabled: z.boolean().nullish(),
  CertificateId: z.number().int().nullish(),
  CertificateExpirationDate: z.string().nullish(),
  Provider: z.string().nullish(),
});

/** VideoLibraryModel: the fields burrow reads are typed; every other field is kept as sent. */
export const VideoLibrarySchema = lazySchema((z) => {
  const int = z.number().int();
  return z.looseObject({
    Id: int,
    Name: z.string().nullish(),
    VideoCount: int.nullish(),
    TrafficUsage: int.nullish(),
    StorageUsage: int.nullish(),
    DateCreated: z.string().nullish(),
    DateModified: z.string().nullish(),
    ReplicationRegions: z.array(z.string()).nullish(),
    ApiKey: z.string().nullish(),
    ReadOnlyApiKey: z.string().nullish(),
    ApiAccessKey: z.string().nullish(),
    PullZoneId: int.nullish(),
    StorageZoneId: int.nullish(),
    EnabledResolutions: z.string().nullish(),
    EnableDRM: z.boolean().nullish(),
    DrmVersion: int.nullish(),
    AppleFairPlayDrm: z.looseObject(DrmFields(z)).nullish(),
    GoogleWidevineDrm: z.looseObject({ ...DrmFields(z), SdOnlyForL3: z.boolean().nullish() }).nullish(),
    EnableTranscribing: z.boolean().nullish(),
    EncodingTier: int.nullish(),
  });
});
export type VideoLibrary = Infer<typeof VideoLibrarySchema>;

/** page >= 1 answers the object; page 0 or none a plain array. Both are accepted either way. */
const ListSchema = lazySchema((z) => {
  const library = VideoLibrarySchema.of(z);
  const int = z.number().int();
  return z.union([z.array(library), z.object({ Items: z.array(library).nullish(), CurrentPage: int, TotalItems: int, HasMoreItems: z.boolean() })]);
});

export interface VideoLibraryPage {
  items: VideoLibrary[];
  currentPage: number;
  totalItems: number;
  hasMoreItems: boolean;
  /** Which form the server answered in. */
  form: 'paginated' | 'array';
}

/** Video libraries (`{base}/videolibrary`). */
export class VideoLibrariesApi {
  constructor(private readonly http: HttpClient) {}

  /**
   * One page (page 1..2147483647, perPage 5..1000), optionally filtered by a name search on the
   * server. page 0 asks for the plain-array form with every library.
   */
  async listPage(page: number, perPage = 1000, search?: string | null, signal?: AbortSignal): Promise<VideoLibraryPage> {
    checkWhole('page', page, 0, INT32_MAX);
    checkWhole('perPage', perPage, 5, 1000);
    if (search !== undefined && search !== null && (typeof search !== 'string' || search.length > 200)) {
      throw invalidInput('search must be text of at most 200 characters');
    }
    const res = await this.http.getJson('/videolibrary', ListSchema, {
      query: { page: page === 0 ? undefined : page, perPage, search: search?.trim() || undefined },
      signal,
    });
    if (Array.isArray(res)) {
      // The plain form has everything; when a page was asked for, cut it here.
      if (page === 0) return { items: res, currentPage: 0, totalItems: res.length, hasMoreItems: false, form: 'array' };
      const start = (page - 1) * perPage;
      return { items: res.slice(start, start + perPage), currentPage: page, totalItems: res.length, hasMoreItems: start + perPage < res.length, form: 'array' };
    }
    return { items: res.Items ?? [], currentPage: res.CurrentPage, totalItems: res.TotalItems, hasMoreItems: res.HasMoreItems, form: 'paginated' };
  }

  /** Every library (optionally matching a search), 1000 per request. */
  async listAll(search?: string | null, signal?: AbortSignal): Promise<VideoLibrary[]> {
    const out: VideoLibrary[] = [];
    for (let page = 1; page <= INT32_MAX; page++) {
      const res = await this.listPage(page, 1000, search, signal);
      out.push(...res.items);
      if (!res.hasMoreItems || res.items.length === 0) break;
    }
    return out;
  }
}
