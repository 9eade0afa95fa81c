import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../src/api/errors';
import { logEntrySchema, parseTimestamp, readLogEntry, type LogEntry } from '../../src/api/logs/entry';
import { buildLogQuery, compileFilter, isoTime } from '../../src/api/logs/query';
import { logEntry } from '../helpers/log-entry';

const NOW = Date.UTC(2026, 7, 8, 12, 0, 0);
const H = 3_600_000;

function invalid(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.kind, 'invalid-input');
    return error;
  }
  assert.fail('expected an invalid-input error');
}

test('query builder: canonical parameters', () => {
  const q = buildLogQuery(
    {
      from: NOW - H + 250,
      to: NOW - 1500,
      status: ' 5xx, 404 ,',
      cacheStatus: ['hit', '-'],
      country: 'de,Fr',
      edgeLocation: 'wa',
      remoteIp: '2001:db8::1',
      urlContains: '/img',
      userAgentContains: 'curl',
      refererContains: 'google',
      search: '  a   b ',
      requestId: 'ABCDEF0123456789ABCDEF0123456789',
      includeOriginShield: true,
      limit: 10_000,
      offset: 20,
      order: 'asc',
    },
    NOW,
  );
  assert.deepEqual(q.params, {
    from: '2026-08-08T11:00:00.250Z',
    to: '2026-08-08T11:59:58.500Z',
    status: '404,5xx',
    cacheStatus: 'HIT,-',
    country: 'DE,FR',
    edgeLocation: 'WA',
    remoteIp: '2001:db8::1',
    urlContains: '/img',
    userAgentContains: 'curl',
    refererContains: 'google',
    search: 'a b',
    requestId: 'abcdef0123456789abcdef0123456789',
    includeOriginShield: 'true',
    limit: '10000',
    offset: '20',
    order: 'asc',
  });
  assert.deepEqual(buildLogQuery({}, NOW).params, {}, 'nothing given, nothing sent: the server defaults apply');
});

test('query builder: status list syntax', () => {
  for (const bad of ['5xz', '600', '99', 'abc', '5XX0', '4xx;5xx']) {
    const e = invalid(() => buildLogQuery({ status: bad }, NOW));
    assert.equal(e.fieldErrors[0]!.field, 'status');
    assert.match(e.message, /status code \(100-599\) or a class \(1xx-5xx\)/);
  }
  assert.equal(buildLogQuery({ status: ['2XX', 304] }, NOW).params.status, '304,2xx');
});

