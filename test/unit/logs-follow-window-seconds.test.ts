import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import { until } from '../helpers/wait';
import { SimLogs, settle } from '../helpers/sim-logs';

// The backfill's first page ends its window at the server's clock, to the millisecond; the pages
// below it send that end as `to`. The platform's own CLI sends whole seconds, and whether the
// server reads milliseconds is not documented: a server that reads `to` to the second only ends
// the window of those pages up to a second earlier, so every offset points as many records
// further down, and the records just below the first page were skipped (the gap read, at the same
// offset, skipped them again). They are older than the re-check after the backfill reaches.

const T0 = Date.UTC(2026, 7, 8, 12);
const S = 1000;

test('a server that reads from/to to the second only: the backfill still reads every record of the window', async () => {
  const sim = new SimLogs(T0 + 750);
  sim.timePrecisionMs = 1000;
  sim.autoAnswer = true;
  const zone = 3;
  // a record a second for ten minutes, then a busy last 750 ms: 20 records
  for (let t = T0 - 600 * S; t < T0; t += S) sim.add(zone, t);
  for (let k = 0; k < 20; k++) sim.add(zone, T0 + k * 30);
  const engine = new FollowEngine({
    api: sim.api(),
    zones: [zone],
    sinceMs: 600 * S,
    pageLimit: 50,
    now: sim.now,
    minRecheckMs: 30 * S,
    initialRecheckMs: 30 * S,
    maxRecheckMs: 30 * S,
  });
  engine.start();
  try {
    await until('the backfill', () => engine.status().zones[0]!.backfill?.done);
    // and the re-check owed since the backfill, and one more poll
    for (let p = 0; p < 2; p++) {
      sim.advance(10 * S);
      const sent = sim.sent.length;
      engine.pollNow();
      await until('a poll', () => sim.sent.length > sent);
      await settle();
    }
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    const missing = sim.records(zone).filter((r) => !held.has(r.id));
    assert.deepEqual(
      missing.map((r) => (r.t - T0) / S),
      [],
      'records missing (s from the last whole second)',
    );
  } finally {
    await engine.stop();
  }
});
