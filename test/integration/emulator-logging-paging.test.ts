import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorld } from '../../src/emulator/world';
import { TrafficStore } from '../../src/emulator/logging/traffic';
import { collectRecords, pageRecords } from '../../src/emulator/logging/records';
import { Random } from '../../src/emulator/random';

const T = Date.parse('2026-03-02T10:00:00Z');

test('v2 pages (skipping whole chunks by their count) are exactly the slices of the whole window, both orders', () => {
  const world = createWorld({ seed: 12, logRate: 40, ingestDelayMs: 20_000, now: () => T });
  const store = new TrafficStore(world);
  const zone = world.pullZones.find((z) => z.Name === 'shop-assets')!;
  const r = new Random(99);
  for (let round = 0; round < 60; round++) {
    // windows from a few seconds to an hour, some ending in the last (not yet visible) minute
    const to = T - r.int(0, 30 * 60_000) + (round % 5 === 0 ? 60_000 : 0);
    const from = to - r.int(5_000, 3_600_000);
    const includeShield = r.bool(0.3);
    const match = round % 7 === 3 ? (g: { statusCode: number }) => g.statusCode >= 400 : undefined;
    const all = collectRecords(store, zone, { from, to, now: T, includeShield, match });
    for (const order of ['asc', 'desc'] as const) {
      const list = order === 'asc' ? all : [...all].reverse();
      const limit = r.int(1, 3000);
      // offsets inside, at the end and past the end of the window
      for (const offset of [0, r.int(0, Math.max(0, list.length - 1)), Math.max(0, list.length - limit), list.length, list.length + 5]) {
        const got = pageRecords(store, zone, { from, to, now: T, includeShield, match, order, offset, limit });
        const want = list.slice(offset, offset + limit);
        assert.deepEqual(
          got.page.map((g) => g.requestId),
          want.map((g) => g.requestId),
          `round ${round} ${order} offset ${offset} limit ${limit}`,
        );
        assert.equal(got.hasMore, offset + limit < list.length, `hasMore, round ${round} ${order} offset ${offset}`);
      }
    }
  }
});