test('query builder: search is at most 16 tokens of at most 128 characters', () => {
  assert.equal(buildLogQuery({ search: Array.from({ length: 16 }, (_, i) => `t${i}`).join(' ') }, NOW).params.search!.split(' ').length, 16);
  assert.match(
    invalid(() => buildLogQuery({ search: Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ') }, NOW)).message,
    /at most 16 search tokens, got 17/,
  );
  buildLogQuery({ search: 'x'.repeat(128) }, NOW);
  assert.match(invalid(() => buildLogQuery({ search: `ok ${'x'.repeat(129)}` }, NOW)).message, /at most 128 characters/);
});

test('query builder: limit, offset, order', () => {
  for (const limit of [0, -1, 10_001, 1.5, Number.NaN])
    assert.match(invalid(() => buildLogQuery({ limit }, NOW)).message, /limit: must be a whole number from 1 to 10000/);
  assert.match(invalid(() => buildLogQuery({ offset: -3 }, NOW)).message, /offset/);
  assert.match(invalid(() => buildLogQuery({ order: 'up' as 'asc' }, NOW)).message, /order: must be asc or desc/);
});

test('query builder: the window stays inside the 3-day retention and is at most 3 days', () => {
  const D = 24 * H;
  buildLogQuery({ from: NOW - 3 * D + 1000 }, NOW);
  assert.match(invalid(() => buildLogQuery({ from: NOW - 3 * D - 1000 }, NOW)).message, /from: is older than the 3-day log retention/);
  assert.match(invalid(() => buildLogQuery({ from: NOW - H, to: NOW - 2 * H }, NOW)).message, /from: must be before to/);
  assert.match(invalid(() => buildLogQuery({ from: NOW - 2 * D, to: NOW + 2 * D }, NOW)).message, /at most 3 days/);
  // without `to` the platform's clock ends the window: minutes ahead of this machine's are allowed
  assert.equal(buildLogQuery({ from: NOW + 90_000 }, NOW).params.from, isoTime(NOW + 90_000));
  assert.match(invalid(() => buildLogQuery({ from: NOW + H }, NOW)).message, /from: is in the future/);
  assert.match(invalid(() => buildLogQuery({ to: NOW - 4 * D }, NOW)).message, /to: is older/);
  assert.match(invalid(() => buildLogQuery({ from: 'yesterday' }, NOW)).message, /from: "yesterday" is not an ISO 8601 date-time/);
  assert.equal(buildLogQuery({ from: '2026-08-08T10:00:00' }, NOW).params.from, '2026-08-08T10:00:00Z', 'no zone means UTC');
  assert.equal(buildLogQuery({ from: '2026-08-08T12:00:00+02:00' }, NOW).params.from, '2026-08-08T10:00:00Z');
});

test('query builder: every problem is reported at once, with the field', () => {
  const e = invalid(() => buildLogQuery({ status: 'x', country: 'DEU', remoteIp: '1.2.3', requestId: 'nope', limit: 0 }, NOW));
  assert.deepEqual(e.fieldErrors.map((f) => f.field).sort(), ['country', 'limit', 'remoteIp', 'requestId', 'status']);
});

test('times are sent in whole seconds, with milliseconds only when there are some', () => {
  assert.equal(isoTime(Date.UTC(2026, 0, 1, 0, 0, 0, 999)), '2026-01-01T00:00:00.999Z');
  assert.equal(isoTime(Date.UTC(2026, 0, 1)), '2026-01-01T00:00:00Z');
});

const optStr = fc.option(fc.oneof(fc.string(), fc.constant(undefined), fc.integer(), fc.boolean()), { nil: null });
const rawEntry = fc.record(
  {
    timestamp: fc.oneof(
      fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string(),
      fc.integer(),
    ),
    pullZoneId: fc.oneof(fc.integer(), fc.string()),
    requestId: optStr,
    cacheStatus: optStr,
    statusCode: fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constant(null)),
    bytesSent: fc.oneof(fc.nat(), fc.constant('12')),
    remoteIp: optStr,
    userAgent: optStr,
    asn: fc.option(fc.oneof(fc.integer(), fc.string()), { nil: null }),
    bodyBytesSent: fc.option(fc.integer(), { nil: null }),
    somethingNew: fc.anything(),
  },
  { requiredKeys: ['timestamp', 'pullZoneId', 'statusCode', 'bytesSent'] },
);

test('the fast entry reader agrees with the zod schema (tolerant of extra, null and missing fields)', async () => {
  const schema = await logEntrySchema.load();
  fc.assert(
    fc.property(rawEntry, (raw) => {
      const fast = readLogEntry(raw);
      const zod = schema.safeParse(raw);
      assert.equal(fast !== null, zod.success, JSON.stringify(raw));
      if (fast && zod.success) assert.deepEqual(fast, zod.data);
    }),
    { numRuns: 3000 },
  );
});

test('timestamps: the hand reader equals Date.parse on the platform form and refuses nonsense', () => {
  fc.assert(
    fc.property(fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), (d) => {
      const text = d.toISOString();
      assert.equal(parseTimestamp(text), Date.parse(text));
    }),
  );
  for (const bad of ['2026-13-01T00:00:00.000Z', '2026-0a-01T00:00:00.000Z', 'not a time', '']) assert.ok(Number.isNaN(parseTimestamp(bad)), bad);
  assert.equal(parseTimestamp('2026-08-08T14:32:11Z'), Date.UTC(2026, 7, 8, 14, 32, 11));
});

function rec(over: Partial<LogEntry>): LogEntry {
  return logEntry({
    timestamp: '2026-08-08T14:32:11.265Z',
    requestId: '648fd832dbc1b102134949e15a9fdb2d',
    cacheStatus: 'HIT',
    bytesSent: 10,
    remoteIp: '1.2.3.4',
    countryCode: 'DE',
    edgeLocation: 'WA',
    scheme: 'https',
    host: 'cdn.example.com',
    path: '/img/a.jpg?x=1',
    url: 'https://cdn.example.com/img/a.jpg?x=1',
    userAgent: 'curl/8',
    ...over,
  });
}

test('local filter: the server semantics', () => {
  const status = compileFilter({ status: '5xx,404' });
  assert.deepEqual(
    [200, 404, 403, 500, 503].map((s) => status(rec({ statusCode: s }))),
    [false, true, false, true, true],
  );
  assert.equal(compileFilter({ cacheStatus: 'miss,-' })(rec({ cacheStatus: '-' })), true);
  assert.equal(compileFilter({ cacheStatus: 'miss' })(rec({})), false);
  assert.equal(compileFilter({ country: 'fr,de' })(rec({})), true);
  assert.equal(compileFilter({ country: 'fr' })(rec({ countryCode: null })), false);
  assert.equal(compileFilter({ urlContains: 'EXAMPLE.com/IMG' })(rec({})), true, 'host + path, case-insensitive');
  assert.equal(compileFilter({ urlContains: 'https' })(rec({})), false, 'the scheme is not part of host + path');
  assert.equal(compileFilter({ userAgentContains: 'CURL' })(rec({})), true);
  assert.equal(compileFilter({ refererContains: 'x' })(rec({})), false, 'no referer never matches');
  assert.equal(compileFilter({ remoteIp: '1.2.3.4' })(rec({})), true);
  assert.equal(compileFilter({ edgeLocation: 'wa' })(rec({})), true);
  const search = compileFilter({ search: 'nothing 9FDB2D' });
  assert.equal(search(rec({})), true, 'any token, request id searched, case-insensitive');
  assert.equal(compileFilter({ search: '1.2.3.4 DE' })(rec({})), false, 'IP and country are not searched');
  assert.equal(compileFilter({ search: 'a.jpg?x' })(rec({})), true, 'regex characters are literal');
  assert.equal(compileFilter({ status: '2xx', search: 'curl', country: 'DE' })(rec({})), true, 'filters are ANDed');
  assert.equal(compileFilter({ status: '2xx', search: 'curl', country: 'US' })(rec({})), false);
});
