import { BodyError, type Ctx, type Router } from '../http-kit';
import type { Catalog, HostedDatabase } from './catalog';
import type { UsageStore } from './usage';

/*
 * The database routes the platform's CLI calls besides the v2 CRUD: live state (`db list`),
 * the configuration (`db show`), usage and hourly statistics (`db usage`). Usage is what this
 * emulator served since it started (UsageStore); regions are the seeded ones.
 */

const appError = (ctx: Ctx, status: number, error: string, details?: unknown) => ctx.send(status, details === undefined ? { error } : { error, details });

type Group = 'EU' | 'NA' | 'SA' | 'AF' | 'ASIA' | 'OC';
// [id, name, latitude, longitude, group, country]
const REGIONS: [string, string, number, number, Group, string][] = [
  ['DE', 'Frankfurt', 50.11, 8.68, 'EU', 'DE'],
  ['AMS', 'Amsterdam', 52.37, 4.9, 'EU', 'NL'],
  ['UK', 'London', 51.51, -0.13, 'EU', 'GB'],
  ['SE', 'Stockholm', 59.33, 18.07, 'EU', 'SE'],
  ['NY', 'New York', 40.71, -74.01, 'NA', 'US'],
  ['LA', 'Los Angeles', 34.05, -118.24, 'NA', 'US'],
  ['SG', 'Singapore', 1.35, 103.82, 'ASIA', 'SG'],
  ['SYD', 'Sydney', -33.87, 151.21, 'OC', 'AU'],
];
const STORAGE_REGIONS = [
  { id: 'eu-central-1', name: 'Europe (Frankfurt)', group: 'EU' },
  { id: 'us-east-1', name: 'North America (New York)', group: 'NA' },
];

const region = ([id, name, latitude, longitude, group, alpha2]: (typeof REGIONS)[number]) => ({ id, name, latitude, longitude, group, country: { alpha2 } });

/** `from` and `to` (RFC 3339, both required), or an answer given and null. */
function window(ctx: Ctx): { from: number; to: number } | null {
  const out: number[] = [];
  for (const name of ['from', 'to']) {
    const raw = ctx.query.get(name);
    if (raw === null) {
      appError(ctx, 400, `Failed to deserialize query string: missing field \`${name}\``);
      return null;
    }
    const t = Date.parse(raw);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(t)) {
      appError(ctx, 400, `Failed to deserialize query string: ${name}: expected an RFC 3339 date-time, got "${raw.slice(0, 40)}"`);
      return null;
    }
    out.push(t);
  }
  if (out[0]! > out[1]!) {
    appError(ctx, 400, '`from` is after `to`');
    return null;
  }
  return { from: out[0]!, to: out[1]! };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z');

export function registerDatabaseMetrics(router: Router, catalog: Catalog, usage: UsageStore): void {
  const find = (ctx: Ctx): HostedDatabase | null => {
    const db = catalog.byId(ctx.params.db_id ?? '');
    if (!db) appError(ctx, 404, `Database ${String(ctx.params.db_id).slice(0, 80)} not found`);
    return db ?? null;
  };

  router.post('/database/v1/live/live_db', async (ctx) => {
    let body: unknown;
    try {
      body = await ctx.json();
    } catch (error) {
      if (error instanceof BodyError) return appError(ctx, error.status, `Failed to parse the request body as JSON: ${error.message}`);
      throw error;
    }
    const ids = (body as { db_ids?: unknown } | null)?.db_ids;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      return appError(ctx, 422, 'Failed to deserialize the JSON body into the target type: db_ids: expected an array of database ids', { field: 'db_ids' });
    }
    const header = ctx.req.headers['db-ids'];
    const wanted = [
      ...(ids as string[]),
      ...(typeof header === 'string'
        ? header
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : []),
    ];
    const live: Record<string, unknown> = {};
    for (const id of wanted.slice(0, 1000)) {
      const db = catalog.byId(id);
      // the emulator's databases are always up; an id it does not know is left out
      if (db) live[id] = { state: 'Live', metadata: { main: db.def.primaryRegions[0] ?? 'DE', replicas: db.def.replicasRegions } };
    }
    ctx.send(200, { live_metrics: live });
  });

  router.get('/database/v1/config', (ctx) => {
    ctx.send(200, {
      storage_region_available: STORAGE_REGIONS,
      primary_regions: REGIONS.map(region),
      replica_regions: REGIONS.map(region),
    });
  });

  router.get('/database/v2/databases/:db_id/usage', (ctx) => {
    const db = find(ctx);
    if (!db) return;
    const w = window(ctx);
    if (!w) return;
    const t = usage.totals(db.def.name, w.from, w.to);
    ctx.send(200, { rows_read: t.rowsRead, rows_written: t.rowsWritten, avg_latency_ms: t.queries ? Math.round((t.latencyMs / t.queries) * 100) / 100 : 0 });
  });

  router.get('/database/v2/databases/:db_id/statistics', (ctx) => {
    const db = find(ctx);
    if (!db) return;
    const w = window(ctx);
    if (!w) return;
    const hours = usage.hours(db.def.name, w.from, w.to);
    const series = (pick: (b: (typeof hours)[number]['bucket']) => number) => hours.map(({ hour, bucket }) => [iso(hour), pick(bucket)]);
    const sizeMb = db.sizeBytes() / 1024 / 1024;
    ctx.send(200, {
      row_read_count: { unit: 'NoUnit', data: series((b) => b.rowsRead) },
      row_write_count: { unit: 'NoUnit', data: series((b) => b.rowsWritten) },
      delegated_write_requests: { unit: 'NoUnit', data: series(() => 0) },
      storage: { unit: 'megabyte', data: series(() => Math.round(sizeMb * 100) / 100) },
      latency: {
        unit: 'milliseconds',
        data: { [db.def.primaryRegions[0] ?? 'DE']: { data: series((b) => (b.queries ? Math.round((b.latencyMs / b.queries) * 100) / 100 : 0)) } },
      },
      query_count: { unit: 'NoUnit', data: series((b) => b.queries) },
    });
  });
}
