import type { LogEntry } from '../../log-fields/fields';
import { lazySchema } from '../lazy-schema';

export type { LogEntry } from '../../log-fields/fields';

/** The fields only extended logging fills, all null: for records made from fewer fields (a v1 line, a test). */
export const NO_EXTENDED_FIELDS = {
  bodyBytesSent: null,
  contentRange: null,
  authorizationHeader: null,
  ja4Fingerprint: null,
  asn: null,
  asnOrganization: null,
} as const satisfies Partial<LogEntry>;

/**
 * The zod definition of LogEntry: the reference the fast reader below is tested against.
 * Tolerant: unknown fields are dropped, optional fields may be absent or null.
 */
export const logEntrySchema = lazySchema((z) => {
  const str = z.string().nullish().transform((v) => v ?? null);
  const int = z.number().nullish().transform((v) => v ?? null);
  return z.object({
    timestamp: z.string().refine((t) => !Number.isNaN(parseTimestamp(t)), 'not a date-time'),
    pullZoneId: z.number(),
    requestId: str,
    cacheStatus: str,
    statusCode: z.number(),
    bytesSent: z.number(),
    remoteIp: str,
    countryCode: str,
    edgeLocation: str,
    scheme: str,
    host: str,
    path: str,
    url: str,
    userAgent: str,
    referer: str,
    bodyBytesSent: int,
    contentRange: str,
    authorizationHeader: str,
    ja4Fingerprint: str,
    asn: int,
    asnOrganization: str,
  });
});

/** The 200 envelope; entries are read one by one so one odd entry does not lose a page. */
export const logPageSchema = lazySchema((z) =>
  z.object({
    data: z.array(z.unknown()).nullish(),
    pagination: z.object({
      offset: z.number(),
      limit: z.number(),
      returned: z.number(),
      hasMore: z.boolean(),
    }),
    query: z
      .object({
        pullZoneId: z.number().nullish(),
        from: z.string().nullish(),
        to: z.string().nullish(),
        order: z.string().nullish(),
      })
      .nullish(),
  }),
);

type Raw = Record<string, unknown>;

const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const n = (v: unknown): number | null => (typeof v === 'number' ? v : null);
/** Optional string: null/absent is fine, any other type makes the entry invalid. */
const badStr = (v: unknown) => v !== undefined && v !== null && typeof v !== 'string';
const badNum = (v: unknown) => v !== undefined && v !== null && typeof v !== 'number';

/**
 * Fast equivalent of logEntrySchema.parse for the hot path (about ten times quicker than zod):
 * the LogEntry, or null when the value is not one. Builds every entry with the same shape.
 */
export function readLogEntry(value: unknown): LogEntry | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Raw;
  const timestamp = r.timestamp;
  if (typeof timestamp !== 'string' || typeof r.pullZoneId !== 'number' || typeof r.statusCode !== 'number' || typeof r.bytesSent !== 'number') return null;
  if (
    badStr(r.requestId) || badStr(r.cacheStatus) || badStr(r.remoteIp) || badStr(r.countryCode) || badStr(r.edgeLocation) ||
    badStr(r.scheme) || badStr(r.host) || badStr(r.path) || badStr(r.url) || badStr(r.userAgent) || badStr(r.referer) ||
    badNum(r.bodyBytesSent) || badStr(r.contentRange) || badStr(r.authorizationHeader) || badStr(r.ja4Fingerprint) ||
    badNum(r.asn) || badStr(r.asnOrganization)
  ) {
    return null;
  }
  if (Number.isNaN(parseTimestamp(timestamp))) return null;
  return {
    timestamp,
    pullZoneId: r.pullZoneId,
    requestId: s(r.requestId),
    cacheStatus: s(r.cacheStatus),
    statusCode: r.statusCode,
    bytesSent: r.bytesSent,
    remoteIp: s(r.remoteIp),
    countryCode: s(r.countryCode),
    edgeLocation: s(r.edgeLocation),
    scheme: s(r.scheme),
    host: s(r.host),
    path: s(r.path),
    url: s(r.url),
    userAgent: s(r.userAgent),
    referer: s(r.referer),
    bodyBytesSent: n(r.bodyBytesSent),
    contentRange: s(r.contentRange),
    authorizationHeader: s(r.authorizationHeader),
    ja4Fingerprint: s(r.ja4Fingerprint),
    asn: n(r.asn),
    asnOrganization: s(r.asnOrganization),
  };
}

const DIGIT_AT = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
const d2 = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/** Whether a timestamp is in the platform's own form (2026-08-08T14:32:11.265Z, a valid date and time). */
export function platformForm(text: string): boolean {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */ || text.charCodeAt(10) !== 84 /* T */ || text.charCodeAt(19) !== 46 /* . */) return false;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  for (let i = 0; i < DIGIT_AT.length; i++) {
    const c = text.charCodeAt(DIGIT_AT[i]!);
    if (c < 48 || c > 57) return false;
  }
  const month = d2(text, 5);
  const day = d2(text, 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && d2(text, 11) <= 23 && d2(text, 14) <= 59 && d2(text, 17) <= 59;
}

/**
 * Epoch ms of an ISO timestamp. The platform's own form (2026-08-08T14:32:11.265Z) is read by
 * hand (it is on the hot path); anything else goes through Date.parse. NaN when unreadable.
 */
export function parseTimestamp(text: string): number {
  if (platformForm(text)) {
    const year = d2(text, 0) * 100 + d2(text, 2);
    const ms = (text.charCodeAt(20) - 48) * 100 + d2(text, 21);
    return Date.UTC(year, d2(text, 5) - 1, d2(text, 8), d2(text, 11), d2(text, 14), d2(text, 17), ms);
  }
  return Date.parse(text);
}

/** A key that identifies the request: the request id, or a stand-in built from the record. */
export function entryKey(e: LogEntry): string {
  return e.requestId ?? `${e.timestamp}|${e.pullZoneId}|${e.remoteIp ?? ''}|${e.url ?? e.path ?? ''}|${e.statusCode}|${e.bytesSent}`;
}
