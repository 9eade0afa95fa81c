import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CODEC_FIELDS, createPageEncoder, IPV6_CODE, PageDecoder, type EncodedPage } from '../../src/log-engine/page-codec';
import { createByteRecordReader } from '../../src/log-engine/page-bytes';
import { parseTimestamp, readLogEntry } from '../../src/api/logs/entry';
import { logEntry } from '../helpers/log-entry';
import { NUMERIC_FIELDS, PAGE_FIELDS, pageNumber, type PageField } from '../helpers/page-fields';

// Reading a page from its bytes (records in the platform's layout read without a string per value)
// must give exactly the columns that reading its text gives: the same numbers, times, ids, codes,
// joined strings, new dictionary values and envelope, page after page (the dictionaries grow), for
// platform pages and for hostile ones (escapes, unicode, invalid UTF-8, nulls, missing, extra and
// reordered fields, odd numbers, duplicate ids, cut or damaged bytes).

const odd = fc.constantFrom('quote " inside', 'back\\slash', 'line\nbreak', '\u001b[31mred', 'emoji 🐇', 'nul \u0000', 'é', '\u007f', '\ufeffbom', '');
const pool: Record<string, fc.Arbitrary<string>> = {
  requestId: fc.oneof(
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex')),
    fc.constantFrom('ABCDEF0123456789abcdef0123456789', 'req-1', '0123456789abcdef0123456789abcdeg', '0123456789abcdef0123456789abcde'),
  ),
  cacheStatus: fc.constantFrom('HIT', 'MISS', 'BYPASS', 'STALE'),
  remoteIp: fc.oneof(
    fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.')),
    fc.ipV6(),
    fc.constantFrom('2001:db8::1', '::', '::1', '1::', 'fe80::1:0:0:1', '2001:db8:0:0:1::1', '2001:DB8::1', '1:2:3:4:5:6:7:8', '1:0:0:0:0:0:0:8'),
    fc.constantFrom('01.2.3.4', '1.2.3', '256.1.1.1', '1.2.3.4.5', '1..2.3', ''),
    // IPv6 in canonical form and not: leading zeros, upper case, one zero group compressed, the
    // wrong run compressed, IPv4-mapped, and not addresses at all
    fc.constantFrom(
      '2001:0db8::1',
      '0:0:0:0:0:0:0:1',
      '2001:db8::01',
      '2001:Db8::1',
      'FE80::1',
      '::FFFF:1.2.3.4',
      '::ffff:1.2.3.4',
      '::ffff:102:304',
      '1:0:2:3:4:5:6:7',
      '1::2:3:4:5:6:7',
      '1:0:0:2:0:0:3:4',
      '1::2:0:0:3:4',
      '1:0:0:2::3:4',
      '1::2:0:0:0:3',
      '1:0:0:2::3',
      '::2:3:4:5:6:7:8',
      '0:2:3:4:5:6:7:8',
      '1:2:3:4:5:6::',
      '1:2:3:4:5:6:0:0',
      '1:2:3:4:5:6:7::',
      '::1:2:3:4:5:6:7',
      ':::',
      '1:::2',
      '1:2',
      '12345::',
      ':1::',
      '1::2::3',
      'g::1',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7:8:',
      ':1:2:3:4:5:6:7:8',
      'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      '0000::',
      '::0',
      '::',
      '::1',
      '1::',
    ),
  ),
  countryCode: fc.constantFrom('DE', 'FR', 'US', 'JP'),
  edgeLocation: fc.constantFrom('FRA', 'NYC', 'TYO'),
  scheme: fc.constantFrom('https', 'http'),
  host: fc.constantFrom('shop.example.com', 'api.example.com'),
  path: fc.oneof(
    fc.constantFrom('/', '/cart', '/p/1?q=2'),
    fc.integer({ min: 0, max: 50 }).map((i) => `/p/${i}`),
  ),
  userAgent: fc.constantFrom('curl/8.5.0', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', 'Go-http-client/1.1', 'x'.repeat(300)),
  referer: fc.constantFrom('https://example.com/', '-'),
  contentRange: fc.constantFrom('bytes 0-99/1000'),
  authorizationHeader: fc.constantFrom('Bearer abc'),
  ja4Fingerprint: fc.constantFrom('t13d1516h2_8daaf6152771_02713d6af862'),
  asnOrganization: fc.constantFrom('Deutsche Telekom AG', 'Hetzner Online GmbH'),
};
const timestamp = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 0, 1, 0, 3) }).map((t) => new Date(t).toISOString()) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('2026-08-08T14:32:11Z', '2026-02-31T10:00:00.000Z', '2026-13-40T99:99:99.999Z', 'not a date', '+012026-01-01T00:00:00.000Z'),
  },
);

