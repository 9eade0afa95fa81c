import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KeySet } from '../../src/log-engine/key-set';

test('KeySet behaves as a Set under random adds, deletes and lookups (collisions and growth included)', () => {
  // few distinct short keys: many share a home slot in a small table, so removals shift entries
  const key = fc.oneof(
    fc.constantFrom('a', 'b', 'c', 'ab', 'ba', ''),
    fc.string({ maxLength: 3 }),
    fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
  );
  const op = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), key }),
    fc.record({ kind: fc.constant('delete' as const), key }),
    fc.record({ kind: fc.constant('has' as const), key }),
    fc.record({ kind: fc.constant('clear' as const), key }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 64 }), fc.array(op, { maxLength: 300 }), (expected, ops) => {
      const s = new KeySet(expected);
      const m = new Set<string>();
      for (const o of ops) {
        if (o.kind === 'add') assert.equal(s.add(o.key), !m.has(o.key) && Boolean(m.add(o.key)));
        else if (o.kind === 'delete') assert.equal(s.delete(o.key), m.delete(o.key));
        else if (o.kind === 'has') assert.equal(s.has(o.key), m.has(o.key));
        else if (o.kind === 'clear' && ops.indexOf(o) % 7 === 0) {
          s.clear();
          m.clear();
        }
        assert.equal(s.size, m.size);
      }
      for (const k of m) assert.ok(s.has(k), `lost ${JSON.stringify(k)}`);
    }),
    { numRuns: 400 },
  );
});

test('KeySet holds 200,000 keys and forgets every other one', () => {
  const s = new KeySet(16);
  const keys = Array.from({ length: 200_000 }, (_, i) => `${i.toString(16).padStart(8, '0')}${'0'.repeat(24)}`);
  for (const k of keys) assert.equal(s.add(k), true);
  assert.equal(s.size, keys.length);
  for (let i = 0; i < keys.length; i += 2) assert.equal(s.delete(keys[i]!), true);
  for (let i = 0; i < keys.length; i++) assert.equal(s.has(keys[i]!), i % 2 === 1);
  assert.equal(s.size, keys.length / 2);
});
