import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import { columnTest, compilePattern, contextRows, locate, matchRanges, MatchIndex, recordTest, searchFields, SEPARATOR } from '../../src/log-records/filter';
import { LogBuffer } from '../../src/log-engine/buffer';
import { rowSegments, streamLayout } from '../../src/log-records/rows';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12, 0, 0);
let seq = 0;
function rec(over: Partial<LogEntry> & { t?: number } = {}): LogEntry {
  seq++;
  const { t, ...rest } = over;
  return logEntry({
    timestamp: new Date(t ?? BASE).toISOString(),
    requestId: seq.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'a.example',
    path: '/x',
    url: 'https://a.example/x',
    userAgent: 'curl/8.0',
    ...rest,
  });
}

function ok(source: string) {
  const p = compilePattern(source);
  assert.ok(p.ok, `"${source}" compiles`);
  return p;
}

test('invalid and empty-matching patterns are messages, not exceptions', () => {
  for (const bad of ['(', '[a-', 'a{2,1}', '*x', '(?<n>a)(?<n>b)']) {
    const p = compilePattern(bad);
    assert.equal(p.ok, false, bad);
    if (!p.ok) assert.match(p.message, /invalid regular expression/);
  }
  const empty = compilePattern('x*');
  assert.equal(empty.ok, false);
  if (!empty.ok) assert.match(empty.message, /matches an empty text/);
  assert.equal(compilePattern('  ').ok, false);
});

test('smart case: lower-case patterns ignore case, an upper-case letter makes it exact; escapes do not count', () => {
  assert.equal(ok('curl').ignoreCase, true);
  assert.equal(ok('Curl').ignoreCase, false);
  assert.equal(ok('\\S+bot').ignoreCase, true);
  const e = rec({ userAgent: 'CURL/8' });
  assert.equal(recordTest(ok('curl'))(e), true);
  assert.equal(recordTest(ok('Curl'))(e), false);
});

test('a record matches when any field it shows matches; IP, request id and referer count too, the time does not', () => {
  const e = rec({
    statusCode: 503,
    cacheStatus: 'MISS',
    path: '/api/v1/orders?id=7',
    remoteIp: '203.0.113.9',
    referer: 'https://ref.example/',
    countryCode: 'FR',
    edgeLocation: 'PA',
  });
  for (const p of ['^503$', 'miss', 'api/v1/orders\\?id', 'a\\.example/api', '203\\.0\\.113', 'ref\\.example', e.requestId!.slice(-6), '^FR$', '^pa$']) {
    assert.equal(recordTest(ok(p))(e), true, p);
  }
  for (const p of ['^404$', 'bypass', 'nowhere', '^US$', e.timestamp.slice(0, 13)]) assert.equal(recordTest(ok(p))(e), false, p);
  // the record test agrees with trying every search field
  const fields = searchFields(e).filter((f): f is string => f !== null);
  for (const p of ['5\\d\\d', 'xyz', 'https', 'orders'])
    assert.equal(
      recordTest(ok(p))(e),
      fields.some((f) => ok(p).test.test(f)),
      p,
    );
});

test('a pattern is matched against the whole line as shown (path, then country, ...), in the stored columns too', () => {
  const e = rec({ statusCode: 503, cacheStatus: 'MISS', path: '/api/cart/items', countryCode: 'FR', edgeLocation: 'PA', userAgent: 'curl/8' });
  const other = rec({ statusCode: 200, cacheStatus: 'HIT', path: '/api/cart/items', countryCode: 'US', edgeLocation: 'NY' });
  const buffer = new LogBuffer(8);
  buffer.insert([e, other]);
  const stored = (p: string) => [0, 1].map((i) => columnTest(ok(p), buffer.columns)(buffer.slotAt(i)));
  for (const p of ['api/cart.*(DE|FR)', 'cart/items FR PA', '^503 MISS', 'FR.*curl']) {
    assert.equal(recordTest(ok(p))(e), true, p);
    assert.equal(recordTest(ok(p))(other), false, p);
    assert.deepEqual(stored(p), [true, false], p);
  }
  // the order is the line's: the country comes after the path
  assert.equal(recordTest(ok('FR.*api/cart'))(e), false);
  assert.deepEqual(stored('FR.*api/cart'), [false, false]);
  // the ISO time is not part of the line
  assert.equal(recordTest(ok(`${e.timestamp.slice(0, 10)}.*cart`))(e), false);
});

