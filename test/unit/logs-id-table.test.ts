import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IdTable } from '../../src/log-engine/columns/id-table';
import { LogBuffer } from '../../src/log-engine/buffer';
import { logEntry } from '../helpers/log-entry';

// The store's request id table: a cell holds slot + 1 and a tag (bits of the id's hash); a probe
// passes cells whose tag differs without reading their id. addNew() looks an id up and adds it in
// the same probe. Checked against a Map from id to slot, with removals (the backward shift reads
// the slot out of tagged cells).

/** An id as four words; ids drawn from a small pool repeat, so finds hit and adds are refused. */
const word = fc.integer({ min: 0, max: 0xffffffff });
const id = fc.oneof(
  fc.tuple(word, word, word, word),
  fc.integer({ min: 0, max: 40 }).map((n) => [n, 0, 0, n * 7] as [number, number, number, number]),
);
const op = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), id }),
  fc.record({ kind: fc.constant('addNew' as const), id }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('find' as const), id }),
);

function check(capacity: number, ops: { kind: 'add' | 'addNew' | 'remove' | 'find'; id?: number[]; pick?: number }[]): void {
  const words = new Uint32Array(capacity * 4);
  const table = new IdTable(capacity, words);
  const held = new Map<string, number>();
  const free = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
  const key = (w: readonly number[]) => w.join(',');
  for (const o of ops) {
    if (o.kind === 'remove') {
      if (held.size === 0) continue;
      const [k, slot] = [...held][o.pick! % held.size]!;
      table.remove(slot);
      held.delete(k);
      free.push(slot);
      continue;
    }
    const w = o.id!;
    const expected = held.get(key(w)) ?? -1;
    assert.equal(table.find(w[0]!, w[1]!, w[2]!, w[3]!), expected, 'find gives the slot holding the id, or -1');
    if (o.kind === 'find' || free.length === 0) continue;
    const slot = free.pop()!;
    if (o.kind === 'addNew') {
      assert.equal(table.addNew(w[0]!, w[1]!, w[2]!, w[3]!, slot), expected < 0, 'addNew adds only an id not held');
      if (expected < 0) held.set(key(w), slot);
      else free.push(slot);
    } else if (expected < 0) {
      words.set(w, slot * 4);
      table.add(slot);
      held.set(key(w), slot);
    } else free.push(slot);
  }
  for (const [k, slot] of held) {
    const w = k.split(',').map(Number);
    assert.equal(table.find(w[0]!, w[1]!, w[2]!, w[3]!), slot);
    assert.deepEqual(Array.from(words.subarray(slot * 4, slot * 4 + 4)), w, 'the id is in its slot of the id column');
  }
}

test('the id table finds, adds and removes as a map from id to slot', () => {
  // 3 records: slot + 1 in 2 bits, a 30-bit tag; 64 records: 7 bits and 25 (cells of a small table share index and tag bits)
  fc.assert(fc.property(fc.array(op, { maxLength: 200 }), (ops) => check(3, ops)));
  fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => check(64, ops)));
});

const BASE = Date.UTC(2026, 7, 8, 12);
const rid = (n: number) => n.toString(16).padStart(32, '0');
const rec = (n: number, requestId: string | null = rid(n)) => logEntry({ timestamp: new Date(BASE + n * 1000).toISOString(), requestId });

test('a store filling up refuses repeats within a batch and of records held, as a full store does', () => {
  // room for the whole batch (the new records take their slots as they are found new) ...
  const roomy = new LogBuffer(100);
  // ... and a store that must evict for it (the old path: a table of the batch's own ids)
  const full = new LogBuffer(8);
  for (const b of [roomy, full]) {
    assert.equal(b.insert([rec(1), rec(2), rec(3), rec(4), rec(5), rec(6)]), 6);
    // 3 and 5 are held; 9 comes twice in the batch; 'x' (not hex) twice; 10 once
    const batch = [rec(9), rec(3), rec(9), rec(10), rec(5), rec(11, 'x'), rec(12, 'x')];
    assert.equal(b.insert(batch), 3);
    assert.equal(b.duplicates, 4);
    assert.equal(b.has(rid(9)), true);
    assert.equal(b.has('x'), true);
  }
  assert.deepEqual(
    roomy.toArray().map((e) => e.timestamp),
    [1, 2, 3, 4, 5, 6, 9, 10, 11].map((n) => new Date(BASE + n * 1000).toISOString()),
  );
  assert.deepEqual(full.toArray(), roomy.toArray().slice(1), 'the full store evicted its oldest, the rest alike');
  // a record kept early can leave and come back: its id left the table with it
  full.insert([rec(20), rec(21), rec(22), rec(23), rec(24), rec(25), rec(26), rec(27)]);
  assert.equal(full.has(rid(9)), false);
  const again = new LogBuffer(100);
  again.insert([rec(9)]);
  again.clear();
  assert.equal(again.has(rid(9)), false);
  assert.equal(again.insert([rec(9), rec(9)]), 1);
});