/** A record in the platform's layout, sometimes with nulls, other forms, or the shape changed. */
const record = fc
  .record({
    values: fc.record(
      Object.fromEntries(
        PAGE_FIELDS.map((f) => [
          f,
          f === 'timestamp'
            ? timestamp
            : NUMERIC_FIELDS.has(f)
              ? pageNumber
              : fc.oneof({ weight: 8, arbitrary: pool[f] ?? fc.constant('x') }, { weight: 1, arbitrary: odd }),
        ]),
      ) as Record<PageField, fc.Arbitrary<string | number>>,
    ),
    nulls: fc.array(fc.constantFrom(...PAGE_FIELDS), { maxLength: 3 }),
    url: fc.constantFrom('built', 'built', 'other', 'prefix'),
    shape: fc.option(fc.constantFrom('missing', 'extra', 'reordered', 'wrongType', 'spaced'), { freq: 6 }),
  })
  .map(({ values, nulls, url, shape }) => {
    const r: Record<string, unknown> = { ...values };
    r.url =
      url === 'built'
        ? `${String(r.scheme)}://${String(r.host)}${String(r.path)}`
        : url === 'prefix'
          ? `${String(r.scheme)}://${String(r.host)}`
          : 'https://elsewhere/x';
    for (const f of nulls) r[f] = null;
    let text = JSON.stringify(r);
    if (shape === 'missing') text = JSON.stringify({ ...r, host: undefined });
    else if (shape === 'extra') text = JSON.stringify({ ...r, region: 'eu' });
    else if (shape === 'reordered') text = JSON.stringify(Object.fromEntries(Object.entries(r).reverse()));
    else if (shape === 'wrongType') text = JSON.stringify({ ...r, statusCode: String(r.statusCode) });
    else if (shape === 'spaced') text = JSON.stringify(r, null, 1);
    return text;
  });

const element = fc.oneof({ weight: 14, arbitrary: record }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null') });

/** Byte damage: most pages have none. */
const damage = fc.array(
  fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    kind: fc.constantFrom('flip', 'insert', 'delete'),
    byte: fc.constantFrom(0xff, 0xc3, 0xe2, 0x80, 0x5c, 0x22, 0x20, 0x00, 0x7d, 0x2c, 0x31),
  }),
  { maxLength: 2 },
);

const page = fc.record({
  elements: fc.array(element, { maxLength: 30 }),
  duplicate: fc.boolean(),
  order: fc.constantFrom('data-first', 'data-last', 'no-data', 'data-twice'),
  bom: fc.boolean(),
  damage: fc.oneof({ weight: 4, arbitrary: fc.constant<{ at: number; kind: string; byte: number }[]>([]) }, { weight: 1, arbitrary: damage }),
});

