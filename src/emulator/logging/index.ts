import { gzipSync } from 'node:zlib';
import { Router, type Ctx } from '../http-kit';
import type { OriginSpec } from '../origin';
import type { PullZoneSeed, World } from '../world';
import { checkLoggingAuth } from './auth';
import { maxInWindow, PLATFORM_RATE_LIMIT, ZoneRateLimiter, type RateLimitConfig, type ZoneRequestStats } from './limits';
import { collectRecords, pageRecords, toLogEntry, toV1Line } from './records';
import { TrafficStore, RETENTION_MS, type GenRecord } from './traffic';
import { parseStatusList, parseV2Query } from './v2-query';

/*
 * The logging origin (logging.bunnycdn.com) of the emulator.
 *
 *   GET /v2/pullzones/{id}/logs      JSON, every parameter of the platform (see v2-query.ts)
 *   GET /{MM-dd-yy}/{id}.log         v1: the same records as 12-field pipe-delimited lines
 *
 * Auth: `AccessKey: <world.accessKey>` or `Authorization: Bearer <JWT>`. The JWT's signature is not
 * checked (the emulator has no platform keys): any structurally valid, unexpired JWT is accepted.
 * No credentials -> 401 unauthorized; wrong key or bad token -> 403 forbidden.
 *
 * Decisions where the platform's behaviour is not documented:
 * - An unknown pull zone id answers 403 forbidden ("does not exist or is not in this account"), as
 *   an id from another account would; it does not consume the rate limit.
 * - The rate limit (30 requests in any sliding 10 s per zone, v1 and v2 together) counts accepted
 *   requests only, so a client that keeps retrying is not locked out for ever. A 429 carries
 *   Retry-After: the whole seconds until the oldest request of the window leaves it. It is checked after
 *   authentication and before validation: a 400 costs a request, as it would at a gateway.
 * - v1: a malformed date -> 403 (as reported for the platform); a day wholly outside the 3-day
 *   retention (or in the future) -> 404 not_found; `start`/`end` are line offsets (end exclusive);
 *   `sort` and `order` are both accepted (asc | desc, default desc); `status` takes codes and
 *   classes; `search` is a case-insensitive substring of the line; `download=true` adds a
 *   Content-Disposition; `Accept-Encoding: gzip` is honoured. Nulls are written as `-`.
 * - `from` may be up to 60 s older than "now - 3 days" (a client computing the bound a moment
 *   earlier); `limit` above 10000 is capped, below 1 is a 400.
 */

export interface LoggingStats {
  rateLimit: RateLimitConfig;
  zones: ReadonlyMap<number, ZoneRequestStats>;
  /** The stats of one zone (zeros when it got no request). */
  zone(id: number): ZoneRequestStats;
  /** Most accepted requests of the zone inside any window of `windowMs` (default: the limit's window). */
  maxInWindow(id: number, windowMs?: number): number;
  /** Generated records held in memory right now. */
  cachedRecords: number;
}

interface LoggingState {
  store: TrafficStore;
  limiter: ZoneRateLimiter;
}

const states = new WeakMap<World, LoggingState>();

function stateOf(world: World): LoggingState {
  let s = states.get(world);
  if (!s) {
    s = { store: new TrafficStore(world), limiter: new ZoneRateLimiter({ ...PLATFORM_RATE_LIMIT }) };
    states.set(world, s);
  }
  return s;
}

/** Per-zone request counters of the logging origin, for tests (no server.ts change needed). */
export function loggingStats(world: World): LoggingStats {
  const { limiter, store } = stateOf(world);
  return {
    rateLimit: { ...limiter.config },
    zones: limiter.zones,
    zone: (id) => limiter.stats(id),
    maxInWindow: (id, windowMs = limiter.config.windowMs) => maxInWindow(limiter.zones.get(id)?.acceptedAt ?? [], windowMs),
    get cachedRecords() {
      return store.cachedRecordCount;
    },
  };
}

