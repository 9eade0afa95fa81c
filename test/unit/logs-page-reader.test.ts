import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LogPageReader, type ReadPage } from '../../src/log-engine/page-reader';
import { parseTimestamp, readLogEntry, type LogEntry } from '../../src/api/logs/entry';
import { until } from '../helpers/wait';
import { logEntry } from '../helpers/log-entry';
import { NUMERIC_FIELDS, PAGE_FIELDS, pageNumber, type PageField } from '../helpers/page-fields';

// The page reader must give exactly what JSON.parse + readLogEntry give, whatever the layout of
// the body: the platform's compact layout (the fast path), other key orders, extra fields,
// whitespace, escapes, wrong types, and bodies that are not JSON at all.

/** What the reader must return: JSON.parse, then readLogEntry and a readable timestamp per element. */
function reference(text: string): { entries: LogEntry[]; times: number[]; skipped: number; envelope: unknown; hasData: boolean } {
  const json = JSON.parse(text) as unknown;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Array.isArray((json as { data?: unknown }).data)) {
    return { entries: [], times: [], skipped: 0, envelope: json, hasData: false };
  }
  const { data, ...envelope } = json as { data: unknown[] };
  const entries: LogEntry[] = [];
  const times: number[] = [];
  let skipped = 0;
  for (const item of data) {
    const e = readLogEntry(item);
    const t = e ? parseTimestamp(e.timestamp) : Number.NaN;
    if (!e || Number.isNaN(t)) skipped++;
    else {
      entries.push(e);
      times.push(t);
    }
  }
  return { entries, times, skipped, envelope, hasData: true };
}

/** What a read page says, as plain data: its records as objects (built from its batch), their times, the rest. */
function plain(page: ReadPage): { entries: LogEntry[]; times: number[]; skipped: number; envelope: unknown; hasData: boolean } {
  return { entries: page.entries, times: Array.from(page.times), skipped: page.skipped, envelope: page.envelope, hasData: page.hasData };
}

const text = fc.oneof(
  fc.constantFrom('HIT', 'MISS', '-', 'DE', 'https', 'shop.example.com', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', ''),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('quote " inside', 'back\\slash', 'line\nbreak', 'tab\there', '\u001b[31mred', 'emoji 🐇', 'nul \u0000'),
);
const timestamp = fc.oneof(
  fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 11, 31) }).map((t) => new Date(t).toISOString()),
  fc.constantFrom('2026-08-08T14:32:11Z', '2026-08-08T14:32:11.265+02:00', 'not a date', '2026-13-40T99:99:99.999Z', '2026-08-08T14:32:61.000Z'),
);

/** A record: usually a LogEntry, sometimes with a wrong type, a missing or extra field, or not an object. */
const record = fc
  .record({
    values: fc.record(
      Object.fromEntries(PAGE_FIELDS.map((f) => [f, f === 'timestamp' ? timestamp : NUMERIC_FIELDS.has(f) ? pageNumber : text])) as Record<
        PageField,
        fc.Arbitrary<string | number>
      >,
    ),
    nulls: fc.array(fc.constantFrom(...PAGE_FIELDS), { maxLength: 4 }),
    missing: fc.array(fc.constantFrom(...PAGE_FIELDS), { maxLength: 2 }),
    wrongType: fc.option(fc.constantFrom(...PAGE_FIELDS), { freq: 8 }),
    extra: fc.option(fc.record({ name: fc.constantFrom('newField', 'region', 'timestamp'), value: fc.jsonValue({ maxDepth: 2 }) }), { freq: 8 }),
    shuffle: fc.option(fc.integer({ min: 1, max: 20 }), { freq: 6 }),
  })
  .map(({ values, nulls, missing, wrongType, extra, shuffle }) => {
    const r: Record<string, unknown> = { ...values };
    for (const f of nulls) r[f] = null;
    for (const f of missing) delete r[f];
    if (wrongType) r[wrongType] = NUMERIC_FIELDS.has(wrongType) ? String(r[wrongType]) : 42;
    let entries = Object.entries(r);
    if (shuffle) entries = [...entries.slice(shuffle), ...entries.slice(0, shuffle)];
    if (extra) entries.push([extra.name, extra.value]);
    return Object.fromEntries(entries) as unknown;
  });
