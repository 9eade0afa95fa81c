import type { Agent } from 'undici';
import type { z } from 'zod';
import { redact } from '../config/redact';
import { ApiError, apiErrorFromResponse } from './errors';
import type { LazySchema } from './lazy-schema';
import { loadUndici, type Undici } from './undici-load';
import { keepRawJson } from './raw-json';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface HttpClientOptions {
  baseUrl: string;
  /** Credential headers, read on every request so a rotated key takes effect at once. */
  auth?: () => Record<string, string>;
  connectTimeoutMs?: number;
  /** Time allowed for the headers, and again for the body. */
  requestTimeoutMs?: number;
  /**
   * The whole exchange's limit, however the answer trickles in (default 4x requestTimeoutMs). A
   * server that meets it is not asked again: it would drip the same way.
   */
  deadlineMs?: number;
  /** Retries for safe requests (GET) on network errors, timeouts, 5xx and 429. */
  maxRetries?: number;
  /** A body larger than this is refused (a wrong URL can point at something endless). Default 64 MiB. */
  maxResponseBytes?: number;
  retryBaseMs?: number;
  /** Receives one redacted line per request and answer (--debug). */
  debug?: (line: string) => void;
  /** What the debug line shows of a request body (default: its JSON, cut at 500 characters). */
  debugBody?: (body: unknown) => string;
  /** Told about every attempt before it is sent; rate budgets hook in here. */
  beforeAttempt?: (info: { method: HttpMethod; path: string; attempt: number }) => Promise<void> | void;
}

export interface RequestOptions<T> {
  method?: HttpMethod;
  query?: Record<string, QueryValue | QueryValue[]>;
  /** JSON body; sent with Content-Type application/json. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Validates a JSON answer; a mismatch becomes a 'malformed' ApiError. */
  schema?: LazySchema<z.ZodType<T>>;
  /** 'json' (default) parses the body, 'text' returns it, 'bytes' returns it undecoded (a Buffer), 'empty' ignores it. */
  expect?: 'json' | 'text' | 'bytes' | 'empty';
  /** Overrides the default: GET retries, mutations never do. */
  retry?: boolean;
  timeoutMs?: number;
  /** Called when the answer's status and headers are in, before its body is read. */
  onHeaders?: () => void;
}

export interface StreamOptions {
  query?: Record<string, QueryValue | QueryValue[]>;
  signal?: AbortSignal;
  /** Silence allowed before the headers, and between two chunks of the body. */
  timeoutMs?: number;
  /** The answer is a success: its headers, before the first chunk. */
  onHeaders?: (headers: Record<string, string>) => void;
  /** Each chunk of the body as it arrives; awaited before the next is read. */
  onChunk: (chunk: Buffer) => void | Promise<void>;
}

/** A stream consumer's own error, carried through the transport's error handling unchanged. */
class ConsumerFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('stream consumer failed');
  }
}

export interface HttpResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string>;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** "64 MiB", "256 KiB". */
const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`);

/** The code of the error for an answer that did not complete within the exchange's deadline. */
export const DEADLINE = 'DEADLINE';

/** Errors of connections that never opened (TCP, TLS): no byte of any request went out on them. */
const connectFailures = new WeakSet<object>();

/** "ERR_SSL_WRONG_VERSION_NUMBER: wrong version number" rather than OpenSSL's whole error string. */
function tlsReason(e: { code?: string; message?: string }): string {
  const message = e.message ?? '';
  const openssl = /routines:[^:]*:([^:]+)/.exec(message);
  const reason = openssl ? openssl[1]! : message.split('\n')[0]!.trim();
  return [e.code, reason].filter((x) => x).join(': ') || 'no reason given';
}

/** "1.2 s" under ten seconds, else whole seconds: the limit a message names is the one applied. */
export function formatLimit(ms: number): string {
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms / 1000)} s`;
}

/** Exponential backoff with full jitter: a random wait in [0, min(cap, base * 2^attempt)]. */
export function backoffDelay(attempt: number, baseMs: number, capMs = 8000, random = Math.random): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** attempt));
}

