import type { LogEntry } from '../../src/api/logs/entry';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import { toEpochMs, type LogQuery } from '../../src/api/logs/query';
import { RateBudget } from '../../src/api/rate-limit';
import { logEntry } from './log-entry';

/**
 * A simulated v2 logging origin for the follow engine, on a clock the test moves: each zone's
 * records have a time and the time they become visible (the ingestion delay), and every query is
 * answered from what is visible at the moment it is answered, as the platform does: [from, to),
 * ordered by time, offset/limit paging, `to` defaulting to now. Queries are held until the test
 * answers them (in any order), or answered at once with `autoAnswer`.
 */

export interface SimRecord {
  zone: number;
  /** Epoch ms of the record. */
  t: number;
  /** When it becomes visible to queries. */
  visibleAt: number;
  id: string;
}

export interface SimQuery {
  zone: number;
  q: LogQuery;
  resolve: (page: LogPage) => void;
}

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lets an engine react to an answer or a poke: its steps are promise turns, not timers. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
}

export class SimLogs {
  private clock: number;
  private readonly zones = new Map<number, SimRecord[]>();
  private sorted = new Set<number>();
  private serial = 0;
  /** Queries not answered yet, in the order they were sent. */
  readonly pending: SimQuery[] = [];
  /** Every query sent, with its zone. */
  readonly sent: { zone: number; q: LogQuery }[] = [];
  /** Answer each query as it is sent (after a turn of the event loop, as the network would). */
  autoAnswer = false;
  /** Milliseconds the clock moves while a query is being sent (a busy machine). */
  sendCostMs = 0;
  /** How precisely `from` and `to` are read: 1000 for a server that reads them to the second only. */
  timePrecisionMs = 1;
  /**
   * Records of the same millisecond in a new order on every answer (from this generator), as a
   * database sorting by time alone may give them; null: always in the order they were added.
   */
  shuffleTies: (() => number) | null = null;
  readonly budget = new RateBudget({ limit: 1_000_000, windowMs: 1000 });

  constructor(start: number) {
    this.clock = start;
  }

  readonly now = (): number => this.clock;

  advance(ms: number): void {
    this.clock += ms;
  }

  /** Adds a record of `zone` at `t`, visible from `visibleAt` (default: at once). */
  add(zone: number, t: number, visibleAt = t): SimRecord {
    const r: SimRecord = { zone, t, visibleAt, id: `${zone.toString(16)}-${(this.serial++).toString(16)}`.padStart(32, '0') };
    let list = this.zones.get(zone);
    if (!list) this.zones.set(zone, (list = []));
    list.push(r);
    this.sorted.delete(zone);
    return r;
  }

  /** Every record of `zone` with from <= t < to, visible or not, oldest first. */
  records(zone: number, from = Number.NEGATIVE_INFINITY, to = Number.POSITIVE_INFINITY): SimRecord[] {
    return this.ordered(zone).filter((r) => r.t >= from && r.t < to);
  }

  private ordered(zone: number): SimRecord[] {
    const list = this.zones.get(zone) ?? [];
    if (!this.sorted.has(zone)) {
      // by time, then by when the record was added: one stable order on every query
      list.sort((a, b) => a.t - b.t || (a.id < b.id ? -1 : 1));
      this.sorted.add(zone);
    }
    return list;
  }

  /** The LogsApi the engine is given. */
  api(): LogsApi {
    return { query: this.query, budget: this.budget, now: this.now } as unknown as LogsApi;
  }

  readonly query = (zone: number, q: LogQuery = {}): Promise<LogPage> => {
    this.clock += this.sendCostMs;
    this.sent.push({ zone, q });
    return new Promise<LogPage>((resolve) => {
      const held: SimQuery = { zone, q, resolve };
      if (this.autoAnswer) setImmediate(() => resolve(this.answer(held)));
      else this.pending.push(held);
    });
  };

  /** Answers a held query now, with what is visible now. */
  serve(held: SimQuery): void {
    const i = this.pending.indexOf(held);
    if (i >= 0) this.pending.splice(i, 1);
    held.resolve(this.answer(held));
  }

  /** The page a query gets now. */
  answer({ zone, q }: Pick<SimQuery, 'zone' | 'q'>): LogPage {
    const now = this.clock;
    const p = this.timePrecisionMs;
    const to = q.to === undefined ? now : Math.floor(toEpochMs(q.to) / p) * p;
    const from = q.from === undefined ? to - 86_400_000 : Math.floor(toEpochMs(q.from) / p) * p;
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    const visible = this.ordered(zone).filter((r) => r.t >= from && r.t < to && r.visibleAt <= now);
    if (this.shuffleTies) {
      const rnd = this.shuffleTies;
      const key = new Map(visible.map((r) => [r, rnd()]));
      visible.sort((a, b) => a.t - b.t || key.get(a)! - key.get(b)!);
    }
    if (q.order !== 'asc') visible.reverse();
    const slice = visible.slice(offset, offset + limit);
    const entries = slice.map((r) => simEntry(r));
    return {
      entries,
      times: slice.map((r) => r.t),
      offset,
      limit,
      returned: entries.length,
      hasMore: offset + limit < visible.length,
      from,
      to,
      order: q.order === 'asc' ? 'asc' : 'desc',
      skipped: 0,
    };
  }
}

export function simEntry(r: SimRecord): LogEntry {
  return logEntry({
    timestamp: new Date(r.t).toISOString(),
    pullZoneId: r.zone,
    requestId: r.id,
    cacheStatus: 'HIT',
    bytesSent: 1,
    scheme: 'https',
    host: 'h',
    path: '/',
    url: 'https://h/',
  });
}