/** Changes the emulated rate limit (tests use a short window to stay fast). */
export function configureLoggingRateLimit(world: World, config: RateLimitConfig): void {
  stateOf(world).limiter.config = { ...config };
}

/**
 * Every record the generator wrote for the zone with from <= timestamp < to, visible yet or not,
 * as v2 LogEntry objects, oldest first (origin-shield records only with includeShield).
 */
export function generatedLogRecords(world: World, zoneId: number, from: number, to: number, includeShield = false): Record<string, unknown>[] {
  const zone = world.pullZones.find((z) => z.Id === zoneId);
  if (!zone) return [];
  return collectRecords(stateOf(world).store, zone, { from, to, now: world.now(), includeShield, includeInvisible: true }).map(toLogEntry);
}

const errorJson = (code: string, message: string, details?: string[]) =>
  JSON.stringify({ error: details && details.length ? { code, message, details } : { code, message } });

function sendError(ctx: Ctx, status: number, code: string, message: string, details?: string[], headers: Record<string, string> = {}): void {
  const body = errorJson(code, message, details);
  if (ctx.res.headersSent) return;
  ctx.res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  ctx.res.end(body);
}

/** Shared zone checks of v1 and v2; answers and returns null when the request stops here. */
function admitZone(world: World, ctx: Ctx, rawId: string, version: 'v1' | 'v2'): PullZoneSeed | null {
  if (!/^\d{1,15}$/.test(rawId)) {
    sendError(ctx, 400, 'invalid_request', 'pullZoneId must be a positive integer', [`pullZoneId: "${rawId}" is not an integer`]);
    return null;
  }
  const id = Number(rawId);
  const zone = world.pullZones.find((z) => z.Id === id);
  if (!zone) {
    sendError(ctx, 403, 'forbidden', `pull zone ${id} does not exist or is not in this account`);
    return null;
  }
  const admitted = stateOf(world).limiter.admit(id, world.now(), version);
  if (admitted !== true) {
    const { limit, windowMs } = stateOf(world).limiter.config;
    // whole seconds, rounded up: a client that waits this long finds room
    const retryAfter = String(Math.ceil(admitted.retryAfterMs / 1000));
    sendError(
      ctx,
      429,
      'rate_limited',
      `rate limit exceeded for pull zone ${id}: at most ${limit} requests per ${windowMs / 1000} s; retry after ${retryAfter} s`,
      undefined,
      { 'retry-after': retryAfter },
    );
    return null;
  }
  if (zone.Suspended || !zone.Enabled) {
    sendError(ctx, 403, 'forbidden', `pull zone ${id} is ${zone.Suspended ? 'suspended' : 'disabled'}`);
    return null;
  }
  if (!zone.EnableLogging) {
    sendError(ctx, 404, 'logging_disabled', `logging is not enabled for pull zone ${id}`);
    return null;
  }
  return zone;
}

function handleV2(world: World, ctx: Ctx): void {
  const zone = admitZone(world, ctx, ctx.params.id ?? '', 'v2');
  if (!zone) return;
  const now = world.now();
  const parsed = parseV2Query(ctx.query, now);
  if (!parsed.ok) return sendError(ctx, 400, 'invalid_request', 'one or more query parameters failed validation', parsed.details);
  const q = parsed.query;
  const { page, hasMore } = pageRecords(stateOf(world).store, zone, {
    from: q.from,
    to: q.to,
    now,
    includeShield: q.includeShield,
    match: q.match,
    order: q.order,
    offset: q.offset,
    limit: q.limit,
  });
  ctx.send(200, {
    data: page.map(toLogEntry),
    pagination: { offset: q.offset, limit: q.limit, returned: page.length, hasMore },
    query: { pullZoneId: zone.Id, from: new Date(q.from).toISOString(), to: new Date(q.to).toISOString(), order: q.order },
  });
}

