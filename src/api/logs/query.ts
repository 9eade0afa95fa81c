import { isIP } from 'node:net';
import { ApiError, type FieldError } from '../errors';
import { LOG_FIELDS } from '../../log-fields/fields';
import type { LogEntry } from './entry';

/** Server-side filters of the v2 logging API (also applied locally to v1 records). */
export interface LogFilter {
  /** Codes and classes, ORed: "5xx,404" or ["5xx", 404]. */
  status?: string | readonly (string | number)[];
  /** HIT, MISS, BYPASS, REVALIDATED, STALE, UPDATING, EXPIRED, '-' (exact). */
  cacheStatus?: string | readonly string[];
  /** ISO alpha-2, one or several. */
  country?: string | readonly string[];
  edgeLocation?: string;
  remoteIp?: string;
  /** Case-insensitive substring of host + path. */
  urlContains?: string;
  userAgentContains?: string;
  refererContains?: string;
  /** Space-separated tokens: ANY token in ANY of the fields the table marks `searched`. */
  search?: string;
  requestId?: string;
  includeOriginShield?: boolean;
}

export type TimeInput = number | Date | string;

export interface LogQuery extends LogFilter {
  /** Inclusive; default to - 24 h (the server's default). */
  from?: TimeInput;
  /** Exclusive; default now (on the server). */
  to?: TimeInput;
  /** 1..10000, default 100. */
  limit?: number;
  offset?: number;
  order?: 'asc' | 'desc';
}

export const RETENTION_MS = 3 * 24 * 3_600_000;
export const MAX_LIMIT = 10_000;
export const MAX_SEARCH_TOKENS = 16;
export const MAX_TOKEN_LENGTH = 128;
/** The longest url/ua/referer substring taken: a longer one is refused before anything runs. */
export const MAX_CONTAINS_LENGTH = 1_000;
export const CACHE_STATUS_VALUES = ['HIT', 'MISS', 'BYPASS', 'REVALIDATED', 'STALE', 'UPDATING', 'EXPIRED', '-'] as const;

/** A filter after validation: canonical values, ready for the query string or a local test. */
export interface NormalizedFilter {
  status: { codes: number[]; classes: number[] } | null;
  cacheStatus: string[];
  country: string[];
  edgeLocation: string | null;
  remoteIp: string | null;
  urlContains: string | null;
  userAgentContains: string | null;
  refererContains: string | null;
  search: string[];
  requestId: string | null;
  includeOriginShield: boolean;
}

const listOf = (v: string | readonly (string | number)[] | undefined): string[] =>
  v === undefined ? [] : (typeof v === 'string' ? v.split(',') : v.map(String)).map((s) => s.trim()).filter((s) => s !== '');

const text = (v: string | undefined): string | null => (v === undefined || v.trim() === '' ? null : v.trim());

/** Status list syntax: codes 100-599 and classes 1xx-5xx, comma separated. */
export function parseStatusFilter(value: string | readonly (string | number)[] | undefined, errors: FieldError[] = []): NormalizedFilter['status'] {
  const items = listOf(value);
  if (!items.length) return null;
  const codes: number[] = [];
  const classes: number[] = [];
  for (const item of items) {
    if (/^[1-5]\d\d$/.test(item)) codes.push(Number(item));
    else if (/^[1-5]xx$/i.test(item)) classes.push(Number(item[0]));
    else errors.push({ field: 'status', message: `"${item}" is not a status code (100-599) or a class (1xx-5xx); example: 5xx,404` });
  }
  return { codes, classes };
}

