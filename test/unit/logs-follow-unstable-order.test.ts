import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import { SimLogs, seededRandom, settle } from '../helpers/sim-logs';

// A server that sorts by time alone may give records of the same millisecond in a different order
// on every answer (a database's parallel reads do; whether the platform's order is stable for
// equal times is not documented). Offset pages then split such a group differently each time: a
// record of it after the end of one page in that page's order can be before the start of the next
// page in the next one's, and neither holds it. The backfill reads every record of a time split
// that way (a request for its second). And a gap read that looked for the record below it used to
// never find it, reach the last page of the window and read that page again, forever: the zone
// stayed "backfilling" (ordered output never released anything) and spent its budget.
// (Groups of one time larger than a page can still lose records: its second is paged by offset
// too. At the platform's 10,000 records a page that is 10,000 requests in one millisecond.)

const T0 = Date.UTC(2026, 7, 8, 12);

test('records of the same time in a new order on every answer: the backfill ends, in a bounded number of requests, with every record', async () => {
  for (let seed = 1; seed <= 4; seed++) {
    const rnd = seededRandom(seed);
    const sim = new SimLogs(T0);
    sim.shuffleTies = rnd;
    sim.autoAnswer = true;
    const zone = 1;
    // 3,000 records on 300 distinct milliseconds: groups of about 10, pages of 37
    for (let i = 0; i < 3000; i++) sim.add(zone, T0 - 600_000 + Math.floor(rnd() * 300) * 2000);
    const engine = new FollowEngine({
      api: sim.api(),
      zones: [zone],
      sinceMs: 601_000,
      pageLimit: 37,
      now: sim.now,
      minIntervalMs: 600_000,
      maxIntervalMs: 600_000,
    });
    engine.start();
    try {
      for (let step = 0; step < 5000 && !engine.status().zones[0]!.backfill?.done; step++) await settle();
      const z = engine.status().zones[0]!;
      assert.ok(z.backfill?.done, `seed ${seed}: the backfill ends (${sim.sent.length} requests so far)`);
      assert.equal(z.state, 'following');
      // about 82 pages of 37 records; gap reads add to that, never without end
      assert.ok(sim.sent.length < 2000, `seed ${seed}: ${sim.sent.length} requests`);
      const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
      const missing = sim.records(zone).filter((r) => !held.has(r.id));
      assert.equal(missing.length, 0, `seed ${seed}: ${missing.length} records missing`);
    } finally {
      await engine.stop();
    }
  }
});
