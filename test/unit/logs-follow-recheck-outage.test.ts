import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import { toEpochMs } from '../../src/api/logs/query';
import { until } from '../helpers/wait';
import { SimLogs, settle } from '../helpers/sim-logs';

// A record that comes late by less than the re-check window is caught by the next full re-check,
// even when the poll between the two re-checks was one that reads only the overlap and was
// answered long after it was sent (an outage retried, a slow origin): that poll moved the end
// of what was read past the outage, and the full re-check used to start only a re-check window
// behind that end, past the late record's time.

const T0 = Date.UTC(2026, 7, 8, 12);
const S = 1000;

test('a late record is caught by the full re-check after an overlap-only poll answered a minute late', async () => {
  const sim = new SimLogs(T0);
  const zone = 7;
  // the backfill's one page: a few records of the last minute
  for (let k = 1; k <= 5; k++) sim.add(zone, T0 - k * 10 * S);
  // a busy second after the start: the first poll's window holds more than a page
  for (let k = 0; k < 12; k++) sim.add(zone, T0 + 50 + k * 50);
  // 6 s old, visible only after 8 s: late by less than the re-check window (30 s)
  const late = sim.add(zone, T0 - 6 * S, T0 + 2 * S);
  const engine = new FollowEngine({
    api: sim.api(),
    zones: [zone],
    sinceMs: 60 * S,
    pageLimit: 10,
    now: sim.now,
    // polls only when the test says; a fixed re-check of 30 s
    minIntervalMs: 600 * S,
    maxIntervalMs: 600 * S,
    minRecheckMs: 30 * S,
    initialRecheckMs: 30 * S,
    maxRecheckMs: 30 * S,
    overlapMs: 5 * S,
    fullRecheckEveryMs: 10 * S,
  });
  const answerAll = async () => {
    for (;;) {
      await settle();
      const next = sim.pending[0];
      if (!next) return;
      sim.serve(next);
    }
  };
  const poll = async (at: number) => {
    sim.advance(at - sim.now());
    const sent = sim.sent.length;
    engine.pollNow();
    await until('the poll to be sent', () => sim.sent.length > sent);
  };
  engine.start();
  try {
    await until('the backfill page to be sent', () => sim.pending.length > 0);
    await answerAll();
    await until('following', () => engine.status().zones[0]!.state === 'following');
    // a full re-check 1 s after the start; the late record is not visible yet
    await poll(T0 + 1 * S);
    await answerAll();
    // 3 s after the start: the last window held more than a page and the full re-check was 2 s
    // ago, so this poll reads only the overlap (5 s); the origin answers it a minute later
    await poll(T0 + 3 * S);
    assert.equal(toEpochMs(sim.sent.at(-1)!.q.from!), T0 - 4 * S, 'the poll reads from the overlap before the end of the last one');
    sim.advance(57 * S);
    await answerAll();
    // full re-checks again, a few seconds apart
    for (const at of [T0 + 61 * S, T0 + 72 * S, T0 + 83 * S]) {
      await poll(at);
      await answerAll();
    }
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    assert.ok(held.has(late.id), 'the record 6 s old that came 8 s late is held');
    assert.equal(held.size, sim.records(zone).length, 'every record of the zone is held');
  } finally {
    const stopping = engine.stop();
    for (const p of [...sim.pending]) sim.serve(p);
    await stopping;
  }
});