/** Checks every filter before anything is sent; throws one 'invalid-input' ApiError listing all problems. */
export function normalizeFilter(f: LogFilter, errors: FieldError[] = [], throwOnError = true): NormalizedFilter {
  const status = parseStatusFilter(f.status, errors);
  const cacheStatus = listOf(f.cacheStatus).map((c) => c.toUpperCase());
  for (const c of cacheStatus) {
    if (!(CACHE_STATUS_VALUES as readonly string[]).includes(c)) errors.push({ field: 'cacheStatus', message: `"${c}" is not a cache status (${CACHE_STATUS_VALUES.join(', ')})` });
  }
  const country = listOf(f.country).map((c) => c.toUpperCase());
  for (const c of country) if (!/^[A-Z]{2}$/.test(c)) errors.push({ field: 'country', message: `"${c}" is not an ISO 3166 alpha-2 country code (example: DE)` });
  const remoteIp = text(f.remoteIp);
  if (remoteIp !== null && isIP(remoteIp) === 0) errors.push({ field: 'remoteIp', message: `"${remoteIp}" is not an IPv4 or IPv6 address` });
  const requestId = text(f.requestId);
  if (requestId !== null && !/^[0-9a-fA-F]{32}$/.test(requestId)) errors.push({ field: 'requestId', message: `"${requestId}" is not a request id (32 hex characters)` });
  const search = (f.search ?? '').split(/\s+/).filter((t) => t !== '');
  if (search.length > MAX_SEARCH_TOKENS) errors.push({ field: 'search', message: `at most ${MAX_SEARCH_TOKENS} search tokens, got ${search.length}` });
  const long = search.find((t) => t.length > MAX_TOKEN_LENGTH);
  if (long) errors.push({ field: 'search', message: `search tokens are at most ${MAX_TOKEN_LENGTH} characters, one has ${long.length}` });
  for (const field of ['urlContains', 'userAgentContains', 'refererContains'] as const) {
    const v = text(f[field]);
    if (v !== null && v.length > MAX_CONTAINS_LENGTH) errors.push({ field, message: `at most ${MAX_CONTAINS_LENGTH.toLocaleString('en-US')} characters, got ${v.length.toLocaleString('en-US')}` });
  }
  const edge = text(f.edgeLocation);
  if (edge !== null && !/^[A-Za-z0-9-]{1,16}$/.test(edge)) errors.push({ field: 'edgeLocation', message: `"${edge}" is not an edge location code (example: WA)` });
  if (throwOnError) throwIfAny(errors);
  return {
    status,
    cacheStatus,
    country,
    edgeLocation: edge === null ? null : edge.toUpperCase(),
    remoteIp,
    urlContains: text(f.urlContains),
    userAgentContains: text(f.userAgentContains),
    refererContains: text(f.refererContains),
    search,
    requestId: requestId === null ? null : requestId.toLowerCase(),
    includeOriginShield: Boolean(f.includeOriginShield),
  };
}

function throwIfAny(errors: FieldError[]): void {
  if (!errors.length) return;
  throw new ApiError({
    kind: 'invalid-input',
    fieldErrors: errors,
    message: `invalid log query: ${errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ')}`,
  });
}

/** Epoch ms of a time input; NaN when unreadable. */
export function toEpochMs(v: TimeInput): number {
  if (typeof v === 'number') return v;
  if (v instanceof Date) return v.getTime();
  const t = v.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return Number.NaN;
  // A date-time without a zone means UTC, as the platform reads it.
  const zoned = /T.*(Z|[+-]\d{2}:?\d{2})$/i.test(t) || !t.includes('T') ? t : `${t}Z`;
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(zoned) ? `${zoned}T00:00:00Z` : zoned);
}

/** RFC 3339 UTC: whole seconds as the platform's own CLI sends them, milliseconds only when there are some. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export interface BuiltQuery {
  params: Record<string, string>;
  from: number | null;
  to: number | null;
}

/**
 * Validates a whole v2 query (filters, limit 1..10000, offset, order, window inside the 3-day
 * retention and at most 3 days long) and returns the query-string parameters.
 */
/** How far the platform's clock may run ahead of this machine's. */
const CLOCK_SKEW_ALLOWANCE_MS = 5 * 60_000;