const element = fc.oneof({ weight: 12, arbitrary: record }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

const page = fc.record({
  data: fc.array(element, { maxLength: 25 }),
  order: fc.constantFrom('data-first', 'data-last', 'no-data', 'data-null'),
  indent: fc.constantFrom(undefined, 0, 2),
});

function body(p: { data: unknown[]; order: string; indent: number | undefined }): string {
  const pagination = { offset: 0, limit: 100, returned: p.data.length, hasMore: false };
  const query = { pullZoneId: 7, from: '2026-08-08T12:00:00.000Z', to: '2026-08-08T13:00:00.000Z', order: 'asc' };
  const obj =
    p.order === 'data-first'
      ? { data: p.data, pagination, query }
      : p.order === 'data-last'
        ? { pagination, query, data: p.data }
        : p.order === 'data-null'
          ? { data: null, pagination }
          : { pagination, query };
  return JSON.stringify(obj, null, p.indent);
}

test('page reader = JSON.parse + readLogEntry on random pages, whatever their layout', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  fc.assert(
    fc.property(fc.array(page, { minLength: 1, maxLength: 4 }), (pages) => {
      // several pages through one reader: the dictionaries grow across them
      for (const p of pages) {
        const t = body(p);
        assert.deepEqual(plain(reader.readSync(t)), reference(t));
        assert.deepEqual(plain(reader.readSync(Buffer.from(t))), reference(t), 'the same from bytes');
      }
    }),
    { numRuns: 300 },
  );
});

test('platform-layout records read on the fast path equal the reference, across pages and a full dictionary', async () => {
  const { CODEC_FIELDS, createPageEncoder, PageDecoder } = await import('../../src/log-engine/page-codec');
  // a dictionary of 3 values per field fills at once: the rest travels in the joined string
  const encoder = createPageEncoder(CODEC_FIELDS, 3);
  const decoder = new PageDecoder();
  const agents = [
    'curl/8.5.0',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/138.0.0.0 Safari/537.36',
    'Go-http-client/1.1',
    'Wget/1.21',
    'python-requests/2.32',
  ];
  for (let p = 0; p < 6; p++) {
    const data = Array.from({ length: 50 }, (_, i) =>
      logEntry({
        timestamp: new Date(Date.UTC(2026, 7, 8, 12, p, i % 60, i * 7)).toISOString(),
        pullZoneId: 1058,
        requestId: `${p}`.padStart(2, '0') + `${i}`.padStart(30, '0'),
        cacheStatus: ['HIT', 'MISS', 'BYPASS', 'STALE'][i % 4]!,
        statusCode: [200, 404, 503][i % 3]!,
        bytesSent: i * 1000,
        remoteIp: `10.0.${p}.${i}`,
        countryCode: ['DE', 'FR', 'US', 'JP', 'BR'][i % 5]!,
        edgeLocation: 'DE',
        scheme: i % 2 ? 'https' : 'http',
        host: 'shop.example.com',
        path: `/p/${i}?q=${p}`,
        url: `https://shop.example.com/p/${i}?q=${p}`,
        userAgent: i % 7 ? agents[i % agents.length]! : null,
        bodyBytesSent: i % 3 ? null : i,
        ja4Fingerprint: 't13d1516h2_8daaf6152771_02713d6af862',
        asn: i % 2 ? 3320 : null,
        asnOrganization: 'Deutsche Telekom AG',
      }),
    );
    // a required field null: not a LogEntry, left out on the fast path too
    const required = ['timestamp', 'pullZoneId', 'statusCode', 'bytesSent'];
    Object.assign(data[10 + p]!, { [required[p % required.length]!]: null });
    const t = JSON.stringify({ data, pagination: { offset: 0, limit: 50, returned: 50, hasMore: true } });
    const enc = encoder.encode(t);
    const batch = decoder.decode(enc);
    const want = reference(t);
    assert.deepEqual(batch.entries(), want.entries);
    assert.deepEqual(Array.from(batch.times), want.times);
    assert.equal(enc.skipped, 1);
    assert.equal(want.skipped, 1);
    if (p === 0) assert.ok(enc.joined.join('').includes('python-requests/2.32'), 'values beyond the dictionary limit travel in the joined string');
    else assert.ok(!enc.joined.join('').includes('Go-http-client/1.1'), 'values in the dictionary do not travel again');
  }
});

