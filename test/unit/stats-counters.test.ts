import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IdTally, Uint32Counts } from '../../src/log-records/stats-counters';

function contents(t: Uint32Counts): Map<number, number> {
  const out = new Map<number, number>();
  t.forEach((k, c) => out.set(k, c));
  return out;
}

test('Uint32Counts: the same counts as a Map through adds, removals to zero, growth and clear', () => {
  // few distinct keys, so the same ones come and go; large keys (above 2^31) included
  const key = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0xffffffff, 0x80000000, 0xc0a80001), fc.integer({ min: 0, max: 0xffffffff }));
  const op = fc.oneof(fc.record({ key, by: fc.integer({ min: -3, max: 3 }) }), fc.constant('clear' as const));
  fc.assert(
    fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
      const t = new Uint32Counts();
      const ref = new Map<number, number>();
      for (const o of ops) {
        if (o === 'clear') {
          t.clear();
          ref.clear();
          continue;
        }
        t.bump(o.key, o.by);
        const n = (ref.get(o.key) ?? 0) + o.by;
        // a count that is not there is not made by a removal, and a count at zero or below leaves
        if (!ref.has(o.key) && o.by <= 0) continue;
        if (n > 0) ref.set(o.key, n);
        else ref.delete(o.key);
      }
      assert.deepEqual(contents(t), ref);
      assert.equal(t.size, ref.size);
    }),
    { numRuns: 300 },
  );
});

test('Uint32Counts: keys that collide in a small table are all kept and found after removals between them', () => {
  const t = new Uint32Counts();
  // 5,000 keys: the table grows several times; then every other one leaves
  for (let k = 0; k < 5000; k++) t.bump(k * 1024, k + 1);
  for (let k = 0; k < 5000; k += 2) t.bump(k * 1024, -(k + 1));
  const got = contents(t);
  assert.equal(got.size, 2500);
  for (let k = 1; k < 5000; k += 2) assert.equal(got.get(k * 1024), k + 1);
});

test('IdTally: counts of each id over the slots given, and nothing left after a drain', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 400 }), fc.array(fc.nat(), { maxLength: 400 }), (column, picks) => {
      const ids = Uint32Array.from(column);
      const slots = picks.map((p) => p % column.length);
      const tally = new IdTally();
      const expected = new Map<number, number>();
      for (const s of slots) expected.set(ids[s]!, (expected.get(ids[s]!) ?? 0) + 1);
      for (let round = 0; round < 2; round++) {
        tally.add(ids, slots);
        const got = new Map<number, number>();
        tally.drain((id, n) => got.set(id, n));
        assert.deepEqual(got, expected);
      }
    }),
    { numRuns: 200 },
  );
});
