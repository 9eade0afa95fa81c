import type { BudgetState } from '../rate-limit';
import { entryKey, type LogEntry } from './entry';
import type { LogQuery } from './query';

/** One page of v2 results (`B`: how its records are kept as columns, when they are). */
export interface LogPage<B extends PageBatch = PageBatch> {
  /** The records as objects (on a page read from the platform, built when first read). */
  readonly entries: LogEntry[];
  /** Epoch ms of each entry, same order. */
  times: number[];
  /** The same records as columns, when the page body reader made them (the log store inserts these). */
  batch?: B;
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

/** A page's records as the page body reader keeps them (the log engine's RecordBatch: columns). */
export interface PageBatch {
  readonly length: number;
  /** The key of record i (request id, or entryKey's stand-in). */
  key(i: number): string;
  /** The first n records. */
  head(n: number): PageBatch;
  /** Every record as a LogEntry. */
  entries(): LogEntry[];
}

/** A v2 page body read into records. */
export interface ReadPage<B extends PageBatch = PageBatch> {
  /** The records (as columns when the reader makes them). */
  batch: B;
  /** The records as objects (built when first read). */
  readonly entries: LogEntry[];
  /** Epoch ms of each record. */
  times: Float64Array;
  /** Elements of `data` that were not LogEntry objects (left out). */
  skipped: number;
  /** The body without its `data` array, parsed (the whole body when it has no data array). */
  envelope: unknown;
  /** Whether the body had a `data` array (its records are `entries`). */
  hasData: boolean;
}

/**
 * Reads v2 page bodies into records; rejects with a SyntaxError when a body is not JSON. The log
 * engine's LogPageReader is one (worker threads, columns); LogsApi takes one by injection.
 */
export interface PageBodyReader<B extends PageBatch = PageBatch> {
  read(body: string | Uint8Array): Promise<ReadPage<B>>;
  /** A piece of a v1 day (whole lines, UTF-8) read into records. */
  readV1(bytes: Uint8Array, spec: V1PieceSpec): Promise<V1Piece<B>>;
}

/** How a piece of a v1 day is to be read: its zone, the number of its first line, problems still wanted. */
export interface V1PieceSpec {
  zoneId: number;
  firstLine: number;
  problemRoom: number;
}

/** A piece of a v1 day read into records, with its line counts. */
export interface V1Piece<B extends PageBatch = PageBatch> {
  batch: B;
  times: Float64Array;
  /** Non-blank lines. */
  lines: number;
  skipped: number;
  problems: { line: number; reason: string }[];
  /** Lines ended in the piece (blank ones too). */
  lineEnds: number;
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
