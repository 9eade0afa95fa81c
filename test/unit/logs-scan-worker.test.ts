import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import { LogBuffer } from '../../src/log-engine/buffer';
import { columnTest, compilePattern, MatchIndex, recordTest } from '../../src/log-records/filter';
import { mayMatchWithin, ScanWorker, spanOnly } from '../../src/log-records/scan-worker';
import { MatchScan } from '../../src/state/logs/match-scan';
import { until } from '../helpers/wait';

const BASE = Date.UTC(2026, 7, 8, 12);
const hexId = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex'));
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('HIT', 'MISS', 'DE', 'US', 'curl/8.0', 'Mozilla/5.0 (X11)', 'ünïcødé ✓', 'a|b', ''));
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });

/** Records in every form the store (and so the worker) treats differently: most common, some rare. */
const arbEntry = (spanMs: number, offset: number) =>
  fc
    .record({
      dt: fc.integer({ min: 0, max: spanMs }),
      odd: fc.constantFrom('iso', 'iso', 'iso', 'iso', 'iso', 'iso', 'iso', 'iso', 'iso', 'noMillis'),
      requestId: fc.oneof(hexId, hexId, hexId, hexId, hexId, hexId, fc.constant(null), fc.constant('not-hex')),
      cacheStatus: nullable(fc.constantFrom('HIT', 'MISS', 'BYPASS', '-')),
      statusCode: fc.oneof(fc.constantFrom(200, 206, 304, 404, 500, 503), fc.constantFrom(200, 70_000)),
      remoteIp: nullable(fc.oneof(fc.ipV4(), fc.ipV4(), fc.ipV4(), fc.constantFrom('::1', '2001:db8::1', 'not an ip'))),
      countryCode: nullable(fc.constantFrom('DE', 'US', 'FR')),
      edgeLocation: nullable(text),
      host: nullable(fc.constantFrom('a.example', 'b.example', 'ünï.example')),
      path: nullable(
        fc.oneof(
          text.map((s) => `/${s}`),
          fc.constantFrom('/wp-login.php', '/index.php?x=1', '/a/b.css'),
        ),
      ),
      urlForm: fc.constantFrom('built', 'built', 'built', 'built', 'other', 'null'),
      userAgent: nullable(text),
      referer: nullable(text),
    })
    .map(({ dt, odd, urlForm, ...r }): LogEntry => {
      const t = BASE + offset + dt;
      const iso = new Date(t).toISOString();
      const timestamp = odd === 'iso' ? iso : iso.replace(/\.\d{3}Z$/, 'Z');
      const scheme = 'https';
      const url =
        urlForm === 'null'
          ? null
          : urlForm === 'built' && r.host && r.path !== null
            ? `${scheme}://${r.host}${r.path}`
            : `https://elsewhere.example${r.path ?? '/'}`;
      return {
        timestamp,
        pullZoneId: 1,
        bytesSent: 1,
        scheme,
        url,
        bodyBytesSent: null,
        contentRange: null,
        authorizationHeader: null,
        ja4Fingerprint: null,
        asn: null,
        asnOrganization: null,
        ...r,
      };
    });

function records(n: number, seed: number, spanMs = 600_000, offset = 0): LogEntry[] {
  return fc.sample(arbEntry(spanMs, offset), { numRuns: n, seed });
}

function pattern(source: string) {
  const p = compilePattern(source);
  assert.ok(p.ok, source);
  return p;
}

/** A buffer with its index kept current as the view model keeps it. */
function setUp(capacity: number, initial: LogEntry[], source: string, start: number | null) {
  const buffer = new LogBuffer(capacity);
  for (let i = 0; i < initial.length; i += 5000) buffer.insert(initial.slice(i, i + 5000));
  const p = pattern(source);
  const index = new MatchIndex(columnTest(p, buffer.columns));
  buffer.onEvicted((slot, t) => index.remove(buffer.columns.seq(slot), t));
  buffer.onAdded((slots) => index.add(slots, buffer.columns));
  const scan = new MatchScan(buffer, index, start);
  return { buffer, index, scan, p };
}

/** The matches a plain array of the held records gives (sequence numbers, in order). */
function reference(buffer: LogBuffer, source: string): number[] {
  const t = recordTest(pattern(source));
  return buffer.toArray().flatMap((e, i) => (t(e) ? [buffer.seqAt(i)] : []));
}

const held = (index: MatchIndex) => Array.from({ length: index.length }, (_, i) => index.seq(i));

const worker = [new ScanWorker(60_000), new ScanWorker(60_000)];
after(() => Promise.all(worker.map((w) => w.close())));

/** Small stretches: a few thousand records make several of them. */
const STRETCH = 2048;

// the last ones cross fields (a path then a country; a status then a cache status)
const PATTERNS = ['^5', 'wp-login|\\.php', 'HIT|de', '1\\.2', '12:0[3-5]', '[0-9a-f]{3}ff', 'ünï', 'not', 'php.*(DE|FR)', '^5\\d\\d MISS'];

test('the worker scan (two threads) over shared columns finds the same matches as a plain-array reference, for any pattern and start (rare field forms tested here)', async () => {
  const initial = records(14_000, 1);
  for (const [k, source] of PATTERNS.entries()) {
    const start = k % 3 === 0 ? null : BASE + ((k * 61_000) % 600_000);
    const { buffer, index, scan, p } = setUp(30_000, initial, source, start);
    let progress = 0;
    scan.runInWorker(worker, buffer, p.test, 4, () => progress++, STRETCH);
    await until(`the scan of /${source}/ done`, () => scan.done);
    assert.ok(progress >= 2, `the scan reported as stretches came in (${progress} times)`);
    assert.ok(scan.workerBusyMs > 0, 'the worker threads did the scanning');
    assert.deepEqual(held(index), reference(buffer, source), `/${source}/ from ${start}`);
  }
});

