import type { Dispatcher } from 'undici';
import { loadUndici, type Undici } from '../undici-load';
import { redact, registerSecret } from '../../config/redact';
import { ApiError, apiErrorFromResponse } from '../errors';
import { redactPipelineBody } from './debug-sql';
import { SqlError } from './errors';
import { parseDatabaseUrl, tokenAccess } from './url';
import { decodeValue, encodeArg, type SqlArg, type SqlValue } from './values';

/*
 * Hrana's `/v3/cursor`: one statement whose rows arrive as NDJSON while the server reads them,
 * so a result of any size (an export, a grid that pages on) passes without the 10 MB limit of a
 * pipeline answer and without being held in memory. Rows are handed over in batches as they are
 * decoded; the consumer's pace is the network's (a paused loop stops reading the socket).
 * It runs on a stream of its own: callers use it outside a transaction only.
 */

export type CursorEvent =
  | { type: 'begin'; columns: string[]; decltypes: (string | null)[] }
  | { type: 'rows'; rows: SqlValue[][] }
  | { type: 'end'; rowsAffected: number; lastInsertRowid: bigint | null };

export interface CursorOptions {
  url: string;
  authToken: string | null;
  signal?: AbortSignal;
  /** No byte for this long (headers or body) fails the cursor. */
  idleTimeoutMs?: number;
  debug?: (line: string) => void;
  /** Log SQL literals and text arguments as sent (otherwise shown as '…'). */
  debugSql?: boolean;
}

/** The server has no `/v3/cursor` (404/405): the caller falls back to the pipeline. */
export class CursorUnsupportedError extends ApiError {
  constructor(status: number) {
    super({ kind: 'http', status, code: 'CURSOR_UNSUPPORTED', message: `the database server has no /v3/cursor (HTTP ${status})` });
    this.name = 'CursorUnsupportedError';
  }
}

interface WireColumn {
  name?: unknown;
  decltype?: unknown;
}

function protocolError(message: string): ApiError {
  return new ApiError({ kind: 'malformed', message: `the database server sent a cursor entry burrow cannot read: ${message}` });
}

/** The common values decoded inline; anything else (blobs, odd shapes) through decodeValue. */
function decodeRow(row: unknown): SqlValue[] {
  if (!Array.isArray(row)) throw protocolError('a row is not an array');
  const out = new Array<SqlValue>(row.length);
  for (let i = 0; i < row.length; i++) {
    const v = row[i] as { type?: unknown; value?: unknown };
    if (v.type === 'text' && typeof v.value === 'string') out[i] = v.value;
    else if (v.type === 'integer' && typeof v.value === 'string' && INTEGER.test(v.value)) out[i] = BigInt(v.value);
    else if (v.type === 'float' && typeof v.value === 'number') out[i] = v.value;
    else if (v.type === 'null') out[i] = null;
    else out[i] = decodeValue(v);
  }
  return out;
}

const INTEGER = /^-?\d{1,19}$/;

/** The integer of `last_insert_rowid`, read from the text: sqld writes it as a JSON number that may pass 2^53. */
function rowidFrom(line: string, parsed: unknown): bigint | null {
  if (parsed === null || parsed === undefined) return null;
  const m = /"last_insert_rowid":"?(-?\d+)/.exec(line);
  return m ? BigInt(m[1]!) : null;
}

/**
 * Runs one statement as a cursor and yields its columns, its rows in batches, then its end.
 * A statement error is thrown as SqlError; HTTP failures as ApiError; a server without cursors
 * as CursorUnsupportedError (before anything is yielded).
 */