function handleV1(world: World, ctx: Ctx): void {
  const date = ctx.params.date ?? '';
  const file = /^(\d{1,15})\.log$/.exec(ctx.params.file ?? '');
  if (!file) return sendError(ctx, 404, 'not_found', `no route for ${ctx.method} ${ctx.path}`);
  const dm = /^(\d{2})-(\d{2})-(\d{2})$/.exec(date);
  const dayStart = dm ? Date.UTC(2000 + Number(dm[3]), Number(dm[1]) - 1, Number(dm[2])) : Number.NaN;
  const valid = dm !== null && new Date(dayStart).getUTCMonth() === Number(dm[1]) - 1 && new Date(dayStart).getUTCDate() === Number(dm[2]);
  if (!valid) return sendError(ctx, 403, 'forbidden', `"${date}" is not a date in MM-dd-yy form (example 03-13-24)`);
  const zone = admitZone(world, ctx, file[1]!, 'v1');
  if (!zone) return;
  const now = world.now();
  const dayEnd = dayStart + 86_400_000;
  if (dayEnd <= now - RETENTION_MS || dayStart > now) {
    return sendError(ctx, 404, 'not_found', `no log file for ${date}: logs are kept 3 days`);
  }
  const errors: string[] = [];
  const offset = (name: string): number | null => {
    const raw = ctx.query.get(name);
    if (raw === null || raw.trim() === '') return null;
    if (!/^\d+$/.test(raw.trim())) {
      errors.push(`${name}: "${raw}" must be a line offset (0 or more)`);
      return null;
    }
    return Number(raw.trim());
  };
  const start = offset('start') ?? 0;
  const end = offset('end');
  const sortRaw = (ctx.query.get('sort') ?? ctx.query.get('order') ?? 'desc').trim().toLowerCase();
  if (sortRaw !== 'asc' && sortRaw !== 'desc') errors.push(`sort: "${sortRaw}" must be asc or desc`);
  const status = parseStatusList(ctx.query.get('status'), 'status', errors);
  const download = (ctx.query.get('download') ?? '').trim().toLowerCase();
  if (download !== '' && !['true', 'false', '1', '0'].includes(download)) errors.push('download: must be true or false');
  if (errors.length) return sendError(ctx, 400, 'invalid_request', 'one or more query parameters failed validation', errors);
  const search = (ctx.query.get('search') ?? '').toLowerCase();
  const records = collectRecords(stateOf(world).store, zone, {
    from: dayStart,
    to: dayEnd,
    now,
    includeShield: false,
    match: status ? (r) => status(r.statusCode) : undefined,
  });
  let lines = records.map(toV1Line);
  if (search) lines = lines.filter((l) => l.toLowerCase().includes(search));
  if (sortRaw === 'desc') lines.reverse();
  lines = lines.slice(start, end === null ? undefined : Math.max(start, end));
  const text = lines.length ? `${lines.join('\n')}\n` : '';
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (download === 'true' || download === '1') headers['content-disposition'] = `attachment; filename="${date}-${zone.Id}.log"`;
  let body: Buffer = Buffer.from(text, 'utf8');
  if (/\bgzip\b/i.test(String(ctx.req.headers['accept-encoding'] ?? ''))) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(body.length);
  ctx.res.writeHead(200, headers);
  ctx.res.end(body);
}

/** The logging origin: traffic generator, v2 and v1 routes, auth and the per-zone rate limit. */
export function createLoggingOrigin(world: World): OriginSpec {
  stateOf(world);
  const router = new Router();
  router.get('/v2/pullzones/:id/logs', (ctx) => handleV2(world, ctx));
  router.get('/:date/:file', (ctx) => handleV1(world, ctx));
  return {
    name: 'logging',
    router,
    authenticate(ctx) {
      const result = checkLoggingAuth(ctx.req.headers, world.accessKey, world.now());
      if (result.ok) return true;
      sendError(ctx, result.status, result.code, result.message);
      return false;
    },
    notFound(ctx) {
      sendError(ctx, 404, 'not_found', `no route for ${ctx.method} ${ctx.path}`);
    },
    errorBody: () => ['application/json', errorJson('internal_error', 'unexpected server error')],
    rateLimitedBody: () => ['application/json', errorJson('rate_limited', 'rate limit exceeded for this pull zone')],
  };
}