test('a page of more than one chunk (256 records) decodes the same, values cut at the right places', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const data = Array.from({ length: 700 }, (_, i) => ({
    timestamp: new Date(Date.UTC(2026, 7, 8, 12, 0, 0, i)).toISOString(),
    pullZoneId: 7,
    requestId: `${i}`.padStart(32, 'a'),
    cacheStatus: 'HIT',
    statusCode: 200 + (i % 5),
    bytesSent: i * 3,
    remoteIp: `10.1.${i >> 8}.${i & 255}`,
    path: `/p/${'x'.repeat(i % 17)}${i}`,
    url: i % 3 ? null : `https://h/${i}`,
  }));
  const t = JSON.stringify({ data, pagination: { offset: 0, limit: 700, returned: 700, hasMore: false } });
  assert.deepEqual(plain(reader.readSync(t)), reference(t));
});

test('bodies that are not JSON are refused as JSON.parse refuses them', () => {
  const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const good = body({
    data: [{ timestamp: '2026-08-08T12:00:00.000Z', pullZoneId: 1, statusCode: 200, bytesSent: 1 }],
    order: 'data-first',
    indent: undefined,
  });
  const bad = [
    '{"data": [{"truncated": tr', // the emulator's malformed fault
    '<html><body>502 Bad Gateway</body></html>',
    '',
    good.slice(0, -1),
    `${good} trailing`,
    good.replace('"timestamp":"', '"timestamp":"raw\ncontrol '), // a raw control character inside a string
    good.replace('"pullZoneId":1', '"pullZoneId":01'),
  ];
  for (const t of bad) {
    assert.throws(() => JSON.parse(t), SyntaxError);
    assert.throws(() => reader.readSync(t), SyntaxError, JSON.stringify(t.slice(0, 60)));
  }
});

test('the worker thread gives the same pages, in order, and a closed reader reads on the calling thread', async () => {
  const threaded = new LogPageReader({ workerThreshold: 0 });
  const local = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const pages = fc.sample(page, { numRuns: 40, seed: 7 }).map(body);
  const notJson = '{"data":[{"timestamp":';
  try {
    const results = await Promise.all(
      [...pages, notJson].map((t, i) =>
        threaded.read(i % 2 ? Buffer.from(t) : t).then(
          (r) => ({ ok: r }),
          (e: unknown) => ({ err: e }),
        ),
      ),
    );
    for (let i = 0; i < pages.length; i++) assert.deepEqual(plain((results[i] as { ok: ReadPage }).ok), plain(local.readSync(pages[i]!)));
    const last = results[pages.length] as { err?: unknown };
    assert.ok(last.err instanceof SyntaxError, 'a body that is not JSON rejects with a SyntaxError');
    assert.ok(threaded.workerBusyMs > 0, 'the worker did the reading');
  } finally {
    await threaded.close();
  }
  assert.deepEqual(plain(await threaded.read(pages[0]!)), plain(local.readSync(pages[0]!)));
});

test('an idle worker thread stops, and the next big page starts a new one (fresh dictionaries, same records)', async () => {
  const reader = new LogPageReader({ workerThreshold: 0, workerIdleMs: 50 });
  const local = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const pages = fc.sample(page, { numRuns: 6, seed: 11 }).map(body);
  try {
    for (const t of pages.slice(0, 3)) assert.deepEqual(plain(await reader.read(t)), plain(local.readSync(t)));
    assert.equal(reader.workerRunning, true);
    await until('the idle worker to stop', () => !reader.workerRunning, 5000);
    for (const t of pages.slice(3)) assert.deepEqual(plain(await reader.read(t)), plain(local.readSync(t)));
    assert.equal(reader.workerRunning, true, 'a new worker for the next pages');
  } finally {
    await reader.close();
  }
});
