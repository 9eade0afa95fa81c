import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/api/logs/follow';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import type { LogQuery } from '../../src/api/logs/query';
import { RateBudget } from '../../src/api/rate-limit';
import { until } from '../helpers/wait';
import { LateWindow, WINDOW_BASE as BASE, windowEntry as entry } from '../helpers/late-window';

test('history pages answered before the page above them while late records came: one request reads the gap, the pages after the missed one are taken as they are', async () => {
  const N = 30_000;
  const win = new LateWindow(N);
  const TO = win.to;
  /** The window newest first as the server sees it now: late records land at the top. */
  const answer = (q: LogQuery): LogPage => win.answer(q);
  const { pending, asked, query } = win;
  /** The server answers the request for this offset now (with the window as it is now). */
  const serve = (offset: number) => win.serve(offset);
  const now = () => TO + 1000;
  const api = { query, budget: new RateBudget({ limit: 10_000, windowMs: 1000 }), now } as unknown as LogsApi;
  const engine = new FollowEngine({ api, zones: [1], capacity: 100_000, pageLimit: 5_000, from: BASE, now, minIntervalMs: 60_000, maxIntervalMs: 60_000 });
  engine.start();
  try {
    await serve(0);
    await until('three pages in flight', () => pending.length === 3);
    // the two lower pages are answered first ...
    await serve(9_998);
    await serve(14_997);
    // ... then 100 late records, then the page above them
    win.late = 100;
    await serve(4_999);
    while (!engine.status().zones[0]!.backfill?.done) {
      await until('a request or the end', () => pending.length > 0 || engine.status().zones[0]!.backfill?.done);
      if (pending.length) await serve(Math.min(...pending.map((p) => p.q.offset ?? 0)));
    }
    const twice = [...new Set(asked)].filter((o) => asked.filter((x) => x === o).length > 1);
    assert.deepEqual(twice, [9_998], 'one request for the gap (at the missed page), none for the page after it');
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    const missing: number[] = [];
    for (let n = 0; n < N; n++) if (!held.has(entry(n).requestId)) missing.push(n);
    assert.deepEqual(missing, [], 'every record of the window is held');
    // the late records are at the top of the window: the polls' to read
    assert.equal(engine.buffer.length, N, 'each record once');
  } finally {
    const stopping = engine.stop();
    for (const p of pending.splice(0)) p.resolve(answer(p.q));
    await stopping;
  }
});
