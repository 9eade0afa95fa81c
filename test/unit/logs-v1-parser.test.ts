import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatV1Line, parseV1, parseV1Date, parseV1Line, v1Date } from '../../src/api/logs/v1';
import type { LogEntry } from '../../src/api/logs/entry';
import { logEntry } from '../helpers/log-entry';

const EDGE = /^[A-Z][A-Z0-9-]{1,7}$/;

// Pieces of hostile text: pipes, quotes, escapes, unicode, control characters, look-alikes.
const hostilePiece = fc.oneof(
  fc.constantFrom(
    '|',
    '||',
    ' ',
    '"',
    "'",
    '\\',
    '\t',
    '-',
    'é',
    '😀',
    '中文',
    '\u0000',
    '\u001b[31m',
    '%7C',
    '?a=1&b=|2',
    'Mozilla/5.0 (X11; Linux)',
    'WA',
    'https:',
  ),
  fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !/[\r\n]/.test(s)),
);
const hostile = (minLength = 0) => fc.array(hostilePiece, { minLength, maxLength: 12 }).map((a) => a.join(''));

/** The pieces of `s` after its first '|'. */
const later = (s: string) => s.split('|').slice(1);

const entryArb: fc.Arbitrary<LogEntry> = fc
  .record({
    t: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }),
    cache: fc.constantFrom('HIT', 'MISS', 'BYPASS', 'REVALIDATED', 'STALE', 'UPDATING', 'EXPIRED', '-'),
    status: fc.integer({ min: 100, max: 599 }),
    bytes: fc.integer({ min: 0, max: 2 ** 40 }),
    zone: fc.integer({ min: 1, max: 2 ** 31 }),
    ip: fc.option(fc.oneof(fc.ipV4(), fc.ipV6()), { nil: null }),
    // A referer's later pieces must not start with a scheme (else the line is ambiguous).
    referer: fc.option(
      hostile()
        .map((h) => `https://ref.example/${h}`)
        .filter((r) => later(r).every((p) => !/^https?:\/\//i.test(p))),
      { nil: null },
    ),
    scheme: fc.constantFrom('http', 'https'),
    host: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,30}$/),
    // A URL's later pieces must not be bare edge codes (else the line is ambiguous).
    path: hostile()
      .map((h) => `/${h}`)
      .filter((p) => later(p).every((x) => !EDGE.test(x))),
    edge: fc.stringMatching(EDGE),
    ua: fc.option(
      hostile(1).filter((u) => u !== '-' && u !== ''),
      { nil: null },
    ),
    id: fc.option(fc.stringMatching(/^[0-9a-f]{32}$/), { nil: null }),
    country: fc.option(fc.stringMatching(/^[A-Z]{2}$/), { nil: null }),
  })
  .map((r) =>
    logEntry({
      timestamp: new Date(r.t).toISOString(),
      pullZoneId: r.zone,
      requestId: r.id,
      cacheStatus: r.cache,
      statusCode: r.status,
      bytesSent: r.bytes,
      remoteIp: r.ip,
      countryCode: r.country,
      edgeLocation: r.edge,
      scheme: r.scheme,
      host: r.host,
      path: r.path,
      url: `${r.scheme}://${r.host}${r.path}`,
      userAgent: r.ua,
      referer: r.referer,
    }),
  );

test('v1 round trip: format then parse gives the same record, hostile fields included', () => {
  fc.assert(
    fc.property(entryArb, (e) => {
      const line = formatV1Line(e);
      const parsed = parseV1Line(line);
      assert.notEqual(typeof parsed, 'string', `line not read: ${JSON.stringify(line)} -> ${String(parsed)}`);
      assert.deepEqual(parsed, e);
    }),
    { numRuns: 2000 },
  );
});

test('v1 file round trip with LF, CRLF and lone CR line ends, blank lines and a BOM', () => {
  fc.assert(
    fc.property(
      fc.array(entryArb, { maxLength: 30 }),
      fc.array(fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\n\r\n')),
      fc.boolean(),
      (entries, ends, bom) => {
        let text = bom ? '\ufeff' : '';
        entries.forEach((e, i) => (text += formatV1Line(e) + (ends.length ? ends[i % ends.length]! : '\n')));
        const r = parseV1(text);
        assert.equal(r.skipped, 0, JSON.stringify(r.problems));
        assert.equal(r.lines, entries.length);
        assert.deepEqual(r.entries, entries);
        assert.deepEqual(
          r.times,
          entries.map((e) => Date.parse(e.timestamp)),
        );
      },
    ),
    { numRuns: 300 },
  );
});

test('v1 parser never throws and accounts for every non-blank line', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
      const r = parseV1(text);
      assert.equal(r.entries.length + r.skipped, r.lines);
      const nonBlank = text
        .replace(/^\ufeff/, '')
        .split(/\r\n|\r|\n/)
        .filter((l) => l.trim() !== '').length;
      assert.equal(r.lines, nonBlank);
    }),
    { numRuns: 1000 },
  );
});

