import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import type { LogQuery } from '../../src/api/logs/query';
import { RateBudget } from '../../src/api/rate-limit';
import { until } from '../helpers/wait';
import { LateWindow, WINDOW_BASE as BASE, windowEntry as entry } from '../helpers/late-window';

// The backfill against a server that answers its pages in any order while late records keep
// landing at the top of the window: whatever the order, every record of the window is held once.

/** mulberry32: a small seeded generator, so a failing order can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function backfillInRandomOrder(seed: number): Promise<{ missing: number[]; held: number; requests: number }> {
  const rnd = random(seed);
  const N = 4_000 + Math.floor(rnd() * 4_000);
  const win = new LateWindow(N);
  const TO = win.to;
  /** The window newest first as the server sees it now: late records land at the top. */
  const answer = (q: LogQuery): LogPage => win.answer(q);
  const { pending, query } = win;
  const now = () => TO + 1000;
  const api = { query, budget: new RateBudget({ limit: 100_000, windowMs: 1000 }), now } as unknown as LogsApi;
  const pageLimit = 200 + Math.floor(rnd() * 400);
  const engine = new FollowEngine({ api, zones: [1], capacity: 100_000, pageLimit, from: BASE, now, minIntervalMs: 600_000, maxIntervalMs: 600_000 });
  engine.start();
  try {
    while (!engine.status().zones[0]!.backfill?.done) {
      await until('a request or the end', () => pending.length > 0 || engine.status().zones[0]!.backfill?.done === true);
      if (!pending.length) break;
      // a backfill page (desc) in any order; late records arrive between answers
      if (rnd() < 0.5) win.late += Math.floor(rnd() * pageLimit * 0.6);
      const history = pending.filter((p) => p.q.order === 'desc');
      const pick = history.length ? history[Math.floor(rnd() * history.length)]! : pending[0]!;
      pending.splice(pending.indexOf(pick), 1);
      pick.resolve(answer(pick.q));
    }
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    const missing: number[] = [];
    for (let n = 0; n < N; n++) if (!held.has(entry(n).requestId)) missing.push(n);
    return { missing, held: engine.buffer.length, requests: win.asked.length };
  } finally {
    const stopping = engine.stop();
    for (const p of pending.splice(0)) p.resolve(answer(p.q));
    await stopping;
  }
}

test('backfill pages answered in random orders while late records arrive: every record of the window held once (40 seeded orders)', async () => {
  for (let seed = 1; seed <= 40; seed++) {
    const r = await backfillInRandomOrder(seed);
    assert.deepEqual(r.missing.slice(0, 10), [], `seed ${seed}: ${r.missing.length} records of the window missing (${r.requests} requests)`);
  }
});