export async function* cursorStatement(options: CursorOptions, sql: string, args: SqlArg[] = []): AsyncGenerator<CursorEvent, void, void> {
  const target = parseDatabaseUrl(options.url, options.authToken);
  registerSecret(target.authToken);
  const readOnlyToken = tokenAccess(target.authToken) === 'read-only';
  const undici = await loadUndici();
  const dispatcher = new undici.Agent({ keepAliveTimeout: 1000 });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'burrow', accept: 'text/plain, application/json' };
  if (target.authToken) headers.authorization = `Bearer ${target.authToken}`;
  const idle = options.idleTimeoutMs ?? 300_000;
  const body = JSON.stringify({ baton: null, batch: { steps: [{ stmt: { sql, args: args.map(encodeArg), want_rows: true } }] } });
  const url = `${target.baseUrl}v3/cursor`;
  const shown = options.debugSql ? body : JSON.stringify(redactPipelineBody(JSON.parse(body)));
  options.debug?.(redact(`-> POST ${url} (cursor) body=${shown.slice(0, 500)}`));
  const started = Date.now();
  let baton: string | null = null;
  let res: Dispatcher.ResponseData;
  try {
    res = await undici.request(url, { method: 'POST', headers, body, dispatcher, signal: options.signal, headersTimeout: idle, bodyTimeout: idle });
  } catch (error) {
    await dispatcher.close().catch(() => undefined);
    throw networkError(error, options.signal);
  }
  try {
    if (res.statusCode === 404 || res.statusCode === 405) {
      await res.body.dump();
      throw new CursorUnsupportedError(res.statusCode);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const text = await res.body.text();
      const type = res.headers['content-type'];
      throw apiErrorFromResponse(res.statusCode, typeof type === 'string' ? type : null, text, { method: 'POST', path: '/v3/cursor' });
    }
    res.body.setEncoding('utf8');
    let pending = '';
    let rowCount = 0;
    let first = true;
    const entry = (e: Record<string, unknown>, line: string): CursorEvent | null => {
      switch (e.type) {
        case 'step_begin': {
          const cols = Array.isArray(e.cols) ? (e.cols as WireColumn[]) : [];
          return {
            type: 'begin',
            columns: cols.map((c) => (typeof c.name === 'string' ? c.name : '')),
            decltypes: cols.map((c) => (typeof c.decltype === 'string' ? c.decltype : null)),
          };
        }
        case 'step_end':
          return {
            type: 'end',
            rowsAffected: typeof e.affected_row_count === 'number' ? e.affected_row_count : 0,
            lastInsertRowid: rowidFrom(line, e.last_insert_rowid),
          };
        case 'step_error':
        case 'error': {
          const err = (e.error ?? {}) as { message?: unknown; code?: unknown };
          throw new SqlError(
            typeof err.message === 'string' ? err.message : 'the statement failed',
            typeof err.code === 'string' ? err.code : null,
            readOnlyToken,
          );
        }
        default:
          // replication_index, and entries of later protocol versions
          return null;
      }
    };
    for await (const chunk of res.body as AsyncIterable<string>) {
      pending += chunk;
      const last = pending.lastIndexOf('\n');
      if (last === -1) continue;
      let text = pending.slice(0, last);
      pending = pending.slice(last + 1);
      if (first) {
        first = false;
        const nl = text.indexOf('\n');
        const head = JSON.parse(nl === -1 ? text : text.slice(0, nl)) as { baton?: unknown };
        baton = typeof head.baton === 'string' ? head.baton : null;
        if (nl === -1) continue;
        text = text.slice(nl + 1);
      }
      // every complete line of the chunk in one JSON.parse: much faster than one parse per row
      let entries: Record<string, unknown>[];
      try {
        entries = JSON.parse(`[${text.replaceAll('\n', ',')}]`) as Record<string, unknown>[];
      } catch {
        throw protocolError(`not NDJSON: ${text.slice(0, 80)}`);
      }
      let rows: SqlValue[][] = [];
      let stepEndAt = 0;
      for (const e of entries) {
        if (e.type === 'row') {
          rows.push(decodeRow(e.row));
          continue;
        }
        if (rows.length) yield { type: 'rows', rows };
        rowCount += rows.length;
        rows = [];
        let line = '';
        if (e.type === 'step_end') {
          // the k-th step_end of the text is this one
          const at = text.indexOf('{"type":"step_end"', stepEndAt);
          const end = at === -1 ? -1 : text.indexOf('\n', at);
          line = at === -1 ? '' : text.slice(at, end === -1 ? undefined : end);
          stepEndAt = at === -1 ? stepEndAt : at + 1;
        }
        const ev = entry(e, line);
        if (ev) yield ev;
      }
      rowCount += rows.length;
      if (rows.length) yield { type: 'rows', rows };
    }
    options.debug?.(`<- 200 POST /v3/cursor ${Date.now() - started}ms ${rowCount} rows`);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw networkError(error, options.signal);
  } finally {
    res.body.destroy();
    // the cursor's stream stays open on the server until closed
    if (baton !== null) await closeStream(undici, dispatcher, target.baseUrl, headers, baton);
    await dispatcher.close().catch(() => undefined);
  }
}

async function closeStream(undici: Undici, dispatcher: Dispatcher, baseUrl: string, headers: Record<string, string>, baton: string): Promise<void> {
  try {
    const res = await undici.request(`${baseUrl}v3/pipeline`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ baton, requests: [{ type: 'close' }] }),
      dispatcher,
      headersTimeout: 5000,
      bodyTimeout: 5000,
    });
    await res.body.dump();
  } catch {
    // the server drops an idle stream by itself
  }
}

function networkError(error: unknown, signal: AbortSignal | undefined): ApiError {
  if (signal?.aborted) return new ApiError({ kind: 'aborted', message: 'cancelled' });
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError({ kind: 'network', message: `the database cursor failed: ${redact(message)}` });
}