function bytesOf(p: {
  elements: string[];
  duplicate: boolean;
  order: string;
  bom: boolean;
  damage: readonly { at: number; kind: string; byte: number }[];
}): Uint8Array {
  const elements = p.duplicate && p.elements.length > 0 ? [...p.elements, p.elements[0]!] : p.elements;
  const data = `[${elements.join(',')}]`;
  const pagination = '"pagination":{"offset":0,"limit":100,"hasMore":false}';
  const text =
    p.order === 'data-first'
      ? `{"data":${data},${pagination}}`
      : p.order === 'data-last'
        ? `{${pagination},"data":${data}}`
        : p.order === 'data-twice'
          ? `{"data":${data},"data":[]}`
          : `{${pagination}}`;
  const bytes = [...(p.bom ? [0xef, 0xbb, 0xbf] : []), ...Buffer.from(text)];
  for (const d of p.damage) {
    const i = Math.floor(d.at * bytes.length);
    if (d.kind === 'flip' && i < bytes.length) bytes[i] = d.byte;
    else if (d.kind === 'insert') bytes.splice(i, 0, d.byte);
    else bytes.splice(i, 1);
  }
  return Uint8Array.from(bytes);
}

function same(a: EncodedPage, b: EncodedPage, what: string): void {
  assert.deepEqual(a, b, what);
}

for (const limit of [20_000, 3]) {
  test(`pages read from their bytes equal the same pages read from their text (dictionary limit ${limit})`, () => {
    const whole = new TextDecoder();
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 5 }), (pages) => {
        // one pair of encoders for the pages in order: their dictionaries grow the same way
        const fromBytes = createPageEncoder(CODEC_FIELDS, limit, createByteRecordReader);
        const fromText = createPageEncoder(CODEC_FIELDS, limit);
        for (const p of pages) {
          const bytes = bytesOf(p);
          const text = whole.decode(bytes);
          same(fromBytes.encodeBytes(bytes), fromText.encode(text), JSON.stringify(text.slice(0, 200)));
        }
      }),
      { numRuns: 400 },
    );
  });
}

test('platform pages are read on the byte path (few strings made) and decode to what JSON.parse + readLogEntry give', () => {
  const data = Array.from({ length: 600 }, (_, i) =>
    logEntry({
      timestamp: new Date(Date.UTC(2026, 7, 8, 12, 0, 0, i * 211)).toISOString(),
      pullZoneId: 1058,
      requestId: i.toString(16).padStart(32, '0'),
      cacheStatus: ['HIT', 'MISS'][i % 2]!,
      statusCode: [200, 404, 503][i % 3]!,
      bytesSent: i * 1000,
      remoteIp: `10.0.${i >> 8}.${i & 255}`,
      countryCode: 'DE',
      edgeLocation: 'FRA',
      scheme: 'https',
      host: 'shop.example.com',
      path: `/p/${i % 40}`,
      url: `https://shop.example.com/p/${i % 40}`,
      userAgent: 'curl/8.5.0',
      bodyBytesSent: i % 3 ? null : i,
      ja4Fingerprint: 't13d1516h2_8daaf6152771_02713d6af862',
      asn: 3320,
      asnOrganization: 'Deutsche Telekom AG',
    }),
  );
  const text = JSON.stringify({ data, pagination: { offset: 0, limit: 600, hasMore: true } });
  let scanned = 0;
  const counting = () => {
    const r = createByteRecordReader(CODEC_FIELDS);
    return {
      ...r,
      scan: (b: Uint8Array, p: number) => {
        const end = r.scan(b, p);
        if (end >= 0) scanned++;
        return end;
      },
    };
  };
  const encoder = createPageEncoder(CODEC_FIELDS, undefined, counting);
  const decoder = new PageDecoder();
  const first = encoder.encodeBytes(Buffer.from(text));
  const again = encoder.encodeBytes(Buffer.from(text));
  const batch = decoder.decode(first);
  decoder.decode(again);
  const want = data.map((d) => readLogEntry(d));
  assert.deepEqual(batch.entries(), want);
  assert.deepEqual(
    Array.from(batch.times),
    data.map((d) => parseTimestamp(d.timestamp)),
  );
  assert.deepEqual(first.envelope, { pagination: { offset: 0, limit: 600, hasMore: true } });
  assert.equal(first.joined.join(''), '', 'every value in a column or a dictionary');
  assert.equal(again.newValues.length, 0, 'a page of known values adds no dictionary value');
  assert.equal(scanned, 1200, 'every record read from the bytes');
});

