import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LogBuffer } from '../../src/log-engine/buffer';
import type { LogEntry } from '../../src/api/logs/entry';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12);

function entry(id: string, t: number): LogEntry {
  return logEntry({
    timestamp: new Date(t).toISOString(),
    requestId: id,
    cacheStatus: 'HIT',
    bytesSent: 1,
    edgeLocation: 'WA',
    scheme: 'https',
    host: 'h',
    path: '/',
    url: 'https://h/',
  });
}

const ids = (b: LogBuffer) => b.toArray().map((e) => e.requestId);

/** Reference model: every unique record, sorted by time, the oldest dropped beyond capacity. */
class Model {
  held: { id: string; t: number }[] = [];
  dropped = 0;
  duplicates = 0;
  constructor(private readonly cap: number) {}
  insert(batch: { id: string; t: number }[]) {
    const known = new Set(this.held.map((h) => h.id));
    for (const r of batch) {
      if (known.has(r.id)) {
        this.duplicates++;
        continue;
      }
      known.add(r.id);
      this.held.push(r);
    }
    this.held.sort((a, b) => a.t - b.t);
    while (this.held.length > this.cap) {
      this.held.shift();
      this.dropped++;
    }
  }
}

test('buffer matches a reference model: order, dedupe, capacity and dropped count', () => {
  // Distinct times (ids encode them) so ties cannot make the model and the buffer disagree.
  const batch = fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 40 }).chain((ts) =>
    fc.constantFrom<'asc' | 'desc' | 'any'>('asc', 'desc', 'any').map((how) => {
      const sorted = how === 'asc' ? [...ts].sort((a, b) => a - b) : how === 'desc' ? [...ts].sort((a, b) => b - a) : ts;
      return sorted.map((t) => ({ id: `r${t}`, t: BASE + t * 1000 }));
    }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60 }), fc.array(batch, { maxLength: 25 }), (cap, batches) => {
      const b = new LogBuffer(cap);
      const m = new Model(cap);
      for (const bt of batches) {
        const v = b.version;
        const added: LogEntry[] = [];
        const keptBefore = new Set(ids(b));
        const kept = b.insert(
          bt.map((r) => entry(r.id, r.t)),
          undefined,
          added,
        );
        m.insert(bt);
        assert.deepEqual(
          ids(b),
          m.held.map((h) => h.id),
        );
        assert.equal(b.dropped, m.dropped);
        assert.equal(b.duplicates, m.duplicates);
        const nowHeld = new Set(ids(b));
        const fresh = [...nowHeld].filter((id) => !keptBefore.has(id));
        assert.equal(kept, fresh.length, 'insert() returns how many new records were kept');
        assert.deepEqual(added.map((e) => e.requestId).sort(), fresh.sort());
        if (kept) assert.ok(b.version > v, 'version moves on change');
        for (let i = 1; i < b.length; i++) assert.ok(b.time(i - 1) <= b.time(i));
      }
    }),
    { numRuns: 400 },
  );
});

test('late records land in place; equal timestamps keep arrival order', () => {
  const b = new LogBuffer(10);
  b.insert([entry('a', BASE), entry('c', BASE + 2000), entry('d', BASE + 3000)]);
  b.insert([entry('b', BASE + 1000)]);
  assert.deepEqual(ids(b), ['a', 'b', 'c', 'd']);
  b.insert([entry('c2', BASE + 2000)]);
  assert.deepEqual(ids(b), ['a', 'b', 'c', 'c2', 'd'], 'a later arrival with the same time goes after');
  b.insert([entry('b', BASE + 1000), entry('e', BASE + 4000)]);
  assert.deepEqual(ids(b), ['a', 'b', 'c', 'c2', 'd', 'e']);
  assert.equal(b.duplicates, 1);
});

test('records without a request id are deduped by their content', () => {
  const b = new LogBuffer(10);
  const x = { ...entry('x', BASE), requestId: null };
  assert.equal(b.insert([x, { ...x }]), 1);
  assert.equal(b.insert([{ ...x, statusCode: 500 }]), 1, 'a different record with the same time is kept');
  assert.equal(b.length, 2);
});

test('a full buffer evicts the oldest, refuses older records, counts both as dropped', () => {
  const b = new LogBuffer(3);
  b.insert([1, 2, 3].map((i) => entry(`r${i}`, BASE + i)));
  b.insert([entry('r4', BASE + 4)]);
  assert.deepEqual(ids(b), ['r2', 'r3', 'r4']);
  assert.equal(b.evictedUpTo, BASE + 1);
  assert.equal(b.insert([entry('r0', BASE)]), 0, 'older than everything in a full buffer');
  assert.equal(b.dropped, 2);
  assert.equal(b.has('r0'), false);
  assert.equal(b.has('r1'), false, 'an evicted record is forgotten');
});

test('index access, bounds, slice and scan', () => {
  const b = new LogBuffer(5);
  // Wrap the ring: 8 records through 5 slots.
  for (let i = 0; i < 8; i++) b.insert([entry(`r${i}`, BASE + i * 10)]);
  assert.equal(b.length, 5);
  assert.equal(b.get(0)!.requestId, 'r3');
  assert.equal(b.get(4)!.requestId, 'r7');
  assert.equal(b.get(5), undefined);
  assert.equal(b.oldestTime, BASE + 30);
  assert.equal(b.newestTime, BASE + 70);
  assert.equal(b.lowerBound(BASE + 45), 2);
  assert.equal(b.lowerBound(BASE + 50), 2);
  assert.equal(b.upperBound(BASE + 50), 3);
  assert.deepEqual(
    b.slice(1, 3).map((e) => e.requestId),
    ['r4', 'r5'],
  );
  assert.deepEqual(
    b.scan((slot) => ['r4', 'r7'].includes(b.columns.requestId(slot) ?? '')),
    [1, 4],
  );
});

test('subscribers hear every change', () => {
  const b = new LogBuffer(5);
  const seen: number[] = [];
  const off = b.subscribe((v) => seen.push(v));
  b.insert([entry('a', BASE)]);
  b.insert([entry('a', BASE)]); // duplicate only: no change
  b.insert([entry('b', BASE + 1)]);
  off();
  b.insert([entry('c', BASE + 2)]);
  assert.deepEqual(seen, [1, 2]);
  assert.equal(b.version, 3);
});

test('100k records in pages with late ones mixed in stay ordered and complete', () => {
  const b = new LogBuffer(100_000);
  let n = 0;
  const late: LogEntry[] = [];
  for (let page = 0; page < 100; page++) {
    const batch: LogEntry[] = [];
    for (let i = 0; i < 1000; i++, n++) {
      const e = entry(`r${n}`, BASE + n * 10);
      // Every 7th record shows up one page late.
      if (n % 7 === 3) late.push(e);
      else batch.push(e);
    }
    batch.push(...late.splice(0, late.length - 140));
    b.insert(batch);
  }
  b.insert(late);
  assert.equal(b.length, 100_000);
  for (let i = 1; i < b.length; i++) assert.ok(b.time(i - 1) <= b.time(i), `order at ${i}`);
  assert.equal(b.get(0)!.requestId, 'r0');
  assert.equal(b.dropped, 0);
});
