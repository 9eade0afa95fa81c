import { ApiError } from '../errors';
import { backoffDelay, type HttpClient } from '../http';
import { RateBudget, type RateBudgetOptions } from '../rate-limit';
import { logPageSchema, parseTimestamp, type LogEntry } from './entry';
import type { Infer } from '../lazy-schema';
import type { CallOptions, LogPage, PageBatch, PageBodyReader, ReadPage, V1Piece } from './page';
import { plainPageReader } from './plain-page-reader';
import { buildLogQuery, type LogQuery } from './query';
import { parseV1Date, type V1ParseResult } from './v1';
import { V1PieceReader, type V1Progress } from './v1-stream';

export * from './entry';
export * from './query';
export * from './v1';
export type { CallOptions, LogPage, LogPageSource, PageBatch, PageBodyReader, ReadPage } from './page';
export type { V1Piece, V1PieceSpec } from './page';
export { V1PieceCutter, V1_PIECE_BYTES, type V1Progress } from './v1-stream';

export interface FetchAllOptions extends CallOptions {
  /** Stop after this many records (default 10000). */
  maxRecords?: number;
  /** Called with each page as it arrives. */
  onPage?: (page: LogPage) => void;
}

export interface V1Options extends CallOptions {
  status?: string;
  search?: string;
  order?: 'asc' | 'desc';
  /** Line offsets: first line (inclusive) and last (exclusive). */
  start?: number;
  end?: number;
}

export interface V1StreamOptions extends V1Options {
  /** Each piece's records in file order, with the counts so far; awaited (a slow consumer slows the download). */
  onPiece: (piece: V1Piece, progress: V1Progress) => void | Promise<void>;
  /** The answer is in: the file's size when the server gave it. */
  onStart?: (progress: V1Progress) => void;
  /** Bytes per piece (default 1 MiB). */
  pieceBytes?: number;
}

/** A streamed day failed after records were handed over: not to be retried. */
class StreamBroken extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

export interface LogsApiOptions {
  /** Shared per-zone budget; by default 28 requests per 10 s per zone (the platform allows 30). */
  budget?: RateBudget;
  budgetOptions?: RateBudgetOptions;
  /**
   * Reads page bodies: the log engine's LogPageReader (worker threads, columns) where the engine
   * runs; without one, bodies are parsed here into objects (plainPageReader).
   */
  pageReader?: PageBodyReader;
  now?: () => number;
  random?: () => number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const cancelled = () => new ApiError({ kind: 'aborted', message: 'log request cancelled' });

/** Worth another try: the same request may well succeed (a garbled body included). */
export function retryable(error: ApiError): boolean {
  return error.transient || error.kind === 'malformed';
}

/**
 * Logging API (`{logging_url}`): v2 JSON queries and v1 day files (the follow engine, in
 * src/log-engine/, follows zones through it: followLogs(api, options)). Every
 * request of a pull zone goes through one RateBudget key, shared by everything using this object.
 */
export class LogsApi {
  readonly budget: RateBudget;
  readonly now: () => number;
  readonly pages: PageBodyReader;
  readonly random: () => number;

  constructor(
    private readonly http: HttpClient,
    options: LogsApiOptions = {},
  ) {
    this.pages = options.pageReader ?? plainPageReader;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.budget = options.budget ?? new RateBudget({ now: this.now, random: this.random, ...options.budgetOptions });
  }

  /** Sends one request for the zone inside its budget, retrying transient failures. */
  private async send<T>(zoneId: number, call: (signal: AbortSignal | undefined, answered: () => void) => Promise<T>, opts: CallOptions): Promise<T> {
    const key = String(zoneId);
    const retries = opts.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const done = await this.budget.acquire(key, opts.signal);
      try {
        // `answered`: the server has counted the request; reading the rest of the answer takes no slot
        const result = await call(opts.signal, done);
        done();
        this.budget.succeeded(key);
        return result;
      } catch (error) {
        done();
        if (!(error instanceof ApiError)) throw error;
        if (error.status === 429) this.budget.rateLimited(key, error.retryAfterMs);
        if (attempt >= retries || !retryable(error) || opts.signal?.aborted) throw error;
        // A 429 already waits in the budget; other failures wait here (full jitter).
        if (error.status !== 429) await sleep(backoffDelay(attempt + 1, 250, 5000, this.random), opts.signal);
      }
    }
  }