test('two values whose bytes hash the same keep their own dictionary ids', () => {
  // find two paths with the same hash (as the reader computes it: a record scanned, its hashes read)
  const reader = createByteRecordReader(CODEC_FIELDS);
  const base = logEntry({ timestamp: '2026-08-08T12:00:00.000Z', cacheStatus: 'HIT', bytesSent: 1, path: '' });
  const hashOf = (path: string): number => {
    const bytes = Buffer.from(JSON.stringify({ ...base, path }));
    assert.equal(reader.scan(bytes, 0), bytes.length);
    return reader.hashes[11]!;
  };
  // The reader hashes a value word by word (FNV-1a on 32-bit words): for two 8-byte values the
  // hash is mix(mix(basis ^ w1) ^ w2); pick w1, w2, w1' and solve for w2' (checked below).
  const mix = (h: number): number => Math.imul(h, 16777619);
  const basis = -2128831035;
  const word = (text: string): number => Buffer.from(text, 'latin1').readInt32LE(0);
  const textOf = (w: number): string => {
    const b = Buffer.alloc(4);
    b.writeInt32LE(w);
    return b.toString('latin1');
  };
  const printable = (t: string): boolean => [...t].every((ch) => ch >= ' ' && ch <= '~' && ch !== '"' && ch !== '\\');
  const first = '/abc/xyz';
  const target = mix(basis ^ word(first.slice(0, 4))) ^ word(first.slice(4));
  let pair: [string, string] | null = null;
  for (let i = 0; pair === null && i < 100_000; i++) {
    const w1 = `/${(1000 + i).toString(36).padStart(3, '0').slice(-3)}`;
    const w2 = textOf(target ^ mix(basis ^ word(w1)));
    if (w1 !== first.slice(0, 4) && printable(w2)) pair = [first, w1 + w2];
  }
  assert.ok(pair, 'a colliding pair exists among the paths tried');
  assert.equal(hashOf(pair[0]), hashOf(pair[1]), 'the reader hashes both the same');
  const encoder = createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader);
  const decoder = new PageDecoder();
  const data = [pair[0], pair[1], pair[1], pair[0]].map((path) => ({ ...base, path }));
  const batch = decoder.decode(encoder.encodeBytes(Buffer.from(JSON.stringify({ data }))));
  assert.deepEqual(
    batch.entries().map((e) => e.path),
    [pair[0], pair[1], pair[1], pair[0]],
  );
});

test('hostile bodies never throw from the byte path: a syntax error says what JSON.parse says', () => {
  const encoder = createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader);
  const good = '{"data":[{"timestamp":"2026-08-08T12:00:00.000Z","pullZoneId":1,"requestId":null,"cacheStatus":"HIT","statusCode":200,"bytesSent":1}]}';
  const bodies = [
    good.slice(0, 40),
    good.slice(0, -2),
    `${good}x`,
    '\u00ff{',
    '{"data":[{"timestamp":"\u0000"}]}',
    '',
    '[]',
    'null',
    '{"data":[' + '['.repeat(10000),
  ];
  for (const t of bodies) {
    const bytes = Buffer.from(t, 'latin1');
    let message: string | undefined;
    try {
      JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      message = (error as Error).message;
    }
    const page = encoder.encodeBytes(bytes);
    assert.equal(page.syntaxError, message, JSON.stringify(t.slice(0, 40)));
  }
});

