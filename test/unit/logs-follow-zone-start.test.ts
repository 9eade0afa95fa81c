import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import { until } from '../helpers/wait';
import { SimLogs } from '../helpers/sim-logs';

// Several zones followed "since 15 minutes" share one window start: the instant the engine
// started. Each zone used to read the clock as its own backfill began, after the zones before it
// had sent their first request, so on a busy machine a later zone's window started a few ms later
// and the records of those first few ms (there for the first zone) were never read for it.

const T0 = Date.UTC(2026, 7, 8, 12);
const SINCE = 15 * 60_000;

test('every zone backfills from the one start of the engine, even when sending a request takes time', async () => {
  const sim = new SimLogs(T0);
  sim.autoAnswer = true;
  // a loaded machine: the clock moves 7 ms while each request is being sent
  sim.sendCostMs = 7;
  const zones = [1022, 1188, 1342];
  const start = T0 - SINCE;
  // in every zone, a record in each of the first milliseconds of the window, and some later ones
  for (const zone of zones) {
    for (let ms = 0; ms < 30; ms++) sim.add(zone, start + ms);
    for (let k = 1; k <= 50; k++) sim.add(zone, start + k * 10_000);
  }
  const engine = new FollowEngine({ api: sim.api(), zones, sinceMs: SINCE, pageLimit: 20, now: sim.now, minIntervalMs: 60_000, maxIntervalMs: 60_000 });
  engine.start();
  try {
    await until('every zone backfilled', () => engine.status().zones.every((z) => z.backfill?.done));
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    for (const zone of zones) {
      const missing = sim.records(zone, start, T0).filter((r) => !held.has(r.id));
      assert.deepEqual(
        missing.map((r) => r.t - start),
        [],
        `zone ${zone}: records of the window missing (ms after its start)`,
      );
    }
    const st = engine.status();
    assert.deepEqual(
      st.zones.map((z) => z.backfill!.from),
      zones.map(() => start),
      'one window start for every zone: the engine start minus 15 minutes',
    );
    assert.equal(engine.startAt(), start);
  } finally {
    await engine.stop();
  }
});
