import { HttpClient } from '../http';
import { ApiError } from '../errors';
import { registerSecret } from '../../config/redact';
import { redactPipelineBody } from './debug-sql';
import { SqlError, StreamLostError, type StreamLoss } from './errors';
import {
  decodePipeline,
  ProtocolViolation,
  type DescribeInfo,
  type PipelineAnswer,
  type RawStmt,
  type StatementResult,
  type WireRequest,
  type WireResult,
} from './protocol';
import { leadingTokens, type SqlStatement } from './split';
import { parseDatabaseUrl, tokenAccess } from './url';
import { encodeArg, ValueError, type SqlArg } from './values';

export interface DatabaseSessionOptions {
  /** libsql://, https:// or http:// URL; a `?authToken=` in it wins over `authToken`. */
  url: string;
  authToken?: string | null;
  /** While a transaction is open, a cheap request this often keeps the stream alive (sqld drops it after 10 s idle). */
  keepAliveMs?: number;
  /** Per HTTP request; a cancelled query should use the signal instead. */
  requestTimeoutMs?: number;
  /** 'auto' tries /v3/pipeline first and falls back to /v2 when the server has no v3. */
  protocol?: 'auto' | 2 | 3;
  /** At most this many statements go in one pipeline request when running a script. */
  statementsPerRequest?: number;
  debug?: (line: string) => void;
  /** The debug lines show string and blob literals and arguments as sent (else they are hidden). */
  debugSql?: boolean;
  now?: () => number;
}

export interface SessionStatus {
  url: string;
  protocol: 2 | 3 | null;
  tokenAccess: 'read-only' | 'full-access' | null;
  /** The server holds a stream (and its connection) for this session. */
  streamOpen: boolean;
  /** Set while a transaction is open: when it began (ms since the epoch). */
  transaction: { since: number } | null;
  /** The last loss of the stream with a transaction in it; cleared by the next successful request. */
  lost: StreamLoss | null;
  /** True when `lost` was found by the keep-alive and no call has reported it yet. */
  lossPending: boolean;
  busy: boolean;
  closed: boolean;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Each statement's result, in order, as soon as its request comes back. */
  onResult?: (index: number, result: StatementResult) => void | Promise<void>;
  /** Keep every result in the outcome (default: only when there is no onResult). */
  keepResults?: boolean;
}

export interface RunOutcome {
  /** Statements that ran successfully. */
  ran: number;
  results: StatementResult[];
  /** The first statement that failed; the ones after it did not run. */
  failed: { index: number; error: ApiError } | null;
}

type Outcome = { sql: string; ok: boolean; code: string | null };

