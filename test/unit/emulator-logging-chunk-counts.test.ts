import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorld } from '../../src/emulator/world';
import { TrafficStore } from '../../src/emulator/logging/traffic';
import { collectRecords, pageRecords } from '../../src/emulator/logging/records';
import { Random } from '../../src/emulator/random';

test('v2 paging equals the plain list of visible records sliced, at random windows, offsets and clock times (chunks skipped by count, never by generating them)', () => {
  const start = Date.UTC(2026, 2, 2, 10);
  let now = start;
  const world = createWorld({ seed: 7, logRate: 20, now: () => now });
  const store = new TrafficStore(world);
  const zone = world.pullZones[0]!;
  const r = new Random(11);
  // a backfill's pattern: a window pinned at its start, read by offset while the clock moves on
  for (let round = 0; round < 40; round++) {
    now = start + r.int(0, 15 * 60_000);
    const to = now - r.int(0, 5 * 60_000);
    const from = to - r.int(1, 40 * 60_000);
    const includeShield = r.bool(0.2);
    const all = collectRecords(store, zone, { from, to, now, includeShield });
    for (const order of ['asc', 'desc'] as const) {
      const list = order === 'asc' ? all : [...all].reverse();
      const limit = r.pick([1, 100, 5_000, 10_000]);
      const offset = r.bool(0.3) ? 0 : r.int(0, list.length + 10);
      const { page, hasMore } = pageRecords(store, zone, { from, to, now, includeShield, order, offset, limit });
      const want = list.slice(offset, offset + limit);
      assert.deepEqual(
        page.map((x) => x.requestId),
        want.map((x) => x.requestId),
        `round ${round} ${order} offset ${offset} limit ${limit}`,
      );
      assert.equal(hasMore, list.length > offset + limit);
    }
  }
});

test('a backfill read newest first while the clock moves generates each chunk about once (no thrashing of the generated-records cache)', () => {
  const start = Date.UTC(2026, 2, 2, 10);
  let now = start;
  const world = createWorld({ seed: 1, logRate: 1000, now: () => now });
  const store = new TrafficStore(world);
  const zone = world.pullZones[0]!;
  let generated = 0;
  const counted = store as unknown as { generate: (z: unknown, i: number) => unknown[] };
  const generate = counted.generate.bind(store);
  counted.generate = (z, i) => {
    const records = generate(z, i);
    generated += records.length;
    return records;
  };
  // a few seconds after the emulator started: the minute being written is inside the window
  now += 5_000;
  const T0 = now;
  const served = new Set<string>();
  // three pages in flight, answered out of order, and a page read again (late records shifted it)
  for (let k = 0; k < 60; k++) {
    now += 300;
    for (const offset of [k * 10_000 + 20_000, k * 10_000, k * 10_000 + 10_000, Math.max(0, k - 4) * 10_000]) {
      for (const x of pageRecords(store, zone, { from: T0 - 3 * 3_600_000, to: T0, now, includeShield: false, order: 'desc', offset, limit: 10_000 }).page)
        served.add(x.requestId);
    }
  }
  assert.ok(served.size > 600_000);
  // each chunk the pages take records from is generated about once (plus the minute being written)
  assert.ok(generated < 1.5 * served.size, `${generated} records generated to serve ${served.size}`);
});