test('an IPv6 address read from the bytes is kept as 16 bytes exactly when it is in canonical form', () => {
  const canonical = [
    '2001:db8::1',
    '::',
    '::1',
    '1::',
    'fe80::1:0:0:1',
    '1:0:2:3:4:5:6:7',
    '1::2:0:0:3:4',
    '1:0:0:2::3',
    '0:2:3:4:5:6:7:8',
    '1:2:3:4:5:6::',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '::ffff:102:304',
  ];
  const other = [
    '2001:0db8::1',
    '2001:db8::01',
    '0:0:0:0:0:0:0:1',
    '2001:DB8::1',
    'FE80::1',
    '::ffff:1.2.3.4',
    '1::2:3:4:5:6:7',
    '1:0:0:2:0:0:3:4',
    '1:0:0:2::3:4',
    '1::2:0:0:0:3',
    '1:2:3:4:5:6:0:0',
    '::2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::1:2:3:4:5:6:7',
    ':::',
    '1:::2',
    '1:2',
    '12345::',
    ':1::',
    '1::2::3',
    'g::1',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7:8:',
    ':1:2:3:4:5:6:7:8',
    '0000::',
    '::0',
    '1:2:3:4:5:6:7:8::',
  ];
  const ips = [...canonical, ...other];
  const data = ips.map((remoteIp, i) =>
    logEntry({
      timestamp: new Date(Date.UTC(2026, 7, 8, 12, 0, 0, i)).toISOString(),
      cacheStatus: 'HIT',
      bytesSent: 1,
      remoteIp,
    }),
  );
  const text = JSON.stringify({ data });
  const fromBytes = createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader).encodeBytes(Buffer.from(text));
  same(fromBytes, createPageEncoder(CODEC_FIELDS).encode(text), 'the byte path equals the text path');
  const ipCodes = ips.map((_, i) => fromBytes.codes[i * 16 + 3]);
  assert.deepEqual(
    ipCodes.map((c) => c === IPV6_CODE),
    ips.map((ip) => canonical.includes(ip)),
    'IPv6 code for the canonical forms only',
  );
  assert.deepEqual(
    new PageDecoder()
      .decode(fromBytes)
      .entries()
      .map((e) => e.remoteIp),
    ips,
    'every address reads back as written',
  );
});

test('a dictionary value guessed from its first words is taken only when all its bytes and its end match', () => {
  // values that share the words a guess is keyed on: longer, shorter, different past them or in
  // the last byte, and one that is a known value followed by more
  const long = 'Mozilla/5.0 '.repeat(10);
  const agents = [long, `${long}x`, long.slice(0, -1), `${long.slice(0, -1)}!`, `${long.slice(0, 100)}Z${long.slice(101)}`, long, `${long} (é)`, `${long}\\"q`];
  const paths = ['/img/products/1.jpg', '/img/products/1.jpg?w=1', '/img/products/1.jp', '/img/products/2.jpg', '/img/products/1.jpg'];
  const hosts = ['a.example.com', 'a.example.co', 'a.example.comm', 'a.example.com'];
  const data = agents.flatMap((userAgent, i) =>
    paths.map((path, j) =>
      logEntry({
        timestamp: new Date(Date.UTC(2026, 7, 8, 12, 0, 0, i * 10 + j)).toISOString(),
        cacheStatus: 'HIT',
        bytesSent: 1,
        scheme: 'https',
        host: hosts[(i + j) % hosts.length]!,
        path,
        userAgent,
      }),
    ),
  );
  const text = JSON.stringify({ data });
  const fromBytes = createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader);
  const fromText = createPageEncoder(CODEC_FIELDS);
  const decoder = new PageDecoder();
  for (let round = 0; round < 2; round++) {
    const page = fromBytes.encodeBytes(Buffer.from(text));
    same(page, fromText.encode(text), `round ${round}`);
    const entries = decoder.decode(page).entries();
    assert.deepEqual(
      entries.map((e) => [e.userAgent, e.path, e.host]),
      data.map((d) => [d.userAgent, d.path, d.host]),
      `round ${round}`,
    );
  }
  // a known value followed by a byte where its closing quote should be (the quote lost): not JSON
  const broken = text.replace(`"userAgent":"${long}x","referer"`, `"userAgent":"${long}x,"referer"`);
  assert.notEqual(broken, text);
  assert.equal(fromBytes.encodeBytes(Buffer.from(broken)).syntaxError, fromText.encode(broken).syntaxError);
  assert.ok(fromText.encode(broken).syntaxError);
});
