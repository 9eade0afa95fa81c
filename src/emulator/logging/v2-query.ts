import { isIP } from 'node:net';
import { type GenRecord, RETENTION_MS } from './traffic';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
export const MAX_SEARCH_TOKENS = 16;
export const MAX_TOKEN_LENGTH = 128;
export const DEFAULT_RANGE_MS = 24 * 3_600_000;
/** Tolerance for a `from` computed as "now - 3 days" by a client a moment earlier. */
export const RETENTION_GRACE_MS = 60_000;

export interface V2Query {
  from: number;
  to: number;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  includeShield: boolean;
  /** The record filters given; undefined without any (paging can then skip chunks by their count). */
  match: ((r: GenRecord) => boolean) | undefined;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO 8601 date or date-time; no zone means UTC. NaN when unreadable. */
export function parseDateTime(text: string): number {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return Number.NaN;
  const [, date, hm, sec, frac, zone] = m;
  let zoneText = zone ?? 'Z';
  if (/^[+-]\d{4}$/.test(zoneText)) zoneText = `${zoneText.slice(0, 3)}:${zoneText.slice(3)}`;
  const iso = `${date}T${hm ?? '00:00'}:${sec ?? '00'}.${(frac ?? '0').slice(0, 3).padEnd(3, '0')}${zoneText.toUpperCase()}`;
  return Date.parse(iso);
}

function list(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses a comma list of codes (404) and classes (5xx) into a test; pushes what is wrong to `errors`. */
export function parseStatusList(value: string | null, name: string, errors: string[]): ((code: number) => boolean) | null {
  const items = list(value);
  if (items.length === 0) return null;
  const codes = new Set<number>();
  const classes = new Set<number>();
  for (const item of items) {
    if (/^[1-5]\d\d$/.test(item)) codes.add(Number(item));
    else if (/^[1-5]xx$/i.test(item)) classes.add(Number(item[0]));
    else errors.push(`${name}: "${item}" is not a status code (100-599) or class (1xx-5xx)`);
  }
  return (code) => codes.has(code) || classes.has(Math.floor(code / 100));
}

const lower = (s: string | null) => (s === null ? '' : s.toLowerCase());

/** Validates every v2 parameter; returns the query or the per-parameter problems. */
export function parseV2Query(q: URLSearchParams, now: number): { ok: true; query: V2Query } | { ok: false; details: string[] } {
  const errors: string[] = [];
  const time = (name: string): number | null => {
    const raw = q.get(name);
    if (raw === null || raw.trim() === '') return null;
    const t = parseDateTime(raw);
    if (Number.isNaN(t)) errors.push(`${name}: "${raw}" is not an ISO 8601 date-time (example 2026-08-08T14:32:11Z)`);
    return Number.isNaN(t) ? null : t;
  };
  const retentionStart = now - RETENTION_MS;
  const toGiven = time('to');
  const fromGiven = time('from');
  const to = toGiven ?? now;
  const from = fromGiven ?? Math.max(to - DEFAULT_RANGE_MS, retentionStart);
  if (fromGiven !== null && fromGiven < retentionStart - RETENTION_GRACE_MS) errors.push('from: must be within the last 3 days (log retention)');
  if (from >= to) errors.push('from: must be before to');
  else if (to - from > RETENTION_MS + RETENTION_GRACE_MS) errors.push('from/to: the range is at most 3 days');

  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = q.get(name);
    if (raw === null || raw.trim() === '') return def;
    if (!/^-?\d+$/.test(raw.trim())) {
      errors.push(`${name}: "${raw}" is not an integer`);
      return def;
    }
    const n = Number(raw.trim());
    if (n < min) errors.push(`${name}: must be at least ${min}`);
    return Math.min(n, max);
  };
  const limit = int('limit', DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = int('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const orderRaw = (q.get('order') ?? '').trim().toLowerCase();
  if (orderRaw !== '' && orderRaw !== 'asc' && orderRaw !== 'desc') errors.push(`order: "${q.get('order')}" must be asc or desc`);
  const order = orderRaw === 'asc' ? 'asc' : 'desc';
  const shieldRaw = (q.get('includeOriginShield') ?? '').trim().toLowerCase();
  if (shieldRaw !== '' && !['true', 'false', '1', '0'].includes(shieldRaw))
    errors.push(`includeOriginShield: "${q.get('includeOriginShield')}" must be true or false`);
  const includeShield = shieldRaw === 'true' || shieldRaw === '1';

  const status = parseStatusList(q.get('status'), 'status', errors);
  const cache = new Set(list(q.get('cacheStatus')).map((s) => s.toUpperCase()));
  const countries = list(q.get('country'));
  for (const c of countries) if (!/^[A-Za-z]{2}$/.test(c)) errors.push(`country: "${c}" is not an ISO 3166 alpha-2 code`);
  const country = new Set(countries.map((c) => c.toUpperCase()));
  const edge = (q.get('edgeLocation') ?? '').trim().toUpperCase();
  const ip = (q.get('remoteIp') ?? '').trim().toLowerCase();
  if (ip !== '' && isIP(ip) === 0) errors.push(`remoteIp: "${q.get('remoteIp')}" is not an IPv4 or IPv6 address`);
  const url = lower(q.get('urlContains'));
  const ua = lower(q.get('userAgentContains'));
  const ref = lower(q.get('refererContains'));
  const requestId = (q.get('requestId') ?? '').trim().toLowerCase();
  const tokens = (q.get('search') ?? '')
    .split(/\s+/)
    .filter((t) => t !== '')
    .map((t) => t.toLowerCase());
  if (tokens.length > MAX_SEARCH_TOKENS) errors.push(`search: at most ${MAX_SEARCH_TOKENS} tokens (got ${tokens.length})`);
  for (const t of tokens) if (t.length > MAX_TOKEN_LENGTH) errors.push(`search: tokens are at most ${MAX_TOKEN_LENGTH} characters (one has ${t.length})`);
  if (errors.length) return { ok: false, details: errors };

  const match = (r: GenRecord): boolean => {
    if (status && !status(r.statusCode)) return false;
    if (cache.size && !cache.has(r.cacheStatus)) return false;
    if (country.size && (r.countryCode === null || !country.has(r.countryCode))) return false;
    if (edge && r.edgeLocation.toUpperCase() !== edge) return false;
    if (ip && lower(r.remoteIp) !== ip) return false;
    if (requestId && r.requestId !== requestId) return false;
    if (url && !(r.host + r.path).toLowerCase().includes(url)) return false;
    if (ua && !lower(r.userAgent).includes(ua)) return false;
    if (ref && !lower(r.referer).includes(ref)) return false;
    if (tokens.length) {
      // ANY token in ANY searched field; IP, country and the auth header are not searched.
      const hay =
        `${r.cacheStatus}\n${r.requestId}\n${r.edgeLocation}\n${r.host}\n${r.path}\n${r.userAgent ?? ''}\n${r.referer ?? ''}\n${r.contentRange ?? ''}`.toLowerCase();
      let any = false;
      for (const t of tokens)
        if (hay.includes(t)) {
          any = true;
          break;
        }
      if (!any) return false;
    }
    return true;
  };
  const filtered =
    status !== null ||
    cache.size > 0 ||
    country.size > 0 ||
    edge !== '' ||
    ip !== '' ||
    requestId !== '' ||
    url !== '' ||
    ua !== '' ||
    ref !== '' ||
    tokens.length > 0;
  return { ok: true, query: { from, to, order, limit, offset, includeShield, match: filtered ? match : undefined } };
}
