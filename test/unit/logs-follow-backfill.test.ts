import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import type { LogEntry } from '../../src/api/logs/entry';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import type { LogQuery } from '../../src/api/logs/query';
import { RateBudget } from '../../src/api/rate-limit';
import { until } from '../helpers/wait';
import { LateWindow, WINDOW_BASE as BASE, windowEntry as entry } from '../helpers/late-window';

/**
 * A live window answered newest first: before every request `arrivals` newer records appear, so
 * the offsets of the window shift and a page repeats the last records of the one before.
 */
function liveWindow(initial: number, arrivals: number) {
  let newest = initial - 1;
  const requests: LogQuery[] = [];
  const query = async (_zone: number, q: LogQuery = {}): Promise<LogPage> => {
    requests.push(q);
    // an answer takes a turn of the event loop, as one from the network does
    await new Promise((r) => setImmediate(r));
    newest += arrivals;
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    const entries: LogEntry[] = [];
    for (let n = newest - offset; n > newest - offset - limit && n >= 0; n--) entries.push(entry(n));
    const times = entries.map((e) => Date.parse(e.timestamp));
    // the window ends after 200 requests, so an engine that pages one record at a time stops too
    const hasMore = newest - offset - limit >= 0 && requests.length < 200;
    return { entries, times, offset, limit, returned: entries.length, hasMore, from: null, to: BASE + (newest + 1) * 10, order: 'desc', skipped: 0 };
  };
  return { query, requests };
}

test('the backfill stops at the cap in a few requests while new records keep shifting the window (no pages of one record)', async () => {
  const win = liveWindow(50_000, 3);
  const budget = new RateBudget({ limit: 10_000, windowMs: 1000 });
  const api = { query: win.query, budget, now: () => BASE + 600_000 } as unknown as LogsApi;
  const engine = new FollowEngine({
    api,
    zones: [1],
    capacity: 3_000,
    pageLimit: 1_000,
    sinceMs: 3_600_000,
    now: () => BASE + 600_000,
    minIntervalMs: 60_000,
    maxIntervalMs: 60_000,
  });
  engine.start();
  try {
    // the first poll is a minute later
    await until('the backfill to end', () => engine.status().zones[0]!.backfill?.done);
    const z = engine.status().zones[0]!;
    assert.equal(engine.buffer.length, 3_000, 'the buffer is filled to its capacity');
    assert.equal(engine.buffer.dropped, 0, 'nothing was fetched only to be dropped');
    assert.ok(z.backfillTruncated, 'the backfill says it stopped at the cap');
    assert.ok(win.requests.length <= 5, `${win.requests.length} requests for a 3,000-record backfill in pages of 1,000`);
    assert.ok(
      win.requests.every((q) => (q.limit ?? 0) >= 1_000),
      'every page asked for at least 1,000 records',
    );
    // the newest 3,000 distinct records at the time of each page: nothing older than the cut
    const ids = new Set(engine.buffer.toArray().map((e) => e.requestId));
    assert.equal(ids.size, 3_000);
  } finally {
    await engine.stop();
  }
});

