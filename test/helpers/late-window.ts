import type { LogEntry } from '../../src/api/logs/entry';
import { FollowEngine } from '../../src/log-engine/follow';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import { RateBudget } from '../../src/api/rate-limit';
import type { LogQuery } from '../../src/api/logs/query';
import { until } from './wait';
import { logEntry } from './log-entry';

/** The start of the fake windows: record n is at BASE + 10 n ms. */
export const WINDOW_BASE = Date.UTC(2026, 7, 8, 12);

/** Record n of a fake window, its request id n in hex. */
export function windowEntry(n: number): LogEntry {
  return logEntry({
    timestamp: new Date(WINDOW_BASE + n * 10).toISOString(),
    requestId: n.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    bytesSent: 1,
    scheme: 'https',
    host: 'h',
    path: '/',
    url: 'https://h/',
  });
}

/**
 * A backfill's window of `records` records as the server sees it now, newest first: `late`
 * records that became visible late land at its top and push the others to higher offsets.
 */
export class LateWindow {
  late = 0;
  readonly to: number;
  /** Queries not answered yet, in the order they were sent. */
  readonly pending: { q: LogQuery; resolve: (p: LogPage) => void }[] = [];
  /** The offset of every query sent. */
  readonly asked: number[] = [];

  constructor(readonly records: number) {
    this.to = WINDOW_BASE + records * 10;
  }

  private lateEntry(k: number): LogEntry {
    return { ...windowEntry(this.records - 1), timestamp: new Date(this.to - 5).toISOString(), requestId: `late-${k}`.padEnd(32, 'x') };
  }

  /**
   * A follow engine (not started) backfilling this window of zone 1 in pages of 5,000, at a time
   * just past its end, with a budget that never waits and no poll before the backfill is done.
   */
  followEngine(): FollowEngine {
    const now = () => this.to + 1000;
    const api = { query: this.query, budget: new RateBudget({ limit: 10_000, windowMs: 1000 }), now } as unknown as LogsApi;
    return new FollowEngine({ api, zones: [1], capacity: 100_000, pageLimit: 5_000, from: WINDOW_BASE, now, minIntervalMs: 60_000, maxIntervalMs: 60_000 });
  }

  /** LogsApi.query: held until the test serves it. */
  readonly query = (_zone: number, q: LogQuery = {}): Promise<LogPage> =>
    new Promise<LogPage>((resolve) => {
      this.asked.push(q.offset ?? 0);
      this.pending.push({ q, resolve });
    });

  /** Answers the query for `offset` now, with the window as it is now (waits for it to be sent). */
  async serve(offset: number): Promise<void> {
    await until(`a request at offset ${offset}`, () => this.pending.some((p) => p.q.offset === offset));
    const i = this.pending.findIndex((p) => p.q.offset === offset);
    const [p] = this.pending.splice(i, 1);
    p!.resolve(this.answer(p!.q));
  }

  /** The page a desc query gets now. */
  answer(q: LogQuery): LogPage {
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    const total = this.late + this.records;
    const entries: LogEntry[] = [];
    for (let i = offset; i < offset + limit && i < total; i++)
      entries.push(i < this.late ? this.lateEntry(this.late - 1 - i) : windowEntry(this.records - 1 - (i - this.late)));
    return {
      entries,
      times: entries.map((e) => Date.parse(e.timestamp)),
      offset,
      limit,
      returned: entries.length,
      hasMore: offset + limit < total,
      from: WINDOW_BASE,
      to: this.to,
      order: 'desc',
      skipped: 0,
    };
  }
}