export function buildLogQuery(q: LogQuery, now: number): BuiltQuery {
  const errors: FieldError[] = [];
  const f = normalizeFilter(q, errors, false);
  const time = (name: 'from' | 'to'): number | null => {
    const v = q[name];
    if (v === undefined) return null;
    const t = toEpochMs(v);
    if (Number.isNaN(t)) errors.push({ field: name, message: `"${String(v)}" is not an ISO 8601 date-time (example: 2026-08-08T14:32:11Z)` });
    return Number.isNaN(t) ? null : t;
  };
  const from = time('from');
  const to = time('to');
  if (from !== null) {
    if (from < now - RETENTION_MS) errors.push({ field: 'from', message: 'is older than the 3-day log retention' });
    if (to === null) {
      // the server's clock ends a window without `to`: a platform clock ahead of this machine's
      // (a poll from the end of the last page the server gave) is not an error
      if (from >= now + CLOCK_SKEW_ALLOWANCE_MS) errors.push({ field: 'from', message: 'is in the future' });
    } else if (from >= to) errors.push({ field: 'from', message: 'must be before to' });
    else if (to - from > RETENTION_MS) errors.push({ field: 'to', message: 'the window is at most 3 days long' });
  } else if (to !== null && to <= now - RETENTION_MS) {
    errors.push({ field: 'to', message: 'is older than the 3-day log retention' });
  }
  if (q.limit !== undefined && (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_LIMIT)) {
    errors.push({ field: 'limit', message: `must be a whole number from 1 to ${MAX_LIMIT}, got ${q.limit}` });
  }
  if (q.offset !== undefined && (!Number.isSafeInteger(q.offset) || q.offset < 0)) errors.push({ field: 'offset', message: `must be a whole number >= 0, got ${q.offset}` });
  if (q.order !== undefined && q.order !== 'asc' && q.order !== 'desc') errors.push({ field: 'order', message: `must be asc or desc, got ${String(q.order)}` });
  throwIfAny(errors);
  const params: Record<string, string> = {};
  if (from !== null) params.from = isoTime(from);
  if (to !== null) params.to = isoTime(to);
  if (f.status) params.status = [...f.status.codes, ...f.status.classes.map((c) => `${c}xx`)].join(',');
  if (f.cacheStatus.length) params.cacheStatus = f.cacheStatus.join(',');
  if (f.country.length) params.country = f.country.join(',');
  if (f.edgeLocation) params.edgeLocation = f.edgeLocation;
  if (f.remoteIp) params.remoteIp = f.remoteIp;
  if (f.urlContains) params.urlContains = f.urlContains;
  if (f.userAgentContains) params.userAgentContains = f.userAgentContains;
  if (f.refererContains) params.refererContains = f.refererContains;
  if (f.search.length) params.search = f.search.join(' ');
  if (f.requestId) params.requestId = f.requestId;
  if (f.includeOriginShield) params.includeOriginShield = 'true';
  if (q.limit !== undefined) params.limit = String(q.limit);
  if (q.offset !== undefined) params.offset = String(q.offset);
  if (q.order !== undefined) params.order = q.order;
  return { params, from, to };
}

type SearchedField = Extract<(typeof LOG_FIELDS)[number], { searched: true }>['name'];
/** The fields the platform's `search` matches (the field table's `searched`). */
const SEARCHED = LOG_FIELDS.filter((f): f is Extract<(typeof LOG_FIELDS)[number], { searched: true }> => f.searched).map((f): SearchedField => f.name);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The same filter as a local test over records, with the server's semantics (used for v1 files,
 * which the server barely filters). Compiled once: no allocation per record.
 */
export function compileFilter(filter: LogFilter | NormalizedFilter): (e: LogEntry) => boolean {
  const f: NormalizedFilter = 'search' in filter && Array.isArray(filter.search) ? (filter as NormalizedFilter) : normalizeFilter(filter as LogFilter);
  const codes = new Set(f.status?.codes ?? []);
  const classes = new Set(f.status?.classes ?? []);
  const hasStatus = f.status !== null;
  const cache = new Set(f.cacheStatus);
  const country = new Set(f.country);
  const edge = f.edgeLocation;
  const ip = f.remoteIp?.toLowerCase() ?? null;
  const url = f.urlContains ? new RegExp(escapeRe(f.urlContains), 'i') : null;
  const ua = f.userAgentContains ? new RegExp(escapeRe(f.userAgentContains), 'i') : null;
  const ref = f.refererContains ? new RegExp(escapeRe(f.refererContains), 'i') : null;
  const search = f.search.length ? new RegExp(f.search.map(escapeRe).join('|'), 'i') : null;
  const id = f.requestId;
  const urlTest = (e: LogEntry): boolean => {
    if (!url) return true;
    if (e.host !== null && e.path !== null) return url.test(e.host + e.path);
    return url.test(e.url ?? e.path ?? e.host ?? '');
  };
  return (e) => {
    if (hasStatus && !codes.has(e.statusCode) && !classes.has(Math.floor(e.statusCode / 100))) return false;
    if (cache.size && (e.cacheStatus === null || !cache.has(e.cacheStatus.toUpperCase()))) return false;
    if (country.size && (e.countryCode === null || !country.has(e.countryCode.toUpperCase()))) return false;
    if (edge !== null && (e.edgeLocation === null || e.edgeLocation.toUpperCase() !== edge)) return false;
    if (ip !== null && (e.remoteIp === null || e.remoteIp.toLowerCase() !== ip)) return false;
    if (id !== null && (e.requestId === null || e.requestId.toLowerCase() !== id)) return false;
    if (url && !urlTest(e)) return false;
    if (ua && (e.userAgent === null || !ua.test(e.userAgent))) return false;
    if (ref && (e.referer === null || !ref.test(e.referer))) return false;
    if (search) {
      let hit = false;
      for (let i = 0; i < SEARCHED.length && !hit; i++) {
        const v = e[SEARCHED[i]!];
        hit = v !== null && search.test(v);
      }
      if (!hit) return false;
    }
    return true;
  };
}
