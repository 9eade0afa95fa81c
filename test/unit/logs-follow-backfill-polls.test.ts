import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/log-engine/follow';
import type { LogEntry } from '../../src/api/logs/entry';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import type { LogQuery } from '../../src/api/logs/query';
import { RateBudget } from '../../src/api/rate-limit';
import { until } from '../helpers/wait';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12);

interface Stored {
  t: number;
  visibleAt: number;
  id: string;
}

/** A request id of 32 characters that keeps the name readable. */
const key = (name: string) => `${name}-`.padEnd(32, 'x');

function entry(r: Stored): LogEntry {
  return logEntry({
    timestamp: new Date(r.t).toISOString(),
    requestId: r.id,
    cacheStatus: 'HIT',
    bytesSent: 1,
    scheme: 'https',
    host: 'h',
    path: '/',
    url: 'https://h/',
  });
}

/** A zone's log as the server keeps it: records become visible at their own time, from/to/order/offset honoured. */
function zoneLog(clock: () => number) {
  const records: Stored[] = [];
  const answer = (q: LogQuery): LogPage => {
    const now = clock();
    const from = Number(q.from);
    const to = q.to === undefined ? now : Number(q.to);
    const order = q.order ?? 'desc';
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    const seen = records.filter((r) => r.visibleAt <= now && r.t >= from && r.t < to).sort((a, b) => a.t - b.t || a.id.localeCompare(b.id));
    if (order === 'desc') seen.reverse();
    const page = seen.slice(offset, offset + limit);
    return {
      entries: page.map(entry),
      times: page.map((r) => r.t),
      offset,
      limit,
      returned: page.length,
      hasMore: offset + limit < seen.length,
      from,
      to,
      order,
      skipped: 0,
    };
  };
  return { records, answer };
}

test('while the history is read, polls take only what is past the live end; the first poll after it re-checks behind, so a late record is caught', async () => {
  let now = BASE + 100_000;
  const log = zoneLog(() => now);
  // 1,000 records of history, all visible
  for (let i = 0; i < 1_000; i++) log.records.push({ t: BASE + i * 50, visibleAt: BASE + i * 50, id: key(`old-${i}`) });
  const polls: LogQuery[] = [];
  const history: { q: LogQuery; resolve: (p: LogPage) => void }[] = [];
  let first = true;
  const query = async (_zone: number, q: LogQuery = {}): Promise<LogPage> => {
    await new Promise((r) => setImmediate(r));
    if (q.order === 'asc') {
      polls.push(q);
      return log.answer(q);
    }
    if (first) {
      first = false;
      return log.answer(q);
    }
    // history pages wait until the test lets them through
    return new Promise<LogPage>((resolve) => history.push({ q, resolve }));
  };
  const api = { query, budget: new RateBudget({ limit: 10_000, windowMs: 1000 }), now: () => now } as unknown as LogsApi;
  const engine = new FollowEngine({
    api,
    zones: [1],
    capacity: 10_000,
    pageLimit: 100,
    from: BASE,
    now: () => now,
    backfillDepth: 1,
    minIntervalMs: 20,
    maxIntervalMs: 20,
    minRecheckMs: 2_000,
    initialRecheckMs: 2_000,
    overlapMs: 500,
  });
  engine.start();
  const T0 = BASE + 100_000;
  try {
    await until('a history page asked for', () => history.length === 1);
    // while the history waits: a late record behind the live end (older than what the first page covered) ...
    const late: Stored = { t: T0 - 1_000, visibleAt: T0 + 1_000, id: key('late') };
    log.records.push(late);
    // ... and new records at the live end, while the clock moves on 10 s
    for (let i = 0; i < 10; i++) {
      log.records.push({ t: T0 + i * 1_000, visibleAt: T0 + i * 1_000, id: key(`new-${i}`) });
      now = T0 + (i + 1) * 1_000;
      const n = polls.length;
      await until('a poll', () => polls.length > n);
    }
    const during = polls.slice();
    assert.ok(during.length >= 10);
    assert.equal(Number(during[0]!.from), T0, 'the first poll starts where the first page ended');
    for (let i = 1; i < during.length; i++) assert.ok(Number(during[i]!.from) >= Number(during[i - 1]!.from), 'no poll goes back behind the live end');
    assert.ok(
      engine.buffer.toArray().some((e) => e.requestId === key('new-9')),
      'the live end is shown while the history fills in',
    );
    assert.ok(!engine.buffer.toArray().some((e) => e.requestId === late.id), 'not re-checked yet');
    // the history is let through
    while (!engine.status().zones[0]!.backfill?.done) {
      await until('a history page or the end', () => history.length > 0 || engine.status().zones[0]!.backfill?.done);
      const h = history.shift();
      h?.resolve(log.answer(h.q));
    }
    await until('the late record caught', () => engine.buffer.toArray().some((e) => e.requestId === late.id));
    const z = engine.status().zones[0]!;
    assert.ok(z.late >= 1, 'counted as late');
    // it came 2 s after its time, but was found 11 s after it: that is not a lag to re-check for
    assert.ok(z.ingestLagMs < 2_000, `the lag learnt from the live end only: ${z.ingestLagMs} ms`);
    const recheck = polls.findIndex((q) => Number(q.from) < T0);
    assert.ok(recheck >= during.length, 'no poll re-checked behind the live end while the history was read');
    assert.ok(Number(polls[recheck]!.from) <= T0 - 2_000, `the re-check after the history starts before the first page: ${Number(polls[recheck]!.from) - T0}`);
    assert.equal(engine.buffer.length, 1_000 + 10 + 1, 'every record once');
  } finally {
    const stopping = engine.stop();
    for (const h of history.splice(0)) h.resolve(log.answer(h.q));
    await stopping;
  }
});

test('while the history is read, the live end is polled when about a page of new records is there: the longest interval for a busy zone, up to three times it for a quiet one', async () => {
  // the first page spans 99 spacings and 1 ms (its newest record is 1 ms before now)
  for (const [spacingMs, want] of [
    [5, 1_000],
    [500, 3_000],
    [20, 99 * 20 + 1],
  ] as const) {
    const now = BASE + 100_000;
    const log = zoneLog(() => now);
    // records `spacingMs` apart up to now: the first page of 100 tells the zone's rate
    for (let i = 0; i < 1_000; i++) log.records.push({ t: now - 1 - i * spacingMs, visibleAt: 0, id: key(`r-${i}`) });
    const held: (() => void)[] = [];
    let first = true;
    const query = async (_zone: number, q: LogQuery = {}): Promise<LogPage> => {
      if (!first) await new Promise<void>((r) => held.push(r));
      first = false;
      return log.answer(q);
    };
    const api = { query, budget: new RateBudget({ limit: 10_000, windowMs: 1000 }), now: () => now } as unknown as LogsApi;
    const engine = new FollowEngine({
      api,
      zones: [1],
      capacity: 10_000,
      pageLimit: 100,
      from: BASE,
      now: () => now,
      backfillDepth: 1,
      minIntervalMs: 100,
      maxIntervalMs: 1_000,
    });
    engine.start();
    try {
      await until('a history page asked for', () => held.length > 0);
      const z = engine.status().zones[0]!;
      assert.equal(z.state, 'backfilling');
      // 100 records every 100 x spacing ms: a page of them in that long, between 1 s and 3 s
      assert.equal(z.intervalMs, Math.round(want), `records ${spacingMs} ms apart`);
    } finally {
      const stopping = engine.stop();
      for (const r of held.splice(0)) r();
      await stopping;
    }
  }
});
