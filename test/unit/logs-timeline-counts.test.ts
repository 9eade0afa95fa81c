import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BUCKET_STEPS, bucketsSpanned, chooseStep, CLASS_SLOTS, formatBucket, parseBucket, statusClassOf, stepOf } from '../../src/log-records/timeline';
import { bucketTotal, TimelineCounts } from '../../src/log-records/timeline-counts';
import { histogram, windowBuckets } from '../../src/log-records/timeline-histogram';

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);

/** The counts the plain way: every record held, bucket by bucket. */
function reference(held: Map<number, { t: number; status: number }>, first: number, size: number, n: number): number[] {
  const out = new Array<number>(n * CLASS_SLOTS).fill(0);
  for (const { t, status } of held.values()) {
    const b = Math.floor((t - first) / size);
    if (b < 0 || b >= n) continue;
    const c = Math.floor(status / 100);
    out[b * CLASS_SLOTS + (c >= 2 && c <= 5 ? c - 2 : 4)]!++;
  }
  return out;
}

const op = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      dt: fc.integer({ min: -7_200_000, max: 7_200_000 }),
      status: fc.constantFrom(200, 204, 301, 404, 429, 500, 503, 101, 0, 999),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
);

test('bucket counts equal a plain count of the records held, after any adds and removes, at every bucket size', () => {
  fc.assert(
    fc.property(
      fc.array(op, { maxLength: 300 }),
      fc.constantFrom(...BUCKET_STEPS, 2000, 90_000, 86_400_000),
      fc.integer({ min: -7_300_000, max: 7_300_000 }),
      fc.integer({ min: 1, max: 200 }),
      (ops, size, startOffset, n) => {
        const counts = new TimelineCounts();
        const held = new Map<number, { t: number; status: number }>();
        let id = 0;
        for (const o of ops) {
          if (o.kind === 'add') {
            const r = { t: BASE + o.dt, status: o.status };
            held.set(id++, r);
            counts.add(r.t, statusClassOf(r.status));
          } else if (held.size) {
            const key = [...held.keys()][o.pick % held.size]!;
            const r = held.get(key)!;
            held.delete(key);
            counts.remove(r.t, statusClassOf(r.status));
          }
        }
        const first = Math.floor((BASE + startOffset) / size) * size;
        assert.deepEqual([...counts.buckets(first, size, n)], reference(held, first, size, n));
        assert.equal(counts.records, held.size);
        if (held.size === 0) assert.equal(counts.chunks, 0, 'emptied chunks are let go');
      },
    ),
    { numRuns: 300 },
  );
});

test('a window of random records: every bucket of the histogram, empty ones too, matches the reference', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ dt: fc.integer({ min: -60_000, max: 3_700_000 }), status: fc.constantFrom(200, 302, 404, 500, 100) }), { maxLength: 400 }),
      fc.constantFrom(10_000, 60_000, 300_000),
      (recs, size) => {
        const from = BASE + 7_000;
        const to = BASE + 3_600_000;
        const rows = histogram(
          recs.map((r) => BASE + r.dt),
          recs.map((r) => r.status),
          from,
          to,
          size,
        );
        const { first, n } = windowBuckets(from, to, size);
        assert.equal(rows.length, n);
        const inside = new Map<number, { t: number; status: number }>();
        recs.forEach((r, i) => {
          if (BASE + r.dt >= from && BASE + r.dt < to) inside.set(i, { t: BASE + r.dt, status: r.status });
        });
        const ref = reference(inside, first, size, n);
        rows.forEach((row, b) => {
          assert.equal(Date.parse(row.start), first + b * size);
          assert.deepEqual([row['2xx'], row['3xx'], row['4xx'], row['5xx']], ref.slice(b * CLASS_SLOTS, b * CLASS_SLOTS + 4));
          assert.equal(row.total, bucketTotal(ref, b));
        });
        assert.equal(
          rows.reduce((s, r) => s + r.total, 0),
          inside.size,
        );
      },
    ),
    { numRuns: 200 },
  );
});

test('the window [from, to) spans the buckets holding from and to - 1', () => {
  assert.deepEqual(windowBuckets(BASE, BASE + 3_600_000, 60_000), { first: BASE, n: 60 });
  assert.deepEqual(windowBuckets(BASE + 30_000, BASE + 3_600_001, 60_000), { first: BASE, n: 61 });
});

test('a status class per code, 1xx and out-of-range codes as other', () => {
  assert.deepEqual([200, 299, 301, 404, 503, 101, 0, 600].map(statusClassOf), [0, 0, 1, 2, 3, 4, 4, 4]);
});

test('bucket sizes read and print as durations; bad ones get a message', () => {
  assert.deepEqual(parseBucket('1m'), { ms: 60_000 });
  assert.deepEqual(parseBucket(' 30s '), { ms: 30_000 });
  assert.deepEqual(parseBucket('1d'), { ms: 86_400_000 });
  for (const bad of ['0s', '1x', 'm', '2d', '1.5m', '-1m', ''])
    assert.match((parseBucket(bad) as { error: string }).error, /--bucket ".*": use a duration like 1s/);
  assert.deepEqual(BUCKET_STEPS.map(formatBucket), ['1s', '5s', '10s', '30s', '1m', '5m', '15m', '1h']);
  assert.equal(formatBucket(90_000), '90s');
});

test('the automatic zoom is the finest step that fits the span in the columns', () => {
  // 15 minutes in 100 columns: 10 s buckets (91 of them); 5 s would take 181
  assert.equal(BUCKET_STEPS[chooseStep(BASE, BASE + 15 * 60_000, 100)], 10_000);
  assert.equal(BUCKET_STEPS[chooseStep(BASE, BASE + 59_000, 60)], 1000);
  assert.equal(BUCKET_STEPS[chooseStep(BASE, BASE + 3 * 86_400_000, 80)], 3_600_000, 'the coarsest when none fits');
  for (const cols of [10, 50, 200]) {
    const i = chooseStep(BASE, BASE + 7_200_000, cols);
    if (i < BUCKET_STEPS.length - 1) assert.ok(bucketsSpanned(BASE, BASE + 7_200_000, BUCKET_STEPS[i]!) <= cols);
    if (i > 0) assert.ok(bucketsSpanned(BASE, BASE + 7_200_000, BUCKET_STEPS[i - 1]!) > cols, 'and no finer step fits');
  }
  assert.equal(stepOf(60_000), 4);
  assert.equal(stepOf(90_000), 4);
  assert.equal(stepOf(500), 0);
});

test('a bucket size that is not whole seconds is refused', () => {
  assert.throws(() => new TimelineCounts().buckets(0, 1500, 3), /whole number of seconds/);
});

test('counts of a span of time that has no records left take no memory', () => {
  const counts = new TimelineCounts();
  for (let i = 0; i < 3; i++) counts.add(BASE + i * 86_400_000, 0);
  assert.equal(counts.chunks, 6, 'a chunk of seconds and one of minutes for each day');
  counts.remove(BASE, 0);
  counts.remove(BASE + 86_400_000, 0);
  assert.equal(counts.chunks, 2);
  assert.deepEqual([...counts.buckets(BASE + 2 * 86_400_000, 60_000, 1)], [1, 0, 0, 0, 0]);
});
