import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SlotPool } from '../../src/log-engine/columns/slot-pool';
import { NumberDictionary } from '../../src/log-engine/columns/number-dictionary';

test('the slot pool never hands out a slot in use, hands out every slot once before any again, and is empty when all are used', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 600 }),
      fc.array(fc.oneof(fc.integer({ min: 1, max: 700 }), fc.integer({ min: -700, max: -1 }), fc.constant(0)), { maxLength: 60 }),
      (capacity, steps) => {
        const pool = new SlotPool(capacity);
        const used = new Set<number>();
        const inUse: number[] = [];
        for (const step of steps) {
          if (step === 0) {
            pool.reset();
            used.clear();
            inUse.length = 0;
          } else if (step > 0) {
            for (let i = 0; i < step && used.size < capacity; i++) {
              const slot = pool.take();
              assert.ok(slot >= 0 && slot < capacity, `slot ${slot} outside 0..${capacity - 1}`);
              assert.ok(!used.has(slot), `slot ${slot} handed out twice`);
              used.add(slot);
              inUse.push(slot);
            }
          } else {
            // give back the oldest taken (a store evicts its oldest records)
            for (let i = 0; i < -step && inUse.length > 0; i++) {
              const slot = inUse.shift()!;
              used.delete(slot);
              pool.give(slot);
            }
          }
          assert.equal(pool.available, capacity - used.size);
        }
        if (used.size === capacity) assert.throws(() => pool.take(), RangeError);
      },
    ),
  );
});

test('a full pool that turns over keeps a small list of given-back slots, not one per slot', () => {
  const capacity = 1_000_000;
  const pool = new SlotPool(capacity);
  for (let i = 0; i < capacity; i++) pool.take();
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 10_000; i++) pool.give((round * 10_000 + i) % capacity);
    for (let i = 0; i < 10_000; i++) pool.take();
  }
  assert.equal(pool.available, 0);
  assert.ok(pool.bytes <= 4 * 16_384, `${pool.bytes} bytes for at most 10,000 slots given back at once`);
});

test('the number dictionary gives each distinct number (-0, NaN and infinities too) one id, and ids back when unused', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 13335, 2 ** 40, 1.5, null), fc.integer({ min: 0, max: 50 })), { maxLength: 200 }),
      (values) => {
        const d = new NumberDictionary();
        const ids = values.map((v) => d.intern(v));
        values.forEach((v, i) => assert.ok(Object.is(d.value(ids[i]!), v), `${String(v)} came back as ${String(d.value(ids[i]!))}`));
        const distinct = new Set(values.filter((v) => v !== null).map((v) => (Object.is(v, -0) ? '-0' : String(v))));
        assert.equal(d.size, distinct.size);
        ids.forEach((id) => d.release(id));
        assert.equal(d.size, 0);
        assert.ok(d.intern(7) <= Math.max(1, ...ids), 'a freed id is used again before a new one');
      },
    ),
  );
});