test('a match across fields is marked where the row shows it: the path from the match on, the country up to its end', () => {
  const e = rec({ statusCode: 503, cacheStatus: 'MISS', path: '/api/cart/items', countryCode: 'FR', edgeLocation: 'PA' });
  const marked = (source: string) =>
    rowSegments(e, streamLayout(160, 'short'), { highlight: ok(source).all })
      .filter((s) => s.mark)
      .map((s) => s.text);
  assert.deepEqual(marked('cart.*FR'), ['cart/items', 'FR']);
  assert.deepEqual(marked('MISS a\\.example/api'), ['MISS', '/api']);
  // a match inside one field is marked as before
  assert.deepEqual(marked('cart'), ['cart']);
});

test('match ranges for highlighting: every match, no empty ones, lastIndex left at 0', () => {
  const p = ok('o+');
  assert.deepEqual(matchRanges(p.all, 'foo boo o'), [
    [1, 3],
    [5, 7],
    [8, 9],
  ]);
  assert.equal(p.all.lastIndex, 0);
  assert.deepEqual(matchRanges(ok('z').all, 'abc'), []);
});

test('context rows: grep -C over sorted positions, merged groups, separators between gaps, clipped to the buffer', () => {
  assert.deepEqual([...contextRows([5, 7, 20], 30, 2)], [3, 4, 5, 6, 7, 8, 9, SEPARATOR, 18, 19, 20, 21, 22]);
  assert.deepEqual([...contextRows([0, 29], 30, 1)], [0, 1, SEPARATOR, 28, 29]);
  assert.deepEqual([...contextRows([3, 4], 10, 0)], [3, 4]);
  assert.deepEqual([...contextRows([3, 5], 10, 0)], [3, SEPARATOR, 5]);
  assert.deepEqual([...contextRows([2, 5], 10, 1)], [1, 2, 3, 4, 5, 6]); // touching groups are one
  assert.deepEqual([...contextRows([], 10, 3)], []);
});

test('context rows equal the naive definition (every position within C of a match, gaps marked)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 5 }), fc.array(fc.nat(59)), (total, c, raw) => {
      const matches = [...new Set(raw.filter((p) => p < total))].sort((a, b) => a - b);
      const want: number[] = [];
      let last = -2;
      for (let i = 0; i < total; i++) {
        if (!matches.some((m) => Math.abs(m - i) <= c)) continue;
        if (last >= 0 && i > last + 1) want.push(SEPARATOR);
        want.push(i);
        last = i;
      }
      assert.deepEqual([...contextRows(matches, total, c)], want);
    }),
  );
});

test('MatchIndex kept incrementally (batches, late records, evictions) equals a full scan of the buffer', () => {
  const p = ok('^5|bot');
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 30 }),
      fc.array(
        fc.array(fc.record({ dt: fc.integer({ min: 0, max: 20 }), status: fc.constantFrom(200, 500, 503), ua: fc.constantFrom('bot', 'human') }), {
          maxLength: 15,
        }),
        { maxLength: 10 },
      ),
      (capacity, batches) => {
        const buffer = new LogBuffer(capacity);
        const test = columnTest(p, buffer.columns);
        const index = new MatchIndex(test);
        buffer.onEvicted((slot, t) => index.remove(buffer.columns.seq(slot), t));
        buffer.onAdded((slots) => index.add(slots, buffer.columns));
        for (const b of batches) buffer.insert(b.map((r) => rec({ t: BASE + r.dt * 1000, statusCode: r.status, userAgent: r.ua })));
        const reference = recordTest(p);
        const want = buffer.toArray().flatMap((e, i) => (reference(e) ? [buffer.seqAt(i)] : []));
        const got = Array.from({ length: index.length }, (_, i) => index.seq(i));
        assert.deepEqual(got, want);
        const rebuilt = new MatchIndex(test);
        rebuilt.rebuild(buffer);
        assert.deepEqual(
          Array.from({ length: rebuilt.length }, (_, i) => rebuilt.seq(i)),
          want,
        );
        // every match can be found again in the buffer and in the index
        for (let i = 0; i < index.length; i++) {
          const seq = index.seq(i);
          assert.equal(buffer.seqAt(locate(buffer, seq, index.time(i))), seq);
          assert.equal(index.indexOf(seq, index.time(i)), i);
        }
      },
    ),
    { numRuns: 150 },
  );
});