  /** One v2 page. Inputs are validated before anything is sent ('invalid-input' ApiError). */
  async query(zoneId: number, q: LogQuery = {}, opts: CallOptions = {}): Promise<LogPage> {
    return this.request(zoneId, q, opts, (body, path) => readLogPage(this.pages, body, path, q.order ?? 'desc'));
  }

  /**
   * One v2 page as the bytes the server sent (200 only), for a reader of its own (the shipper
   * passes the records' bytes on). Same checks, budget and retries as query().
   */
  async queryBytes(zoneId: number, q: LogQuery = {}, opts: CallOptions = {}): Promise<Buffer> {
    return this.request(zoneId, q, opts, async (body) => body);
  }

  private async request<T>(zoneId: number, q: LogQuery, opts: CallOptions, read: (body: Buffer, path: string) => Promise<T>): Promise<T> {
    if (!Number.isSafeInteger(zoneId) || zoneId < 0) {
      throw new ApiError({ kind: 'invalid-input', message: `invalid pull zone id ${zoneId}: a positive whole number` });
    }
    const built = buildLogQuery(q, this.now());
    const path = `/v2/pullzones/${zoneId}/logs`;
    return this.send(
      zoneId,
      async (signal, answered) => {
        // the server counted the request before it answered: the slot's window starts at the headers
        const body = (await this.http.request<Buffer>(path, { query: built.params, signal, expect: 'bytes', onHeaders: answered })).data;
        answered();
        return read(body, path);
      },
      opts,
    );
  }

  /** Pages through a query (offset paging while hasMore), up to maxRecords. */
  async fetchAll(
    zoneId: number,
    q: LogQuery = {},
    opts: FetchAllOptions = {},
  ): Promise<{ entries: LogEntry[]; times: number[]; hasMore: boolean; requests: number }> {
    const max = opts.maxRecords ?? 10_000;
    const entries: LogEntry[] = [];
    const times: number[] = [];
    let offset = q.offset ?? 0;
    let requests = 0;
    let to = q.to;
    for (;;) {
      const limit = Math.min(q.limit ?? 10_000, max - entries.length);
      const page = await this.query(zoneId, { ...q, to, offset, limit }, opts);
      requests++;
      // Pin the window to the server's `to`, so the pages read one fixed window.
      if (to === undefined && page.to !== null) to = page.to;
      opts.onPage?.(page);
      for (let i = 0; i < page.entries.length; i++) {
        entries.push(page.entries[i]!);
        times.push(page.times[i]!);
      }
      offset += page.returned;
      if (!page.hasMore || entries.length >= max) return { entries, times, hasMore: page.hasMore, requests };
      if (page.returned === 0) return { entries, times, hasMore: true, requests };
    }
  }

  /**
   * A v1 day (MM-dd-yy, UTC) read as a stream: `onPiece` gets its records piece by piece (about a
   * MiB of lines each, read in a worker thread), in file order, and is awaited. No limit on the
   * file's size: a day of a busy zone is gigabytes. Retried (inside the zone's budget) until the
   * first piece is handed over, never after. Resolves with the counts when the file is read.
   */
  async v1Stream(zoneId: number, date: string, opts: V1StreamOptions): Promise<V1Progress> {
    if (Number.isNaN(parseV1Date(date))) {
      throw new ApiError({ kind: 'invalid-input', message: `invalid date "${date}": use MM-dd-yy, for example 03-13-24` });
    }
    if (!Number.isSafeInteger(zoneId) || zoneId < 0) throw new ApiError({ kind: 'invalid-input', message: `invalid pull zone id ${zoneId}` });
    const query: Record<string, string> = {};
    if (opts.status) query.status = opts.status;
    if (opts.search) query.search = opts.search;
    if (opts.order) {
      // Clients differ on the name; the platform's docs say `order`, its OpenAPI says `sort`.
      query.order = opts.order;
      query.sort = opts.order;
    }
    if (opts.start !== undefined) query.start = String(opts.start);
    if (opts.end !== undefined) query.end = String(opts.end);
    let delivered = false;
    try {
      return await this.send(
        zoneId,
        async (signal, answered) => {
          const pieces = new V1PieceReader(
            this.pages,
            zoneId,
            async (piece, progress) => {
              delivered = true;
              await opts.onPiece(piece, progress);
            },
            opts.pieceBytes,
          );
          try {
            await this.http.stream(`/${date}/${zoneId}.log`, {
              query,
              signal,
              onHeaders: (headers) => {
                answered();
                const length = Number(headers['content-length']);
                pieces.progress.totalBytes = headers['content-encoding'] === undefined && Number.isFinite(length) && length >= 0 ? length : null;
                opts.onStart?.(pieces.progress);
              },
              onChunk: (chunk) => pieces.push(chunk),
            });
            return await pieces.finish();
          } catch (error) {
            await pieces.abandon();
            // after records were handed over, a retry would hand them over again
            if (delivered && error instanceof ApiError) throw new StreamBroken(error);
            throw error;
          }
        },
        opts,
      );
    } catch (error) {
      throw error instanceof StreamBroken ? error.error : error;
    }
  }

