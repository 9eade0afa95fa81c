import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FollowEngine } from '../../src/api/logs/follow';
import type { LogEntry } from '../../src/api/logs/entry';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import type { LogQuery } from '../../src/api/logs/query';
import { RateBudget } from '../../src/api/rate-limit';
import { until } from '../helpers/wait';

const BASE = Date.UTC(2026, 7, 8, 12);

function entry(n: number): LogEntry {
  return {
    timestamp: new Date(BASE + n * 10).toISOString(), pullZoneId: 1, requestId: n.toString(16).padStart(32, '0'), cacheStatus: 'HIT', statusCode: 200,
    bytesSent: 1, remoteIp: null, countryCode: null, edgeLocation: null, scheme: 'https', host: 'h', path: '/', url: 'https://h/', userAgent: null,
    referer: null, bodyBytesSent: null, contentRange: null, authorizationHeader: null, ja4Fingerprint: null, asn: null, asnOrganization: null,
  };
}

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
  const engine = new FollowEngine({ api, zones: [1], capacity: 3_000, pageLimit: 1_000, sinceMs: 3_600_000, now: () => BASE + 600_000, minIntervalMs: 60_000, maxIntervalMs: 60_000 });
  engine.start();
  try {
    // the backfill is over when the zone knows what it covered (the first poll is a minute later)
    await until('the backfill to end', () => engine.status().zones[0]!.coveredTo !== null);
    const z = engine.status().zones[0]!;
    assert.equal(engine.buffer.length, 3_000, 'the buffer is filled to its capacity');
    assert.equal(engine.buffer.dropped, 0, 'nothing was fetched only to be dropped');
    assert.ok(z.backfillTruncated, 'the backfill says it stopped at the cap');
    assert.ok(win.requests.length <= 5, `${win.requests.length} requests for a 3,000-record backfill in pages of 1,000`);
    assert.ok(win.requests.every((q) => (q.limit ?? 0) >= 1_000), 'every page asked for at least 1,000 records');
    // the newest 3,000 distinct records at the time of each page: nothing older than the cut
    const ids = new Set(engine.buffer.toArray().map((e) => e.requestId));
    assert.equal(ids.size, 3_000);
  } finally {
    await engine.stop();
  }
});