test('v1 parser: garbage between good lines is skipped and reported with its line number', () => {
  const fc1 = 'HIT|200|1507167062421|412|390|163.172.53.229|-|https://example.b-cdn.net/video.mp4|WA|Mozilla/5.0 (X11)|322b688bd63fb63f2babe9de30a5d262|DE';
  const text = [
    fc1,
    'HIT|200|150716706', // truncated in the middle
    'MISS|2x0|1507167062421|412|390|1.2.3.4|-|https://a/b|WA|ua|322b688bd63fb63f2babe9de30a5d263|DE', // bad status
    'MISS|200|yesterday|412|390|1.2.3.4|-|https://a/b|WA|ua|322b688bd63fb63f2babe9de30a5d264|DE', // bad timestamp
    '',
    '   ',
    fc1.replace('322b688bd63fb63f2babe9de30a5d262', '322b688bd63fb63f2babe9de30a5d265') + '\r',
  ].join('\n');
  const r = parseV1(text, 390);
  assert.equal(r.entries.length, 2);
  assert.equal(r.skipped, 3);
  assert.deepEqual(
    r.problems.map((p) => p.line),
    [2, 3, 4],
  );
  assert.match(r.problems[0]!.reason, /truncated/);
  assert.match(r.problems[1]!.reason, /status/);
  assert.match(r.problems[2]!.reason, /timestamp/);
  const first = r.entries[0]!;
  assert.equal(first.timestamp, '2017-10-05T01:31:02.421Z');
  assert.equal(first.referer, null, "'-' reads as null");
  assert.equal(first.host, 'example.b-cdn.net');
  assert.equal(first.path, '/video.mp4');
  assert.equal(first.countryCode, 'DE');
});

test("v1 parser: empty and '-' fields read as null; an empty zone takes the requested zone", () => {
  const e = parseV1Line('-|204|1700000000000|-||-|-|-|-|-|-|-', 77);
  assert.equal(typeof e, 'object');
  const entry = e as LogEntry;
  assert.equal(entry.cacheStatus, '-', "'-' is a real cache status (no cache interaction)");
  assert.equal(entry.bytesSent, 0);
  assert.equal(entry.pullZoneId, 77);
  for (const k of ['remoteIp', 'referer', 'url', 'host', 'path', 'scheme', 'edgeLocation', 'userAgent', 'requestId', 'countryCode'] as const) {
    assert.equal(entry[k], null, k);
  }
  assert.equal(typeof parseV1Line('-|204|1700000000000|-||-|-|-|-|-|-|-'), 'string', 'no zone to fall back on');
});

test('v1 parser: pipes inside the user agent and the URL', () => {
  const line = 'HIT|200|1700000000000|10|5|::1|https://ref/|a|https://h.example/p?q=a|b|c|NY|Mozilla|WA|5.0 (X|Y)|0123456789abcdef0123456789abcdef|US';
  const e = parseV1Line(line) as LogEntry;
  assert.equal(e.referer, 'https://ref/|a');
  assert.equal(e.url, 'https://h.example/p?q=a|b|c');
  assert.equal(e.path, '/p?q=a|b|c');
  assert.equal(e.edgeLocation, 'NY');
  assert.equal(e.userAgent, 'Mozilla|WA|5.0 (X|Y)', 'an edge-like piece inside the user agent stays in it');
  assert.equal(e.requestId, '0123456789abcdef0123456789abcdef');
});

test('MM-dd-yy dates', () => {
  assert.equal(v1Date(Date.UTC(2024, 2, 13, 23, 59)), '03-13-24');
  assert.equal(parseV1Date('03-13-24'), Date.UTC(2024, 2, 13));
  for (const bad of ['13-01-24', '02-30-24', '3-13-24', '2024-03-13', '']) assert.ok(Number.isNaN(parseV1Date(bad)), bad);
});
