import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import { compilePattern, searchFields } from '../../src/log-records/filter';
import { BUCKET_STEPS, CLASS_SLOTS } from '../../src/log-records/timeline';
import { timelineView } from '../../src/log-records/timeline-view';
import { LogsViewModel } from '../../src/state/logs/view-model';
import { TimelineSource } from '../../src/state/logs/timeline-source';
import { barCells, barHeight } from '../../src/screens/logs/timeline-lines';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);
let id = 0;
function rec(t: number, status: number, cache: string): LogEntry {
  id++;
  return logEntry({
    timestamp: new Date(t).toISOString(),
    requestId: id.toString(16).padStart(32, '0'),
    cacheStatus: cache,
    statusCode: status,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'a.example',
    path: '/x',
    url: 'https://a.example/x',
    userAgent: 'ua',
  });
}

/** Counts per bucket of the records the store holds now (read back as objects), the plain way. */
function reference(entries: LogEntry[], first: number, size: number, n: number, keep: (e: LogEntry) => boolean = () => true): number[] {
  const out = new Array<number>(n * CLASS_SLOTS).fill(0);
  for (const e of entries) {
    if (!keep(e)) continue;
    const b = Math.floor((Date.parse(e.timestamp) - first) / size);
    if (b < 0 || b >= n) continue;
    const c = Math.floor(e.statusCode / 100);
    out[b * CLASS_SLOTS + (c >= 2 && c <= 5 ? c - 2 : 4)]!++;
  }
  return out;
}

const batch = fc.array(
  fc.record({ dt: fc.integer({ min: 0, max: 600_000 }), status: fc.constantFrom(200, 304, 404, 500, 503), cache: fc.constantFrom('HIT', 'MISS', 'STALE') }),
  { minLength: 1, maxLength: 60 },
);

const turn = () => new Promise<void>((r) => setImmediate(r));

test('the timeline counts follow the store through inserts in any order and evictions of a full buffer, and the local pattern in filter mode (its counts built a few matches a slice while records come and go)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(batch, { minLength: 1, maxLength: 12 }),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(...BUCKET_STEPS.slice(0, 6)),
      async (batches, patternAt, size) => {
        // a small store, so evictions (of matches too) happen in most runs
        const model = new LogsViewModel(25);
        const source = new TimelineSource(model, () => {}, { step: 3, sliceMs: 0 });
        source.sync();
        const pattern = compilePattern('MISS');
        if (!pattern.ok) throw new Error(pattern.message);
        const first = Math.floor(BASE / size) * size;
        const n = Math.ceil(600_001 / size) + 1;
        const check = () => {
          const { counts, filtered } = source.counts();
          if (!counts) return false;
          const keep = filtered ? (e: LogEntry) => searchFields(e).some((f) => f !== null && /MISS/i.test(f)) : undefined;
          assert.deepEqual([...counts.buckets(first, size, n)], reference(model.buffer.toArray(), first, size, n, keep));
          return true;
        };
        for (const [i, b] of batches.entries()) {
          if (i === patternAt) {
            model.setMode('filter');
            model.setPattern(pattern);
          }
          model.load(
            b.map((r) => rec(BASE + r.dt, r.status, r.cache)),
            b.map((r) => BASE + r.dt),
          );
          assert.equal(source.counts().filtered, i >= patternAt);
          // one slice of the walk, then the next batch comes in
          await turn();
          check();
        }
        for (let k = 0; k < 100 && !check(); k++) await turn();
        assert.ok(check(), 'the match counts were finished');
      },
    ),
    { numRuns: 60 },
  );
});

test('a new store (a new query) is counted from its own records', () => {
  const model = new LogsViewModel(100);
  const source = new TimelineSource(model);
  model.load([rec(BASE, 200, 'HIT')], [BASE]);
  assert.equal(source.counts().counts!.records, 1);
  model.reset();
  model.load([rec(BASE, 500, 'HIT'), rec(BASE + 1000, 404, 'HIT')], [BASE, BASE + 1000]);
  const c = source.counts().counts!;
  assert.equal(c.records, 2);
  assert.deepEqual([...c.buckets(BASE, 60_000, 1)], [0, 0, 1, 1, 0]);
});

test('the view: the automatic zoom fits the columns, and a zoomed-in view scrolls to keep it shown', () => {
  const model = new LogsViewModel(1000);
  const source = new TimelineSource(model);
  const times = Array.from({ length: 600 }, (_, i) => BASE + i * 1000);
  model.load(
    times.map((t) => rec(t, 200, 'HIT')),
    times,
  );
  const counts = source.counts().counts!;
  const start = BASE;
  const end = BASE + 599_000;
  const auto = timelineView(counts, { start, end, columns: 80, step: null, cursorAt: null, scrollFirst: null })!;
  assert.equal(auto.size, 10_000, '10 minutes in 80 columns: 60 buckets of 10 s');
  assert.equal(auto.n, 60);
  assert.equal(auto.cursor, 59);
  assert.ok(auto.cursorLive);
  assert.equal(auto.max, 10);
  // 1 s buckets: 600 of them, 80 shown, ending at the newest
  const fine = timelineView(counts, { start, end, columns: 80, step: 0, cursorAt: null, scrollFirst: null })!;
  assert.equal(fine.spanned, 600);
  assert.equal(fine.n, 80);
  assert.equal(fine.offset, 520);
  // a cursor far back: the stretch shown moves to it
  const back = timelineView(counts, { start, end, columns: 80, step: 0, cursorAt: BASE + 100_500, scrollFirst: fine.first })!;
  assert.equal(back.first + back.cursor * 1000, BASE + 100_000);
  assert.equal(back.cursor, 0);
  assert.ok(!back.cursorLive);
});

test('a bar: height by total, cells by class with the rounding to the largest remainders, and a rare class still shown', () => {
  assert.equal(barHeight(0, 10, 4), 0);
  assert.equal(barHeight(1, 1000, 4), 1, 'a bucket with a request is never drawn empty');
  assert.equal(barHeight(1000, 1000, 4), 4);
  assert.deepEqual(barCells([2, 0, 0, 2, 0], 0, 4), [2, 0, 0, 2, 0]);
  assert.deepEqual(barCells([98, 1, 1, 0, 0], 0, 4), [4, 0, 0, 0, 0], 'rare 3xx and 4xx are drawn to scale');
  assert.deepEqual(barCells([0, 0, 0, 1, 0], 0, 1), [0, 0, 0, 1, 0]);
  assert.deepEqual(barCells([997, 0, 0, 3, 0], 0, 4), [3, 0, 0, 1, 0], 'three 5xx among a thousand keep a cell');
  assert.deepEqual(barCells([0, 0, 0, 0, 0], 0, 4), [0, 0, 0, 0, 0]);
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 500 }), { minLength: 5, maxLength: 5 }), fc.integer({ min: 1, max: 8 }), (counts, h) => {
      const cells = barCells(counts, 0, h);
      const total = counts.reduce((a, b) => a + b, 0);
      assert.equal(
        cells.reduce((a, b) => a + b, 0),
        total === 0 ? 0 : h,
      );
      cells.forEach((c, k) => assert.ok(counts[k] === 0 ? c === 0 : true));
    }),
  );
});