  /** A v1 day, parsed (bad lines counted in `skipped`): every record in memory, for small days and tests. */
  async v1Day(zoneId: number, date: string, opts: V1Options = {}): Promise<V1ParseResult> {
    const entries: LogEntry[] = [];
    const times: number[] = [];
    const done = await this.v1Stream(zoneId, date, {
      ...opts,
      onPiece: (piece) => {
        const records = piece.batch.entries();
        for (let i = 0; i < records.length; i++) {
          entries.push(records[i]!);
          times.push(piece.times[i]!);
        }
      },
    });
    return { entries, times, skipped: done.skipped, problems: done.problems, lines: done.lines };
  }
}

/**
 * A v2 200 body (the bytes as received) as a LogPage: what query() does after the request. Throws
 * a 'malformed' ApiError when the body is not a page.
 */
export async function readLogPage<B extends PageBatch>(
  reader: PageBodyReader<B>,
  bytes: Buffer,
  path: string,
  requestedOrder: 'asc' | 'desc' = 'desc',
): Promise<LogPage<B>> {
  return toPage(await readBody(reader, bytes, path), requestedOrder);
}

/** A 200 body as a page: records read by the page reader, the rest checked by logPageSchema. */
async function readBody<B extends PageBatch>(
  reader: PageBodyReader<B>,
  bytes: Buffer,
  path: string,
): Promise<ReadPage<B> & { body: Infer<typeof logPageSchema> }> {
  const malformed = (message: string) => new ApiError({ kind: 'malformed', status: 200, method: 'GET', path, message });
  const looksHtml = /^\s*</.test(bytes.subarray(0, 64).toString('latin1'));
  let page: ReadPage<B>;
  try {
    page = await reader.read(bytes);
  } catch (error) {
    if (error instanceof SyntaxError)
      throw malformed(`GET ${path} answered 200 with a body that is not JSON${looksHtml ? ' (an HTML page: is the URL right?)' : ''}`);
    throw malformed(`GET ${path}: ${(error as Error).message}`);
  }
  const envelope = page.envelope;
  const checked = (await logPageSchema.load()).safeParse(
    page.hasData && typeof envelope === 'object' && envelope !== null ? { ...envelope, data: [] } : envelope,
  );
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join('.') : 'body';
    throw malformed(`unexpected answer from GET ${path}: ${where}: ${issue?.message ?? 'does not match'}`);
  }
  // not spread: that would build the records' objects (the `entries` getter)
  return Object.assign(page, { body: checked.data });
}

function toPage<B extends PageBatch>(read: ReadPage<B> & { body: Infer<typeof logPageSchema> }, requestedOrder: 'asc' | 'desc'): LogPage<B> {
  const { batch, times, skipped, body } = read;
  const q = body.query;
  const time = (v: string | null | undefined) => {
    if (!v) return null;
    const t = parseTimestamp(v);
    return Number.isNaN(t) ? null : t;
  };
  return {
    batch,
    get entries() {
      return batch.entries();
    },
    times: Array.from(times),
    offset: body.pagination.offset,
    limit: body.pagination.limit,
    returned: body.pagination.returned,
    hasMore: body.pagination.hasMore,
    from: time(q?.from),
    to: time(q?.to),
    order: q?.order === 'asc' || q?.order === 'desc' ? q.order : requestedOrder,
    skipped,
  };
}
