import { type Ctx, type Router, BodyError } from '../http-kit';
import type { Catalog, HostedDatabase } from './catalog';
import type { TokenAccess, TokenStore } from './tokens';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DEFAULT_PER_PAGE = 25;
const MAX_PER_PAGE = 1000;

const appError = (ctx: Ctx, status: number, error: string, details?: unknown) => ctx.send(status, details === undefined ? { error } : { error, details });

/** The `Database` record of the v2 API. */
function record(db: HostedDatabase, url: string) {
  const d = db.def;
  return {
    id: d.id,
    name: d.name,
    url,
    block_reads: false,
    block_writes: false,
    size_max: '1024.0 MB',
    current_size: db.currentSize(),
    storage_region: d.storageRegion,
    primary_regions: d.primaryRegions,
    replicas_regions: d.replicasRegions,
  };
}

/** A strict unsigned integer from the query string, or an error text in axum's words. */
function uintParam(ctx: Ctx, name: string, min: number, max: number): number | null | string {
  const raw = ctx.query.get(name);
  if (raw === null) return null;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    return `Failed to deserialize query string: ${name}: invalid value "${raw.slice(0, 40)}", expected an integer from ${min} to ${max}`;
  }
  return Number(raw);
}

/**
 * Database management on the management origin (`/database/v2/...`, AccessKey checked by the
 * origin). Errors use the API's AppError `{error, details?}`.
 */
export function registerDatabaseManagement(
  router: Router,
  catalog: Catalog,
  tokens: TokenStore,
  urlOf: (db: HostedDatabase) => string,
  now: () => number,
): void {
  const find = (ctx: Ctx): HostedDatabase | null => {
    const db = catalog.byId(ctx.params.db_id ?? '');
    if (!db) appError(ctx, 404, `Database ${String(ctx.params.db_id).slice(0, 80)} not found`);
    return db ?? null;
  };

  // the size shown needs the file: create it first (a database the engine cannot create shows 0 B)
  const ready = (dbs: HostedDatabase[]) => Promise.all(dbs.map((d) => d.ensure().catch(() => {})));

  router.get('/database/v2/databases', async (ctx) => {
    const page = uintParam(ctx, 'page', 1, 4_294_967_295);
    if (page === null) return appError(ctx, 400, 'Failed to deserialize query string: missing field `page`');
    if (typeof page === 'string') return appError(ctx, 400, page);
    const perPageRaw = uintParam(ctx, 'per_page', 0, MAX_PER_PAGE);
    if (typeof perPageRaw === 'string') return appError(ctx, 400, perPageRaw);
    const perPage = perPageRaw === null || perPageRaw === 0 ? DEFAULT_PER_PAGE : perPageRaw;
    const search = (ctx.query.get('search') ?? '').trim().toLowerCase();
    const matching = catalog.databases.filter((d) => !search || d.def.name.toLowerCase().includes(search));
    const slice = matching.slice((page - 1) * perPage, page * perPage);
    await ready(slice);
    ctx.send(200, {
      databases: slice.map((d) => record(d, urlOf(d))),
      page_info: { current_page: page, total_items: matching.length, has_more_items: page * perPage < matching.length },
    });
  });

  router.get('/database/v2/databases/:db_id', async (ctx) => {
    const db = find(ctx);
    if (!db) return;
    await ready([db]);
    ctx.send(200, { db: record(db, urlOf(db)) });
  });

  router.put('/database/v2/databases/:db_id/auth/generate', async (ctx) => {
    const db = find(ctx);
    if (!db) return;
    let body: unknown;
    try {
      body = await ctx.json();
    } catch (error) {
      if (error instanceof BodyError) return appError(ctx, error.status, `Failed to parse the request body as JSON: ${error.message}`);
      throw error;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return appError(ctx, 422, 'Failed to deserialize the JSON body into the target type: expected an object');
    const b = body as Record<string, unknown>;
    if (b.authorization !== 'full-access' && b.authorization !== 'read-only') {
      return appError(ctx, 422, 'Failed to deserialize the JSON body into the target type: authorization: expected `full-access` or `read-only`', {
        field: 'authorization',
        received: b.authorization ?? null,
      });
    }
    let expires: Date | null = null;
    if (b.expires_at !== undefined && b.expires_at !== null) {
      if (typeof b.expires_at !== 'string' || !RFC3339.test(b.expires_at) || Number.isNaN(Date.parse(b.expires_at))) {
        return appError(
          ctx,
          422,
          'Failed to deserialize the JSON body into the target type: expires_at: expected an RFC 3339 date-time, e.g. 2026-12-31T23:59:59Z',
          { field: 'expires_at' },
        );
      }
      expires = new Date(Date.parse(b.expires_at));
      if (expires.getTime() <= now()) return appError(ctx, 400, 'expires_at must be in the future', { field: 'expires_at' });
    }
    const token = tokens.issue(db.def.id, db.def.name, b.authorization as TokenAccess, expires);
    ctx.send(200, { token, expires_at: expires ? new Date(Math.floor(expires.getTime() / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z') : null });
  });

  router.post('/database/v2/databases/:db_id/auth/revoke', (ctx) => {
    const db = find(ctx);
    if (!db) return;
    tokens.revokeAll(db.def.id);
    ctx.send(204);
  });
}
