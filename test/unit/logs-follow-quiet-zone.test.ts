import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import { until } from '../helpers/wait';
import { SimLogs, settle } from '../helpers/sim-logs';

// A quiet zone: a record now and then, each visible only about 50 s after its time (the platform
// says quieter zones can lag minutes). The re-check window learns that lag from the first
// records; an hour without any record is no sign that the lag got shorter, so the next record,
// as late as the others, must still be caught. The window used to shrink on every poll that found
// nothing, down to its minimum (30 s), and that record was never read.

const T0 = Date.UTC(2026, 7, 8, 12);
const S = 1000;
const LAG = 50 * S;

test('a quiet zone keeps the re-check window its lag needs through an hour without records', async () => {
  const sim = new SimLogs(T0);
  const zone = 9;
  // the default cadence (1 s to 10 s); the test polls every 10 s of its clock, before any timer
  const engine = new FollowEngine({ api: sim.api(), zones: [zone], sinceMs: 60 * S, now: sim.now });
  const answerAll = async () => {
    for (;;) {
      await settle();
      const next = sim.pending[0];
      if (!next) return;
      sim.serve(next);
    }
  };
  /** One poll 10 s after the last, answered in full. */
  const pollOnce = async () => {
    sim.advance(10 * S);
    const sent = sim.sent.length;
    engine.pollNow();
    await answerAll();
    assert.ok(sim.sent.length > sent, 'the zone polled');
  };
  engine.start();
  try {
    await until('the backfill page to be sent', () => sim.pending.length > 0);
    await answerAll();
    await until('following', () => engine.status().zones[0]!.state === 'following');
    // the first ten minutes: a record a minute, each visible LAG after its time
    for (let k = 0; k < 10; k++) {
      sim.add(zone, sim.now() + 5 * S, sim.now() + 5 * S + LAG);
      for (let p = 0; p < 6; p++) await pollOnce();
    }
    const learnt = engine.status().zones[0]!.recheckMs;
    assert.ok(learnt > LAG, `the re-check window learnt the lag: ${learnt} ms`);
    // an hour without records
    for (let p = 0; p < 360; p++) await pollOnce();
    // then one more, as late as the others
    const quiet = sim.add(zone, sim.now() + 5 * S, sim.now() + 5 * S + LAG);
    for (let p = 0; p < 12; p++) await pollOnce();
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    assert.ok(held.has(quiet.id), `the record after the quiet hour is held (re-check window ${engine.status().zones[0]!.recheckMs} ms)`);
    assert.equal(held.size, sim.records(zone).length, 'every record of the zone is held');
  } finally {
    const stopping = engine.stop();
    for (const p of [...sim.pending]) sim.serve(p);
    await stopping;
  }
});
