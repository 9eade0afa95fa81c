import type { BudgetState } from '../rate-limit';
import type { LogEntry } from './entry';
import type { LogQuery } from './query';

/** One page of v2 results. */
export interface LogPage {
  entries: LogEntry[];
  /** Epoch ms of each entry, same order. */
  times: number[];
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
