import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { LogsApi } from '../../src/api/logs/index';
import { configureLoggingRateLimit, generatedLogRecords, loggingStats } from '../../src/emulator/logging/index';
import { maxInWindow } from '../../src/emulator/logging/limits';
import { followLogs, LogPageReader } from '../../src/log-engine/index';

// Two zones followed at once against the emulator: each on its own request budget, both merged
// into one buffer in time order, without duplicates, one zone failing without stopping the other.

const emu = await useEmulator({ seed: 5, logRate: 8, ingestDelayMs: 300 });
const [A, B] = emu.info.pullZoneIds as [number, number];
// a short window, so a budget is spent and renewed within seconds: 30 per 2 s at the "platform",
// 28 per 2 s at the client, per zone
const WINDOW = 2_000;
configureLoggingRateLimit(emu.world, { limit: 30, windowMs: WINDOW });
const http = apiFor(emu).logging;
const logs = new LogsApi(http, { now: emu.world.now, budgetOptions: { now: Date.now, limit: 28, windowMs: WINDOW }, pageReader: new LogPageReader() });

test('two zones backfill and follow together: each within its own budget (28 per window), more than one budget together, no 429, one merged buffer', async () => {
  const started = emu.world.now();
  // small pages: the 15-minute backfill of each zone takes dozens of requests
  const engine = followLogs(logs, { zones: [A, B], sinceMs: 15 * 60_000, pageLimit: 100, capacity: 200_000 });
  engine.start();
  try {
    await until('both zones backfilled and following', () => engine.status().zones.every((z) => z.state === 'following' && z.backfill?.done), 60_000);
    const stats = loggingStats(emu.world);
    const a = stats.zone(A);
    const b = stats.zone(B);
    assert.ok(a.accepted > 28 && b.accepted > 28, `each zone needed more than one budget: ${a.accepted}, ${b.accepted}`);
    assert.equal(a.rateLimited + b.rateLimited, 0, 'no 429: each zone stayed within its budget');
    assert.ok(stats.maxInWindow(A, WINDOW) <= 28, `zone A: ${stats.maxInWindow(A, WINDOW)} in a window`);
    assert.ok(stats.maxInWindow(B, WINDOW) <= 28, `zone B: ${stats.maxInWindow(B, WINDOW)} in a window`);
    // the two budgets were spent at the same time: together more than one zone may send
    const together = maxInWindow(
      [...a.acceptedAt, ...b.acceptedAt].sort((x, y) => x - y),
      WINDOW,
    );
    assert.ok(together > 28, `both zones at once: ${together} requests in a window`);

    // the buffer: every visible record of both zones in the window, once, in time order
    const held = engine.buffer.toArray();
    const times = held.map((e) => Date.parse(e.timestamp));
    assert.deepEqual(
      times,
      [...times].sort((x, y) => x - y),
      'time order across zones',
    );
    assert.equal(new Set(held.map((e) => e.requestId)).size, held.length, 'no duplicates');
    const from = engine.status().zones[0]!.backfill!.from;
    const settled = started - 5_000;
    for (const zone of [A, B]) {
      const want = generatedLogRecords(emu.world, zone, from, settled).map((g) => g.requestId as string);
      const got = new Set(held.filter((e) => e.pullZoneId === zone).map((e) => e.requestId));
      assert.ok(want.length > 1000, `zone ${zone} has records`);
      assert.deepEqual(
        want.filter((id) => !got.has(id)),
        [],
        `zone ${zone}: every record of the window`,
      );
    }
    const st = engine.status();
    assert.equal(st.zones.find((z) => z.zoneId === A)!.records + st.zones.find((z) => z.zoneId === B)!.records, held.length);
  } finally {
    await engine.stop();
  }
});

test('a zone that cannot be read fails alone: the other keeps following into the same buffer', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!.Id;
  const engine = followLogs(logs, { zones: [A, off], sinceMs: 60_000 });
  engine.start();
  try {
    await until('the zone without logging failed', () => engine.status().zones[1]!.state === 'failed');
    const failed = engine.status().zones[1]!;
    assert.equal(failed.error?.status, 404);
    await until('the other zone follows', () => engine.status().zones[0]!.state === 'following');
    const before = engine.buffer.length;
    await until('new records of the other zone', () => engine.buffer.length > before, 20_000);
    assert.equal(engine.status().state, 'running');
    assert.ok(engine.buffer.toArray().every((e) => e.pullZoneId === A));
  } finally {
    await engine.stop();
  }
});
