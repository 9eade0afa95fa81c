import fc from 'fast-check';

/**
 * What the page-body tests (page reader, page bytes) build their random pages from: the v2
 * LogEntry fields in the platform's layout order, which of them are numbers, and the numbers
 * they take (mostly plain, sometimes ones a number parser gets wrong).
 */

/** The fields of a v2 LogEntry, in the order the platform writes them. */
export const PAGE_FIELDS = [
  'timestamp',
  'pullZoneId',
  'requestId',
  'cacheStatus',
  'statusCode',
  'bytesSent',
  'remoteIp',
  'countryCode',
  'edgeLocation',
  'scheme',
  'host',
  'path',
  'url',
  'userAgent',
  'referer',
  'bodyBytesSent',
  'contentRange',
  'authorizationHeader',
  'ja4Fingerprint',
  'asn',
  'asnOrganization',
] as const;

export type PageField = (typeof PAGE_FIELDS)[number];

/** The fields whose values are numbers. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set<PageField>(['pullZoneId', 'statusCode', 'bytesSent', 'bodyBytesSent', 'asn']);

/** A number field's value: mostly a whole number up to 2^40, sometimes a negative, a fraction, one past 2^53 or written in exponent form. */
export const pageNumber = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 2 ** 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 0.5, 1e21, 2 ** 53 + 2, 1234567890123456, 999999999999999, 100000000000000) },
);