export function buildQuery(query: RequestOptions<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) if (one !== undefined && one !== null && one !== '') params.append(k, String(one));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function headerRecord(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** One keep-alive connection pool per origin, with timeouts, abort signals and safe retries. */
export class HttpClient {
  readonly baseUrl: string;
  private dispatcher: Agent | null = null;
  /** Streamed answers: no size limit (maxResponseBytes is for whole bodies). */
  private streamDispatcher: Agent | null = null;
  private closed = false;
  private readonly opts: Required<Omit<HttpClientOptions, 'auth' | 'debug' | 'debugBody' | 'beforeAttempt' | 'deadlineMs'>> & HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.opts = {
      connectTimeoutMs: 5000,
      requestTimeoutMs: 15000,
      maxRetries: 3,
      retryBaseMs: 300,
      maxResponseBytes: 64 * 1024 * 1024,
      ...options,
    };
  }

  private async agent(undici: Undici): Promise<Agent> {
    if (this.closed) throw new ApiError({ kind: 'aborted', message: 'the connection to the platform was closed' });
    const connector = undici.buildConnector({ timeout: this.opts.connectTimeoutMs });
    this.dispatcher ??= new undici.Agent({
      connect: (options, callback) =>
        connector(options, (...args) => {
          if (args[0]) connectFailures.add(args[0]);
          callback(...args);
        }),
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connections: 8,
      maxResponseSize: this.opts.maxResponseBytes,
      // Node's default; given here, undici does not load node:http to read it (start-up)
      maxHeaderSize: 16 * 1024,
    });
    return this.dispatcher;
  }

  async request<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<HttpResponse<T>> {
    const method = options.method ?? 'GET';
    const retry = options.retry ?? method === 'GET';
    const maxAttempts = retry ? this.opts.maxRetries + 1 : 1;
    let lastError: ApiError | null = null;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (attempt > 0) {
        try {
          await sleep(backoffDelay(attempt, this.opts.retryBaseMs), options.signal);
        } catch {
          throw new ApiError({ kind: 'aborted', message: `${method} ${path} cancelled`, method, path });
        }
      }
      try {
        return await this.attempt(path, method, options, attempt);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        lastError = error;
        if (!retry || !error.transient || options.signal?.aborted || error.code === DEADLINE) throw error;
      }
    }
    throw lastError!;
  }

  /** GET and validate in one call. */
  async getJson<T>(path: string, schema: LazySchema<z.ZodType<T>>, options: Omit<RequestOptions<T>, 'schema' | 'method'> = {}): Promise<T> {
    return (await this.request(path, { ...options, schema })).data;
  }

  private async attempt<T>(path: string, method: HttpMethod, options: RequestOptions<T>, attempt: number): Promise<HttpResponse<T>> {
    await this.opts.beforeAttempt?.({ method, path, attempt });
    const url = `${this.baseUrl}${path}${buildQuery(options.query)}`;
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
      'user-agent': 'burrow',
      ...(this.opts.auth?.() ?? {}),
      ...(options.headers ?? {}),
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const timeout = options.timeoutMs ?? this.opts.requestTimeoutMs;
    // headersTimeout and bodyTimeout are about silence: a server that drips a byte now and then
    // would hold the request for ever, so the whole exchange also has a deadline
    const deadlineMs = this.opts.deadlineMs ?? timeout * 4;
    const exchange = new AbortController();
    let deadlineHit = false;
    const deadline = setTimeout(() => {
      deadlineHit = true;
      exchange.abort();
    }, deadlineMs);
    const onCancel = () => exchange.abort(options.signal?.reason);
    if (options.signal?.aborted) onCancel();
    else options.signal?.addEventListener('abort', onCancel, { once: true });
    const signal = exchange.signal;
    const started = Date.now();
    const shownPath = `${path}${buildQuery(options.query)}`;
    if (this.opts.debug) {
      const shownBody = body === undefined ? '' : this.opts.debugBody ? this.opts.debugBody(options.body) : body.slice(0, 500);
      this.opts.debug(redact(`-> ${method} ${this.baseUrl}${shownPath}${attempt ? ` (retry ${attempt})` : ''}${shownBody ? ` body=${shownBody}` : ''}`));
    }
    let status: number;
    let resHeaders: Record<string, string>;
    let text: string;
    const undici = await loadUndici();
    const dispatcher = await this.agent(undici);
    try {
      const res = await undici.request(url, {
        method,
        headers,
        body,
        signal,
        dispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      status = res.statusCode;
      options.onHeaders?.();
      resHeaders = headerRecord(res.headers);
      if (options.expect === 'bytes' && res.statusCode >= 200 && res.statusCode < 300) {
        const bytes = Buffer.from(await res.body.arrayBuffer());
        this.opts.debug?.(redact(`<- ${res.statusCode} ${method} ${shownPath} ${Date.now() - started}ms ${bytes.length}B`));
        return { status: res.statusCode, data: bytes as T, headers: headerRecord(res.headers) };
      }
      text = await res.body.text();
    } catch (error) {
      throw this.transportError(undici, error, method, path, options.signal, deadlineHit ? deadlineMs : null);
    } finally {
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onCancel);
    }
    this.opts.debug?.(redact(`<- ${status} ${method} ${shownPath} ${Date.now() - started}ms ${text.length}B`));
    if (status < 200 || status >= 300) {
      throw apiErrorFromResponse(status, resHeaders['content-type'] ?? null, text, {
        method,
        path,
        location: resHeaders.location ?? null,
        retryAfter: resHeaders['retry-after'],
      });
    }
    const expect = options.expect ?? 'json';
    if (expect === 'empty') return { status, data: undefined as T, headers: resHeaders };
    if (expect === 'text') return { status, data: text as T, headers: resHeaders };
    let json: unknown;
    if (text.trim() === '') {
      if (options.schema) {
        throw new ApiError({
          kind: 'malformed',
          status,
          method,
          path,
          message: `${method} ${path} answered ${status} with an empty body where data was expected`,
        });
      }
      json = undefined;
    } else {
      try {
        json = JSON.parse(text);
      } catch {
        const html = /^\s*</.test(text) ? ' (an HTML page: is the URL right?)' : '';
        throw new ApiError({ kind: 'malformed', status, method, path, message: `${method} ${path} answered ${status} with a body that is not JSON${html}` });
      }
    }
    if (options.schema) {
      const parsed = (await options.schema.load()).safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length ? issue.path.join('.') : 'body';
        throw new ApiError({
          kind: 'malformed',
          status,
          method,
          path,
          message: `unexpected answer from ${method} ${path}: ${where}: ${issue?.message ?? 'does not match'}`,
        });
      }
      keepRawJson(parsed.data, json);
      return { status, data: parsed.data, headers: resHeaders };
    }
    return { status, data: json as T, headers: resHeaders };
  }

  /**
   * A GET whose body is handed over chunk by chunk as it arrives (`onChunk` is awaited: a slow
   * consumer slows the download), with no limit on its size and no deadline on the whole
   * exchange (a day of logs takes as long as it takes): only silence longer than the request
   * timeout fails it. Retried like a GET until the first chunk is handed over, never after.
   */
  async stream(path: string, options: StreamOptions): Promise<{ status: number; headers: Record<string, string>; bytes: number }> {
    const maxAttempts = this.opts.maxRetries + 1;
    let lastError: ApiError | null = null;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (attempt > 0) {
        try {
          await sleep(backoffDelay(attempt, this.opts.retryBaseMs), options.signal);
        } catch {
          throw new ApiError({ kind: 'aborted', message: `GET ${path} cancelled`, method: 'GET', path });
        }
      }
      const progress = { handed: false };
      try {
        return await this.streamAttempt(path, options, attempt, progress);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        lastError = error;
        if (progress.handed || !error.transient || options.signal?.aborted) throw error;
      }
    }
    throw lastError!;
  }

  private async streamAttempt(path: string, options: StreamOptions, attempt: number, progress: { handed: boolean }) {
    await this.opts.beforeAttempt?.({ method: 'GET', path, attempt });
    const url = `${this.baseUrl}${path}${buildQuery(options.query)}`;
    const shownPath = `${path}${buildQuery(options.query)}`;
    const headers: Record<string, string> = { accept: 'text/plain, */*;q=0.5', 'user-agent': 'burrow', ...(this.opts.auth?.() ?? {}) };
    const timeout = options.timeoutMs ?? this.opts.requestTimeoutMs;
    const started = Date.now();
    this.opts.debug?.(redact(`-> GET ${this.baseUrl}${shownPath}${attempt ? ` (retry ${attempt})` : ''} (streamed)`));
    if (this.closed) throw new ApiError({ kind: 'aborted', message: 'the connection to the platform was closed' });
    const undici = await loadUndici();
    this.streamDispatcher ??= new undici.Agent({
      keepAliveTimeout: 10_000,
      connections: 2,
      maxHeaderSize: 16 * 1024,
      connect: { timeout: this.opts.connectTimeoutMs },
    });
    let status = 0;
    let bytes = 0;
    try {
      const res = await undici.request(url, {
        method: 'GET',
        headers,
        signal: options.signal,
        dispatcher: this.streamDispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      status = res.statusCode;
      const resHeaders = headerRecord(res.headers);
      if (status < 200 || status >= 300) {
        // an error's body is small; more than a MiB of it is not read
        let text = '';
        for await (const chunk of res.body) {
          if (text.length < 1024 * 1024) text += (chunk as Buffer).toString('utf8');
        }
        this.opts.debug?.(redact(`<- ${status} GET ${shownPath} ${Date.now() - started}ms ${text.length}B`));
        throw apiErrorFromResponse(status, resHeaders['content-type'] ?? null, text, {
          method: 'GET',
          path,
          location: resHeaders.location ?? null,
          retryAfter: resHeaders['retry-after'],
        });
      }
      options.onHeaders?.(resHeaders);
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        bytes += buf.length;
        progress.handed = true;
        try {
          await options.onChunk(buf);
        } catch (error) {
          throw new ConsumerFailure(error);
        }
      }
      this.opts.debug?.(redact(`<- ${status} GET ${shownPath} ${Date.now() - started}ms ${bytes}B (streamed)`));
      return { status, headers: resHeaders, bytes };
    } catch (error) {
      // the consumer's own failure is its own
      if (error instanceof ConsumerFailure) throw error.cause;
      if (error instanceof ApiError) throw error;
      throw this.transportError(undici, error, 'GET', path, options.signal, null);
    }
  }

  private transportError(
    undici: Undici,
    error: unknown,
    method: HttpMethod,
    path: string,
    signal: AbortSignal | undefined,
    deadlineMs: number | null,
  ): ApiError {
    if (signal?.aborted) return new ApiError({ kind: 'aborted', method, path, message: `${method} ${path} cancelled`, cause: error });
    const e = error as { code?: string; message?: string };
    const { HeadersTimeoutError, BodyTimeoutError, ConnectTimeoutError, ResponseExceededMaxSizeError } = undici.errors;
    if (error instanceof ResponseExceededMaxSizeError) {
      return new ApiError({
        kind: 'malformed',
        method,
        path,
        cause: error,
        message: `${method} ${path} answered with a body larger than ${sizeText(this.opts.maxResponseBytes)}: is the URL right?`,
      });
    }
    const timedOut = deadlineMs !== null || error instanceof HeadersTimeoutError || error instanceof BodyTimeoutError || error instanceof ConnectTimeoutError;
    const mutation = method !== 'GET';
    const what = e.code === 'ECONNREFUSED' ? 'connection refused' : e.code === 'ENOTFOUND' ? 'host not found' : (e.code ?? e.message ?? 'network error');
    if (typeof error === 'object' && error !== null && connectFailures.has(error)) {
      // the connection never opened: nothing was sent, whatever the method
      const tls =
        this.baseUrl.startsWith('https:') &&
        !(error instanceof ConnectTimeoutError) &&
        e.code !== 'ECONNREFUSED' &&
        e.code !== 'ENOTFOUND' &&
        e.code !== 'EAI_AGAIN';
      const why = tls ? `the TLS handshake failed (${tlsReason(e)})` : error instanceof ConnectTimeoutError ? 'could not connect in time' : what;
      return new ApiError({ kind: 'network', method, path, cause: error, message: `${method} ${path}: ${why} (${this.baseUrl}); nothing was sent` });
    }
    const sentMaybe = !(error instanceof ConnectTimeoutError) && e.code !== 'ECONNREFUSED' && e.code !== 'ENOTFOUND';
    const limit = deadlineMs !== null ? ` (no complete answer within ${formatLimit(deadlineMs)})` : '';
    if (mutation && sentMaybe) {
      return new ApiError({
        kind: 'unknown-outcome',
        method,
        path,
        cause: error,
        code: deadlineMs !== null ? DEADLINE : null,
        message: `unknown outcome: ${method} ${path} ${timedOut ? `timed out${limit}` : `failed (${e.code ?? e.message})`} after it was sent; it was not retried: it may or may not have been applied.`,
      });
    }
    if (timedOut)
      return new ApiError({
        kind: 'timeout',
        method,
        path,
        cause: error,
        code: deadlineMs !== null ? DEADLINE : null,
        message: `${method} ${path} timed out${limit}`,
      });
    return new ApiError({ kind: 'network', method, path, cause: error, message: `${method} ${path}: ${what} (${this.baseUrl})` });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.dispatcher?.close(), this.streamDispatcher?.close()]);
  }
}