const STREAM_GONE = /baton|stream/i;
const ROLLBACK_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_NOMEM', 'SQLITE_INTERRUPT']);
const MAX_REQUEST_SQL = 512 * 1024;
const DEBUG_BODY_CHARS = 4000;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function unquote(name: string): string {
  const m = /^(["'`[])(.*)[\]"'`]$/s.exec(name);
  return (m ? m[2]! : name).toLowerCase();
}

/**
 * One database session over Hrana-over-HTTP: a single server stream carried by the baton, so
 * BEGIN ... COMMIT and savepoints work across separate calls. Requests never overlap (the baton is
 * single-use). While a transaction is open the stream is kept alive; if the server drops it anyway
 * the session says so (StreamLostError, status.lost) and carries on with a fresh stream.
 */
export class DatabaseSession {
  readonly url: string;
  readonly tokenAccess: 'read-only' | 'full-access' | null;
  private http: HttpClient;
  private readonly token: string | null;
  private readonly opts: Required<Omit<DatabaseSessionOptions, 'url' | 'authToken' | 'debug' | 'now'>> & Pick<DatabaseSessionOptions, 'debug'>;
  private readonly now: () => number;
  private baton: string | null = null;
  private version: 2 | 3 | null;
  private txSince: number | null = null;
  private savepoints: string[] = [];
  private txBySavepoint = false;
  private lastLoss: StreamLoss | null = null;
  private pendingLoss = false;
  private queue: Promise<unknown> = Promise.resolve();
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly listeners = new Set<(s: SessionStatus) => void>();

  constructor(options: DatabaseSessionOptions) {
    const target = parseDatabaseUrl(options.url, options.authToken ?? null);
    this.url = target.displayUrl;
    this.token = target.authToken;
    registerSecret(this.token);
    this.tokenAccess = tokenAccess(this.token);
    this.now = options.now ?? Date.now;
    this.opts = {
      keepAliveMs: options.keepAliveMs ?? 4000,
      requestTimeoutMs: options.requestTimeoutMs ?? 300_000,
      protocol: options.protocol ?? 'auto',
      statementsPerRequest: Math.max(1, options.statementsPerRequest ?? 25),
      debug: options.debug,
      debugSql: options.debugSql ?? false,
    };
    this.version = this.opts.protocol === 'auto' ? null : this.opts.protocol;
    this.http = this.client(target.baseUrl);
  }

  private client(baseUrl: string): HttpClient {
    const token = this.token;
    return new HttpClient({
      baseUrl,
      auth: (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {}),
      requestTimeoutMs: this.opts.requestTimeoutMs,
      maxRetries: 0,
      debug: this.opts.debug,
      debugBody: (body) => cut(JSON.stringify(this.opts.debugSql ? body : redactPipelineBody(body)), DEBUG_BODY_CHARS),
    });
  }

  status(): SessionStatus {
    return {
      url: this.url,
      protocol: this.version,
      tokenAccess: this.tokenAccess,
      streamOpen: this.baton !== null,
      transaction: this.txSince === null ? null : { since: this.txSince },
      lost: this.lastLoss,
      lossPending: this.pendingLoss,
      busy: this.inFlight > 0,
      closed: this.closed,
    };
  }

  /** Called on every change of status (transaction opened or closed, stream lost, busy...). */
  subscribe(listener: (s: SessionStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** When the open transaction began, or null. */
  get transactionSince(): number | null {
    return this.txSince;
  }

  /** Forgets a loss found by the keep-alive without failing the next call (the UI has shown it). */
  acknowledgeLoss(): void {
    if (!this.pendingLoss) return;
    this.pendingLoss = false;
    this.emit();
  }

  /** Runs one statement (with positional or named arguments) on the session's stream. */
  execute(sql: string, args: SqlArg[] | Record<string, SqlArg> = [], options: { signal?: AbortSignal } = {}): Promise<StatementResult> {
    return this.exclusive(async () => {
      this.ready();
      const [result] = await this.send([{ type: 'execute', stmt: this.stmt(sql, args) }], [sql], options.signal);
      return this.single(result!);
    });
  }

  /**
   * Runs statements in order on the stream and stops at the first error. Several statements go in
   * one request (a batch whose steps each need the previous one to succeed).
   */
  run(statements: readonly (string | SqlStatement)[], options: RunOptions = {}): Promise<RunOutcome> {
    return this.exclusive(async () => {
      this.ready();
      const texts = statements.map((s) => (typeof s === 'string' ? s : s.text));
      const keep = options.keepResults ?? !options.onResult;
      const outcome: RunOutcome = { ran: 0, results: [], failed: null };
      const deliver = async (index: number, result: StatementResult) => {
        outcome.ran++;
        if (keep) outcome.results.push(result);
        await options.onResult?.(index, result);
      };
      let i = 0;
      while (i < texts.length && !outcome.failed) {
        const chunk: string[] = [];
        let size = 0;
        while (
          i + chunk.length < texts.length &&
          chunk.length < this.opts.statementsPerRequest &&
          (chunk.length === 0 || size + texts[i + chunk.length]!.length <= MAX_REQUEST_SQL)
        ) {
          size += texts[i + chunk.length]!.length;
          chunk.push(texts[i + chunk.length]!);
        }
        const base = i;
        i += chunk.length;
        if (chunk.length === 1) {
          const [r] = await this.send([{ type: 'execute', stmt: this.stmt(chunk[0]!, []) }], chunk, options.signal);
          try {
            await deliver(base, this.single(r!));
          } catch (error) {
            if (!(error instanceof SqlError)) throw error;
            outcome.failed = { index: base, error };
          }
          continue;
        }
        const steps = chunk.map((sql, k) => ({ ...(k ? { condition: { type: 'ok', step: k - 1 } } : {}), stmt: this.stmt(sql, []) }));
        const [r] = await this.send([{ type: 'batch', batch: { steps } }], chunk, options.signal, true);
        if (!r!.ok) {
          // sqld refuses a whole batch when one statement does not parse, before running any:
          // run them one at a time to find which
          for (let k = 0; k < chunk.length && !outcome.failed; k++) {
            const [one] = await this.send([{ type: 'execute', stmt: this.stmt(chunk[k]!, []) }], [chunk[k]!], options.signal);
            try {
              await deliver(base + k, this.single(one!));
            } catch (error) {
              if (!(error instanceof SqlError)) throw error;
              outcome.failed = { index: base + k, error };
            }
          }
          continue;
        }
        const batch = r!.response;
        if (batch.type !== 'batch') throw this.malformed('a batch answer of another type');
        for (let k = 0; k < chunk.length; k++) {
          const res = batch.stepResults[k];
          const err = batch.stepErrors[k];
          if (res) await deliver(base + k, res);
          else {
            const e = err ?? { message: 'the server skipped this statement', code: null };
            outcome.failed = { index: base + k, error: new SqlError(e.message, e.code, this.tokenAccess === 'read-only') };
            break;
          }
        }
      }
      return outcome;
    });
  }

  /** Parameters and result columns of a statement, without running it. */
  describe(sql: string, options: { signal?: AbortSignal } = {}): Promise<DescribeInfo> {
    return this.exclusive(async () => {
      this.ready();
      const [r] = await this.send([{ type: 'describe', sql }], [], options.signal);
      if (!r!.ok) throw new SqlError(r!.error.message, r!.error.code, this.tokenAccess === 'read-only');
      if (r!.response.type !== 'describe') throw this.malformed('a describe answer of another type');
      return r!.response.result;
    });
  }

  commit(options: { signal?: AbortSignal } = {}): Promise<StatementResult> {
    return this.execute('COMMIT', [], options);
  }

  rollback(options: { signal?: AbortSignal } = {}): Promise<StatementResult> {
    return this.execute('ROLLBACK', [], options);
  }

  /** Closes the stream (the server rolls back an open transaction) and the connection pool. */
  close(): Promise<{ rolledBack: boolean }> {
    return this.exclusive(async () => {
      if (this.closed) return { rolledBack: false };
      this.clearTimer();
      const rolledBack = this.txSince !== null;
      if (this.baton !== null) {
        try {
          await this.pipelineOnce([{ type: 'close' }], AbortSignal.timeout(5000), false);
        } catch {
          // the server drops the stream on its own after the idle timeout
        }
      }
      this.baton = null;
      this.setTx(null);
      this.closed = true;
      this.emit();
      await this.http.close();
      return { rolledBack };
    });
  }

  // ---------------------------------------------------------------- internals

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      this.inFlight++;
      this.emit();
      try {
        return await fn();
      } finally {
        this.inFlight--;
        this.schedule();
        this.emit();
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private ready(): void {
    if (this.closed) throw new ApiError({ kind: 'invalid-input', message: 'the database session is closed' });
    if (this.pendingLoss && this.lastLoss) {
      this.pendingLoss = false;
      throw new StreamLostError(this.lastLoss);
    }
  }

  private stmt(sql: string, args: SqlArg[] | Record<string, SqlArg>): RawStmt {
    try {
      if (Array.isArray(args)) return { sql, args: args.map(encodeArg), want_rows: true };
      const named = Object.entries(args).map(([name, value]) => ({ name, value: encodeArg(value) }));
      return { sql, args: [], named_args: named, want_rows: true };
    } catch (error) {
      if (error instanceof ValueError) throw new ApiError({ kind: 'invalid-input', message: error.message });
      throw error;
    }
  }

  private single(r: WireResult): StatementResult {
    if (!r.ok) throw new SqlError(r.error.message, r.error.code, this.tokenAccess === 'read-only');
    if (r.response.type !== 'execute') throw this.malformed(`an answer of type ${r.response.type} to an execute`);
    return r.response.result;
  }

  private malformed(what: string): ApiError {
    return new ApiError({ kind: 'malformed', message: `unexpected answer from the database: ${what}` });
  }

  /**
   * Sends requests on the stream and keeps the transaction state right. A stream the server no
   * longer knows is replaced silently when no transaction was open (nothing ran), and reported
   * as a loss when one was.
   */
  private async send(requests: WireRequest[], sqls: string[], signal?: AbortSignal, batch = false): Promise<WireResult[]> {
    const started = this.now();
    let answer: PipelineAnswer & { autocommit: boolean | null };
    try {
      answer = await this.pipelineOnce(requests, signal, sqls.length > 0);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const verdict = await this.afterFailure(error);
      if (verdict === 'retry') answer = await this.pipelineOnce(requests, signal, sqls.length > 0);
      else throw verdict;
    }
    const elapsed = this.now() - started;
    this.lastLoss = null;
    // statements without a server timing share the round trip
    const share = Math.max(0, elapsed / Math.max(1, sqls.length));
    for (const r of answer.results) {
      if (!r.ok) continue;
      if (r.response.type === 'execute' && Number.isNaN(r.response.result.durationMs)) r.response.result.durationMs = share;
      if (r.response.type === 'batch') for (const s of r.response.stepResults) if (s && Number.isNaN(s.durationMs)) s.durationMs = share;
    }
    if (answer.autocommit !== null) {
      this.setTx(answer.autocommit ? null : (this.txSince ?? this.now()));
    } else if (sqls.length) {
      this.infer(this.outcomes(answer.results, sqls, batch));
    }
    return answer.results;
  }

  private outcomes(results: WireResult[], sqls: string[], batch: boolean): Outcome[] {
    const r = results[0];
    if (!r) return [];
    if (!batch) return [{ sql: sqls[0]!, ok: r.ok, code: r.ok ? null : r.error.code }];
    if (!r.ok || r.response.type !== 'batch') return [];
    const out: Outcome[] = [];
    const { stepResults, stepErrors } = r.response;
    for (let k = 0; k < sqls.length; k++) {
      if (stepResults[k]) out.push({ sql: sqls[k]!, ok: true, code: null });
      else if (stepErrors[k]) out.push({ sql: sqls[k]!, ok: false, code: stepErrors[k]!.code });
    }
    return out;
  }

  /** Protocol v2 has no get_autocommit: follow BEGIN/COMMIT/ROLLBACK/SAVEPOINT/RELEASE instead. */
  private infer(outcomes: Outcome[]): void {
    for (const o of outcomes) {
      const words = leadingTokens(o.sql, 5);
      const up = words.map((w) => w.toUpperCase());
      const verb = up[0] ?? '';
      // ROLLBACK [TRANSACTION] [TO [SAVEPOINT] name]
      let j = 1;
      if (verb === 'ROLLBACK' && up[j] === 'TRANSACTION') j++;
      const rollbackTo = verb === 'ROLLBACK' && up[j] === 'TO';
      if (!o.ok) {
        if ((o.code && ROLLBACK_CODES.has(o.code)) || (verb === 'ROLLBACK' && !rollbackTo)) this.setTx(null);
        continue;
      }
      if (verb === 'BEGIN') {
        this.savepoints = [];
        this.txBySavepoint = false;
        this.setTx(this.txSince ?? this.now());
      } else if (verb === 'COMMIT' || verb === 'END') {
        this.setTx(null);
      } else if (verb === 'ROLLBACK' && !rollbackTo) {
        this.setTx(null);
      } else if (rollbackTo) {
        j++;
        if (up[j] === 'SAVEPOINT') j++;
        const at = this.savepoints.lastIndexOf(unquote(words[j] ?? ''));
        if (at >= 0) this.savepoints.length = at + 1;
      } else if (verb === 'SAVEPOINT') {
        if (this.txSince === null) {
          this.txBySavepoint = true;
          this.savepoints = [];
          this.setTx(this.now());
        }
        this.savepoints.push(unquote(words[1] ?? ''));
      } else if (verb === 'RELEASE') {
        const at = this.savepoints.lastIndexOf(unquote(words[up[1] === 'SAVEPOINT' ? 2 : 1] ?? ''));
        if (at >= 0) this.savepoints.length = at;
        if (this.txBySavepoint && this.savepoints.length === 0) this.setTx(null);
      }
    }
  }

  private setTx(since: number | null): void {
    if (since === null) {
      this.savepoints = [];
      this.txBySavepoint = false;
    }
    if (since !== this.txSince) {
      this.txSince = since;
      this.emit();
    }
  }

  /** One HTTP round trip; on v3 it also asks get_autocommit when SQL ran. */
  private async pipelineOnce(
    requests: WireRequest[],
    signal: AbortSignal | undefined,
    wantState: boolean,
  ): Promise<PipelineAnswer & { autocommit: boolean | null }> {
    for (;;) {
      const version = this.version ?? 3;
      const askState = version === 3 && (wantState || requests.length === 0);
      const all: WireRequest[] = askState ? [...requests, { type: 'get_autocommit' }] : requests;
      let json: unknown;
      try {
        json = (await this.http.request<unknown>(`/v${version}/pipeline`, { method: 'POST', body: { baton: this.baton, requests: all }, signal, retry: false }))
          .data;
      } catch (error) {
        if (this.version === null && error instanceof ApiError && error.kind === 'http' && (error.status === 404 || error.status === 405)) {
          // no v3 on this server: the request did not run; send it again on v2
          this.version = 2;
          continue;
        }
        throw error;
      }
      let answer: PipelineAnswer;
      try {
        answer = decodePipeline(
          json,
          all.map((r) => r.type),
        );
      } catch (error) {
        if (error instanceof ProtocolViolation) throw this.malformed(error.message);
        throw error;
      }
      if (this.version === null) {
        this.version = 3;
        this.emit();
      }
      this.baton = answer.baton;
      if (answer.baseUrl) this.rebase(answer.baseUrl);
      let autocommit: boolean | null = null;
      if (askState) {
        const last = answer.results.pop();
        if (last && last.ok && last.response.type === 'get_autocommit') autocommit = last.response.isAutocommit;
      }
      return { ...answer, autocommit };
    }
  }

  private rebase(baseUrl: string): void {
    let next: string;
    try {
      next = parseDatabaseUrl(baseUrl).baseUrl;
    } catch {
      return;
    }
    if (next.replace(/\/+$/, '') === this.http.baseUrl) return;
    const old = this.http;
    this.http = this.client(next);
    void old.close();
  }

  /**
   * Decides what a failed round trip means for the stream: 'retry' on a fresh stream (nothing ran
   * and no transaction was open), or the error to throw.
   */
  private async afterFailure(error: ApiError): Promise<'retry' | ApiError> {
    const hadBaton = this.baton !== null;
    const inTx = this.txSince !== null;
    if (error.kind === 'http' && error.status === 400 && hadBaton) {
      const gone = error.code === 'STREAM_EXPIRED' || STREAM_GONE.test(error.message);
      this.baton = null;
      if (!inTx) return gone ? 'retry' : error;
      const loss = this.lose(gone ? this.goneReason(error) : `the server aborted the stream: ${error.message}`);
      return new StreamLostError(loss);
    }
    // a 5xx or 429 may come from a proxy (the stream is intact) or from the server aborting the
    // stream (a crash): like a cut-off request, only asking with the baton tells which
    const serverTrouble = error.kind === 'http' && error.status !== null && (error.status >= 500 || error.status === 429);
    if ((error.kind === 'aborted' || error.kind === 'network' || error.kind === 'timeout' || error.kind === 'unknown-outcome' || serverTrouble) && hadBaton) {
      if (!inTx) {
        // the baton's fate is unknown: start a new stream next time
        this.baton = null;
        return error;
      }
      // Did the server take the request (and hand its next baton to an answer we never read)?
      // Ask with the baton we have: if it still works, the transaction is intact.
      try {
        const probe = await this.pipelineOnce([], AbortSignal.timeout(10_000), true);
        if (probe.autocommit === true) {
          const loss = this.lose('the transaction ended on the server while the request was cut off');
          return new StreamLostError(loss, `${error.message}; `);
        }
        return error;
      } catch (probeError) {
        this.baton = null;
        const why = probeError instanceof ApiError && probeError.kind === 'http' ? this.goneReason(probeError) : 'the server could not be reached to check it';
        const loss = this.lose(
          error.kind === 'aborted'
            ? `the request was cancelled after the server took it, so its stream can no longer be reached; the server rolls it back when the stream expires`
            : why,
        );
        return new StreamLostError(loss, error.kind === 'aborted' ? 'cancelled; ' : `${error.message}; `);
      }
    }
    return error;
  }

  private goneReason(error: ApiError): string {
    if (error.code === 'STREAM_EXPIRED') return 'the server expired the stream after it sat idle';
    if (/already been used/i.test(error.message)) return 'the stream was taken over by a request whose answer was lost';
    if (/invalid baton/i.test(error.message)) return 'the server no longer knows the stream (it expired, or the server restarted)';
    return error.message;
  }

  private lose(reason: string, pending = false): StreamLoss {
    const loss: StreamLoss = { at: this.now(), reason, rolledBack: true, transactionSince: this.txSince };
    this.baton = null;
    this.setTx(null);
    this.lastLoss = loss;
    this.pendingLoss = pending;
    this.emit();
    return loss;
  }

  private schedule(): void {
    this.clearTimer();
    if (this.closed || this.txSince === null || this.opts.keepAliveMs <= 0 || this.baton === null) return;
    this.timer = setTimeout(() => void this.keepAlive(), this.opts.keepAliveMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** v3: get_autocommit (which also refreshes the state); v2: an empty pipeline. */
  private keepAlive(): Promise<void> {
    return this.exclusive(async () => {
      if (this.closed || this.txSince === null || this.baton === null) return;
      try {
        const answer = await this.pipelineOnce([], AbortSignal.timeout(10_000), true);
        if (answer.autocommit === true) this.setTx(null);
      } catch (error) {
        if (!(error instanceof ApiError)) return;
        if (error.kind === 'http' && error.status === 400) this.lose(this.goneReason(error), true);
        // network trouble: try again at the next tick; the stream may still be there
      }
    });
  }

  private emit(): void {
    if (!this.listeners.size) return;
    const s = this.status();
    for (const l of this.listeners) {
      try {
        l(s);
      } catch {
        // a listener's failure is not the session's
      }
    }
  }
}