test('records evicted and records arriving (newer and late) while the worker scans: the end equals a scan of what is held', async () => {
  for (const [k, source] of ['^5', 'wp-login|\\.php', 'HIT|de', '[0-9a-f]{3}ff'].entries()) {
    const initial = records(20_000, 10 + k);
    const { buffer, index, scan, p } = setUp(16_000, initial, source, k % 2 ? null : BASE + 300_000);
    const newer = records(4_000, 20 + k, 60_000, 600_001);
    const late = records(1_000, 30 + k);
    let step = 0;
    scan.runInWorker(
      worker,
      buffer,
      p.test,
      4,
      () => {
        // between stretches: the oldest go (their slots are reused by new records) and late ones land in place
        step++;
        if (step === 1) buffer.insert(newer.slice(0, 2_000));
        if (step === 2) buffer.insert(late);
        if (step === 3) buffer.insert(newer.slice(2_000));
      },
      STRETCH,
    );
    await until(`the scan of /${source}/ done`, () => scan.done);
    assert.ok(step >= 3, 'records came while the scan ran');
    assert.ok(buffer.dropped > 0, 'records were evicted while the scan ran');
    assert.deepEqual(held(index), reference(buffer, source), `/${source}/`);
  }
});

test('a cancelled scan stops changing its index; the next pattern scans from scratch and is right', async () => {
  const initial = records(20_000, 40);
  const first = setUp(30_000, initial, 'ab', null);
  let afterCancel = 0;
  let cancelled = false;
  let versionAtCancel = -1;
  first.scan.runInWorker(
    worker,
    first.buffer,
    first.p.test,
    4,
    () => {
      if (cancelled) {
        afterCancel++;
        return;
      }
      cancelled = true;
      first.scan.cancel();
      versionAtCancel = first.index.version;
    },
    STRETCH,
  );
  await until('the first stretch', () => cancelled);
  const second = setUp(30_000, initial, 'HIT|de', BASE + 1000);
  second.scan.runInWorker(worker, second.buffer, second.p.test, 4, () => undefined, STRETCH);
  await until('the second scan done', () => second.scan.done);
  assert.equal(afterCancel, 0, 'no stretch of the cancelled scan came in after the cancel');
  assert.equal(first.index.version, versionAtCancel, 'the cancelled scan left its index alone');
  assert.ok(!first.scan.done, 'the cancelled scan is not done');
  assert.deepEqual(held(second.index), reference(second.buffer, 'HIT|de'));
});

test('which per-record texts a pattern could match at all, and when one run over joined texts is exact', () => {
  const ISO = '0123456789-:.TZ';
  const HEX = '0123456789abcdef';
  // literals with a character no ISO time, hex id or address holds: none of those texts is made
  assert.equal(mayMatchWithin('wp-login|\\.php', true, ISO), false);
  assert.equal(mayMatchWithin('wp-login|\\.php', true, HEX), false);
  assert.equal(mayMatchWithin('curl', true, '0123456789.'), false);
  // one alternative that fits is enough; case folds with the i flag only
  assert.equal(mayMatchWithin('wp-login|12:0', true, ISO), true);
  assert.equal(mayMatchWithin('t1', true, ISO), true);
  assert.equal(mayMatchWithin('t1', false, ISO), false);
  assert.equal(mayMatchWithin('BEEF', true, HEX), true);
  assert.equal(mayMatchWithin('BEEF', false, HEX), false);
  // anything but literals may match
  for (const source of ['5\\d\\d', '[x]', 'a.b', 'x+', '(?:q)', 'a|', '\\w']) assert.equal(mayMatchWithin(source, true, ISO), true, source);
  // and the decision holds against a real test on every text of the alphabet's kind
  for (const source of ['wp-login|\\.php', 'not', 'curl|x', 'T1', 'beef|zz']) {
    const re = new RegExp(source, 'i');
    const samples = ['2026-08-08T12:00:31.123Z', 'deadbeef00112233445566778899aabb', '10.0.0.1'];
    for (const text of samples) if (re.test(text)) assert.ok(mayMatchWithin(source, true, text), `${source} matches ${text}`);
  }
  assert.equal(spanOnly('wp-login|\\.php'), true);
  for (const source of ['^a', 'a$', '\\bx', '\\Bx', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '[^a]']) assert.equal(spanOnly(source), false, source);
});

test("the worker matches in linear time too: a catastrophic pattern over hostile user agents ends, with the reference's matches", async () => {
  // JavaScript's RegExp takes about 2^40 steps for /(a+)+$/ on each of these user agents
  const hostile = records(3_000, 99).map((e, i) => ({ ...e, userAgent: i % 3 ? `${'a'.repeat(40)}b${i}` : `${'a'.repeat(40)}` }));
  const { buffer, index, scan, p } = setUp(4_000, hostile, '(a+)+$', null);
  scan.runInWorker(worker, buffer, p.test, 4, () => undefined, STRETCH);
  await until('the scan of /(a+)+$/ done', () => scan.done, 60_000);
  assert.ok(scan.workerBusyMs > 0, 'the worker threads did the scanning');
  assert.deepEqual(held(index), reference(buffer, '(a+)+$'));
  assert.ok(held(index).length >= 900, `the user agents of a alone match: ${held(index).length} of ${buffer.length}`);
});
