import type { BudgetState } from '../rate-limit';
import { entryKey, type LogEntry } from './entry';
import type { LogQuery } from './query';
import type { RecordBatch } from '../../log-engine/record-batch';

/** One page of v2 results. */
export interface LogPage {
  /** The records as objects (on a page read from the platform, built when first read). */
  readonly entries: LogEntry[];
  /** Epoch ms of each entry, same order. */
  times: number[];
  /** The same records as columns, when the page was read by the page reader (the store inserts these). */
  batch?: RecordBatch;
  offset: number;
  limit: number;
  returned: number;
  hasMore: boolean;
  /** The window the server applied (its clock); null when it did not say. */
  from: number | null;
  to: number | null;
  order: 'asc' | 'desc';
  /** Entries in `data` that were not LogEntry objects (left out). */
  skipped: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Retries of transient failures (network, 5xx, 429, unreadable body), each inside the budget. Default 3. */
  retries?: number;
}

/** What the follow engine needs from the logs client: one page at a time, and the zone's budget. */
export interface LogPageSource {
  query(zoneId: number, q: LogQuery, opts: CallOptions): Promise<LogPage>;
  readonly budget: {
    readonly limit: number;
    readonly windowMs: number;
    state(key: string): BudgetState;
  };
}

/** Records on a page (without building objects when it has a batch). */
export function pageLength(page: LogPage): number {
  return page.batch ? page.batch.length : page.entries.length;
}

/** The key of record i of a page (request id, or entryKey's stand-in). */
export function pageKey(page: LogPage, i: number): string {
  return page.batch ? page.batch.key(i) : entryKey(page.entries[i]!);
}

/** The page with only its first `n` records (not spread: that would build a batch's objects). */
export function pageHead(page: LogPage, n: number): LogPage {
  const batch = page.batch?.head(n);
  const entries = batch ? null : page.entries.slice(0, n);
  const head: LogPage = {
    get entries() {
      return entries ?? batch!.entries();
    },
    times: page.times.slice(0, n),
    offset: page.offset,
    limit: page.limit,
    returned: page.returned,
    hasMore: page.hasMore,
    from: page.from,
    to: page.to,
    order: page.order,
    skipped: page.skipped,
  };
  if (batch) head.batch = batch;
  return head;
}
