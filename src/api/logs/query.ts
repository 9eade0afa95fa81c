import { isIP } from 'node:net';
import { ApiError, type FieldError } from '../errors';
import {
  CACHE_STATUS_VALUES,
  fieldGetter,
  FILTERED_FIELDS,
  LOG_FIELDS,
  type FilteredField,
  type FilterMatch,
  type ServerFilterDef,
} from '../../log-fields/fields';
import type { LogEntry } from './entry';

type FilterValue<M extends FilterMatch> = M extends 'status' ? string | readonly (string | number)[] : M extends 'list' ? string | readonly string[] : string;
type NormalValue<M extends FilterMatch> = M extends 'status' ? { codes: number[]; classes: number[] } | null : M extends 'list' ? string[] : string | null;

/**
 * Server-side filters of the v2 logging API (also applied locally to v1 records): one per field
 * the field table gives a serverFilter (status: codes and classes, lists comma separated or as
 * arrays, contains: a substring of any case), and `search`: space-separated tokens, ANY token in
 * ANY of the fields the table marks `searched`.
 */
export type LogFilter = { [F in FilteredField as F['serverFilter']['param']]?: FilterValue<F['serverFilter']['match']> } & {
  search?: string;
  includeOriginShield?: boolean;
};

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
export { CACHE_STATUS_VALUES };

/** A filter after validation: canonical values, ready for the query string or a local test. */
export type NormalizedFilter = { [F in FilteredField as F['serverFilter']['param']]: NormalValue<F['serverFilter']['match']> } & {
  search: string[];
  includeOriginShield: boolean;
};

const listOf = (v: string | readonly (string | number)[] | undefined): string[] =>
  v === undefined ? [] : (typeof v === 'string' ? v.split(',') : v.map(String)).map((s) => s.trim()).filter((s) => s !== '');

const text = (v: string | undefined): string | null => (v === undefined || v.trim() === '' ? null : v.trim());

const STATUS = FILTERED_FIELDS.find((f) => f.serverFilter.match === 'status')!.serverFilter;

/** Status list syntax: codes 100-599 and classes 1xx-5xx, comma separated. */
export function parseStatusFilter(value: string | readonly (string | number)[] | undefined, errors: FieldError[] = []): NormalizedFilter['status'] {
  const items = listOf(value);
  if (!items.length) return null;
  const codes: number[] = [];
  const classes: number[] = [];
  for (const item of items) {
    if (/^[1-5]\d\d$/.test(item)) codes.push(Number(item));
    else if (/^[1-5]xx$/i.test(item)) classes.push(Number(item[0]));
    else errors.push({ field: STATUS.param, message: `"${item}" is not ${STATUS.invalid}` });
  }
  return { codes, classes };
}

const inCase = (v: string, c: ServerFilterDef['case']) => (c === 'upper' ? v.toUpperCase() : c === 'lower' ? v.toLowerCase() : v);

function isValid(v: string, valid: ServerFilterDef['valid']): boolean {
  if (valid === null) return true;
  if (valid === 'ip') return isIP(v) !== 0;
  if (valid instanceof RegExp) return valid.test(v);
  return valid.includes(v.toUpperCase());
}

/** Checks every filter before anything is sent; throws one 'invalid-input' ApiError listing all problems. */
export function normalizeFilter(f: LogFilter, errors: FieldError[] = [], throwOnError = true): NormalizedFilter {
  const out: Record<string, NormalizedFilter[keyof NormalizedFilter]> = {};
  for (const { serverFilter: sf } of FILTERED_FIELDS) {
    const given = (f as Record<string, string | readonly (string | number)[] | undefined>)[sf.param];
    const field = sf.param;
    if (sf.match === 'status') out[field] = parseStatusFilter(given, errors);
    else if (sf.match === 'list') {
      const items = listOf(given);
      for (const v of items) if (!isValid(v, sf.valid)) errors.push({ field, message: `"${inCase(v, sf.case)}" is not ${sf.invalid}` });
      out[field] = items.map((v) => inCase(v, sf.case));
    } else {
      const v = text(given as string | undefined);
      if (v !== null && sf.match === 'contains' && v.length > MAX_CONTAINS_LENGTH) {
        errors.push({ field, message: `at most ${MAX_CONTAINS_LENGTH.toLocaleString('en-US')} characters, got ${v.length.toLocaleString('en-US')}` });
      }
      if (v !== null && !isValid(v, sf.valid)) errors.push({ field, message: `"${v}" is not ${sf.invalid}` });
      out[field] = v === null ? null : inCase(v, sf.case);
    }
  }
  const search = (f.search ?? '').split(/\s+/).filter((t) => t !== '');
  if (search.length > MAX_SEARCH_TOKENS) errors.push({ field: 'search', message: `at most ${MAX_SEARCH_TOKENS} search tokens, got ${search.length}` });
  const long = search.find((t) => t.length > MAX_TOKEN_LENGTH);
  if (long) errors.push({ field: 'search', message: `search tokens are at most ${MAX_TOKEN_LENGTH} characters, one has ${long.length}` });
  if (throwOnError) throwIfAny(errors);
  return { ...out, search, includeOriginShield: Boolean(f.includeOriginShield) } as NormalizedFilter;
}