test('backfill progress: records, pages, how far back it reached, rate and an estimate of what is left', async () => {
  // 50,000 records 10 ms apart from BASE; the window starts at BASE, so the density is uniform
  const TOTAL = 50_000;
  const now = BASE + TOTAL * 10;
  let elapsed = 0;
  const answered: (() => void)[] = [];
  const query = async (_zone: number, q: LogQuery = {}): Promise<LogPage> => {
    // each answer waits until the test lets it through, one simulated second later
    await new Promise<void>((r) => answered.push(r));
    elapsed += 1000;
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    const entries: LogEntry[] = [];
    for (let n = TOTAL - 1 - offset; n > TOTAL - 1 - offset - limit && n >= 0; n--) entries.push(entry(n));
    const times = entries.map((e) => Date.parse(e.timestamp));
    return { entries, times, offset, limit, returned: entries.length, hasMore: TOTAL - offset - limit > 0, from: BASE, to: now, order: 'desc', skipped: 0 };
  };
  const clock = () => now + elapsed;
  const api = { query, budget: new RateBudget({ limit: 10_000, windowMs: 1000 }), now: clock } as unknown as LogsApi;
  const engine = new FollowEngine({
    api,
    zones: [1],
    capacity: 100_000,
    pageLimit: 5_000,
    from: BASE,
    now: clock,
    minIntervalMs: 60_000,
    maxIntervalMs: 60_000,
  });
  engine.start();
  let done = 0;
  const release = async (pages: number) => {
    for (let i = 0; i < pages; i++) {
      await until('a page asked for', () => answered.length > 0);
      answered.shift()!();
      await until('the page read', () => engine.status().zones[0]!.backfill?.pages === i + 1 + done);
    }
    done += pages;
  };
  try {
    await release(4);
    const mid = engine.status().zones[0]!;
    assert.equal(mid.state, 'backfilling');
    const p = mid.backfill!;
    assert.equal(p.pages, 4);
    // pages overlap by one record (the next page must show it still follows the one before)
    assert.equal(p.records, 19_997);
    assert.equal(p.done, false);
    assert.equal(p.reached, BASE + 30_003 * 10, 'the history from the newest down to record 30,003 is in');
    assert.equal(p.ratePerSecond, 4_999, '19,997 records in 4 simulated seconds');
    assert.ok(Math.abs(p.remaining! - 30_003) <= 5, `about 30,003 left: ${p.remaining}`);
    assert.ok(Math.abs(p.etaMs! - 6_002) <= 10, `6 s at 4,999/s: ${p.etaMs}`);
    assert.equal(engine.buffer.length, 19_997, 'the newest records are there first');
    assert.equal(engine.buffer.time(engine.buffer.length - 1), BASE + (TOTAL - 1) * 10);
    await release(7);
    const end = engine.status().zones[0]!;
    assert.equal(end.state, 'following');
    assert.deepEqual(
      { done: end.backfill!.done, records: end.backfill!.records, pages: end.backfill!.pages, remaining: end.backfill!.remaining, etaMs: end.backfill!.etaMs },
      { done: true, records: TOTAL, pages: 11, remaining: 0, etaMs: 0 },
    );
    assert.equal(engine.buffer.length, TOTAL);
  } finally {
    const stopping = engine.stop();
    for (const r of answered.splice(0)) r();
    await stopping;
  }
});

test('history pages in flight together: one the server answered before the page above it, while late records arrived, is read again (no gap)', async () => {
  const N = 20_000;
  const win = new LateWindow(N);
  const { pending, asked } = win;
  /** The server answers the request for this offset now (with the window as it is now). */
  const serve = (offset: number) => win.serve(offset);
  const engine = win.followEngine();
  engine.start();
  try {
    await serve(0);
    await until('three pages in flight', () => pending.length === 3);
    assert.deepEqual(
      pending.map((p) => p.q.offset),
      [4_999, 9_998, 14_997],
      'pages overlap by one record',
    );
    await serve(9_998); // answered first...
    win.late = 100; // ...then 100 late records become visible at the top of the window...
    await serve(4_999); // ...and the page above it is answered after them
    await serve(9_998); // read again: it must hold the last record of the page above
    while (!engine.status().zones[0]!.backfill?.done) {
      await until('a request or the end', () => pending.length > 0 || engine.status().zones[0]!.backfill?.done);
      if (pending.length) await serve(Math.min(...pending.map((p) => p.q.offset ?? 0)));
    }
    assert.equal(asked.filter((o) => o === 9_998).length, 2, 'the page answered too early was asked again');
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    const missing: number[] = [];
    for (let n = 0; n < N; n++) if (!held.has(entry(n).requestId)) missing.push(n);
    assert.deepEqual(missing, [], 'every record of the window is held');
  } finally {
    const stopping = engine.stop();
    for (const p of pending.splice(0)) p.resolve(win.answer(p.q));
    await stopping;
  }
});
