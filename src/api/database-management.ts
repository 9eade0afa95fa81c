import { registerSecret } from '../config/redact';
import { ApiError } from './errors';
import type { HttpClient } from './http';
import { lazySchema, type Infer } from './lazy-schema';

export const DatabaseSchema = lazySchema((z) =>
  z.object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    block_reads: z.boolean(),
    block_writes: z.boolean(),
    size_max: z.string(),
    current_size: z.string(),
    storage_region: z.string(),
    primary_regions: z.array(z.string()),
    replicas_regions: z.array(z.string()),
  }),
);
export type Database = Infer<typeof DatabaseSchema>;

const ListSchema = lazySchema((z) =>
  z.object({
    databases: z.array(DatabaseSchema.of(z)),
    page_info: z.object({ current_page: z.number(), total_items: z.number(), has_more_items: z.boolean() }),
  }),
);
const ReadSchema = lazySchema((z) => z.object({ db: DatabaseSchema.of(z) }));
const TokenSchema = lazySchema((z) => z.object({ token: z.string().min(1), expires_at: z.string().nullable().optional() }));

export type TokenAuthorization = 'full-access' | 'read-only';

export interface GeneratedToken {
  token: string;
  expiresAt: string | null;
  dbId: string;
  authorization: TokenAuthorization;
}

const dbPath = (id: string) => `/database/v2/databases/${encodeURIComponent(id)}`;

/** URLs compare equal whatever their scheme spelling or trailing slash (libsql:// is https://). */
export function sameDatabaseUrl(a: string, b: string): boolean {
  const norm = (u: string) =>
    u
      .trim()
      .replace(/^libsql:\/\//i, 'https://')
      .replace(/^wss:\/\//i, 'https://')
      .replace(/^ws:\/\//i, 'http://')
      .replace(/\?.*$/, '')
      .replace(/\/+$/, '')
      .toLowerCase();
  return norm(a) === norm(b);
}

/** Database management (`{base}/database/v2`): databases and access tokens. */
export class DatabaseManagementApi {
  constructor(private readonly http: HttpClient) {}

  /** One page (`page` is 1-based, as the API requires). */
  async listPage(page: number, perPage = 100, search?: string, signal?: AbortSignal) {
    return this.http.getJson('/database/v2/databases', ListSchema, { query: { page, per_page: perPage, search }, signal });
  }

  /** Every database of the account, following the pages. */
  async list(signal?: AbortSignal): Promise<Database[]> {
    const out: Database[] = [];
    for (let page = 1; page <= 1000; page++) {
      const res = await this.listPage(page, 100, undefined, signal);
      out.push(...res.databases);
      if (!res.page_info.has_more_items || res.databases.length === 0) break;
    }
    return out;
  }

  async get(id: string, signal?: AbortSignal): Promise<Database> {
    return (await this.http.getJson(dbPath(id), ReadSchema, { signal })).db;
  }

  /** Creates a token; `expiresAt` null means it never expires. The token is shown once by the caller. */
  async generateToken(id: string, authorization: TokenAuthorization, expiresAt: Date | null, signal?: AbortSignal): Promise<GeneratedToken> {
    if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new ApiError({ kind: 'invalid-input', message: 'the token expiry is not a valid date' });
    const res = await this.http.request(`${dbPath(id)}/auth/generate`, {
      method: 'PUT',
      // whole seconds: a JWT's exp has no finer grain
      body: { authorization, expires_at: expiresAt ? new Date(Math.floor(expiresAt.getTime() / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z') : null },
      schema: TokenSchema,
      signal,
    });
    registerSecret(res.data.token);
    return { token: res.data.token, expiresAt: res.data.expires_at ?? null, dbId: id, authorization };
  }

  /** Invalidates every token of the database at once (the only way the platform revokes). */
  async revokeTokens(id: string, signal?: AbortSignal): Promise<void> {
    await this.http.request(`${dbPath(id)}/auth/revoke`, { method: 'POST', expect: 'empty', signal });
  }
}