/** Whether a normalized filter filters on anything but the status. */
export function filtersBeyondStatus(f: NormalizedFilter): boolean {
  if (f.search.length) return true;
  return FILTERED_FIELDS.some(({ serverFilter: sf }) => {
    const v = f[sf.param];
    return sf.match !== 'status' && (Array.isArray(v) ? v.length > 0 : v !== null);
  });
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
  if (q.offset !== undefined && (!Number.isSafeInteger(q.offset) || q.offset < 0))
    errors.push({ field: 'offset', message: `must be a whole number >= 0, got ${q.offset}` });
  if (q.order !== undefined && q.order !== 'asc' && q.order !== 'desc') errors.push({ field: 'order', message: `must be asc or desc, got ${String(q.order)}` });
  throwIfAny(errors);
  const params: Record<string, string> = {};
  if (from !== null) params.from = isoTime(from);
  if (to !== null) params.to = isoTime(to);
  for (const { serverFilter: sf } of FILTERED_FIELDS) {
    const v = f[sf.param];
    if (v === null || (Array.isArray(v) && v.length === 0)) continue;
    if (sf.match === 'status') {
      const status = v as NonNullable<NormalizedFilter['status']>;
      params[sf.param] = [...status.codes, ...status.classes.map((c) => `${c}xx`)].join(',');
    } else params[sf.param] = Array.isArray(v) ? v.join(',') : String(v);
  }
  if (f.search.length) params.search = f.search.join(' ');
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
  const tests: ((e: LogEntry) => boolean)[] = [];
  for (const field of FILTERED_FIELDS) {
    const test = fieldTest(field, f[field.serverFilter.param]);
    if (test) tests.push(test);
  }
  const search = f.search.length ? new RegExp(f.search.map(escapeRe).join('|'), 'i') : null;
  if (search) {
    tests.push((e) => {
      for (let i = 0; i < SEARCHED.length; i++) {
        const v = e[SEARCHED[i]!];
        if (v !== null && search.test(v)) return true;
      }
      return false;
    });
  }
  return (e) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(e)) return false;
    return true;
  };
}

/** The text a filter on a field tests: the url is host + path when the record has both (as the server matches it). */
function textOf(field: FilteredField): (e: LogEntry) => string | null {
  if (field.storage === 'derived') return (e) => (e.host !== null && e.path !== null ? e.host + e.path : (e.url ?? e.path ?? e.host ?? ''));
  return fieldGetter(field.name) as (e: LogEntry) => string | null;
}

/** The local test of one field's filter, null when the filter does not use it. */
function fieldTest(field: FilteredField, wanted: NormalizedFilter[keyof NormalizedFilter]): ((e: LogEntry) => boolean) | null {
  const sf: ServerFilterDef = field.serverFilter;
  if (wanted === null || (Array.isArray(wanted) && wanted.length === 0)) return null;
  if (sf.match === 'status') {
    const { codes, classes } = wanted as { codes: number[]; classes: number[] };
    const codeSet = new Set(codes);
    const classSet = new Set(classes);
    const read = fieldGetter(field.name) as (e: LogEntry) => number;
    return (e) => {
      const s = read(e);
      return codeSet.has(s) || classSet.has(Math.floor(s / 100));
    };
  }
  const text = textOf(field);
  if (sf.match === 'contains') {
    const re = new RegExp(escapeRe(wanted as string), 'i');
    return (e) => {
      const v = text(e);
      return v !== null && re.test(v);
    };
  }
  // list and exact: compared in the filter's case (an address in lower case)
  const fold = sf.case === 'upper' ? (v: string) => v.toUpperCase() : (v: string) => v.toLowerCase();
  const values = new Set((Array.isArray(wanted) ? wanted : [wanted as string]).map(fold));
  return (e) => {
    const v = text(e);
    return v !== null && values.has(fold(v));
  };
}
