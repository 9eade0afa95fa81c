import { randomUUID } from 'node:crypto';
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import type { SqlValue } from '../api/database/values';
import { sqlLiteral, sqlName } from './sql-text';
import { showStoreUrl, storeAddress, storeConnection, type StoreUrl } from '../config/store-url';
import { MidStreamError, TsvRows } from './tsv-rows';

/**
 * The log store as the SQL shell's engine (`:sql store`): any statement a person types, its rows
 * streamed as TabSeparatedWithNamesAndTypes (each row handed on as it comes, none kept here),
 * every request with its own query_id so ctrl-c can stop it on the server (`KILL QUERY`), and
 * the catalog the shell's dot-commands and completion read (system.tables, system.columns).
 * Literals in the catalog's SQL go through sql-text.ts; the person's SQL is sent as typed.
 */

export type StoreSqlErrorKind = 'sql' | 'auth' | 'down' | 'cancelled' | 'other';

export class StoreSqlError extends Error {
  constructor(
    message: string,
    readonly kind: StoreSqlErrorKind,
    readonly code: number | null = null,
  ) {
    super(message);
  }
}

export interface StoreSqlOptions {
  store: StoreUrl;
  password: string | null;
  /** Per request; a long query is cut by ClickHouse's own limits, not this (default 1 h). */
  timeoutMs?: number;
  /**
   * burrow's read-only mode, in words ("read-only mode (--read-only)"): statements run with
   * ClickHouse's own `readonly = 2` (reads and settings only), so the server refuses a write.
   */
  readOnly?: string | null;
}

export interface StreamHooks {
  signal?: AbortSignal;
  /** The columns and their ClickHouse types, before the first row (awaited: a writer's backpressure). */
  onHead?(columns: string[], types: string[]): void | Promise<void>;
  /** Rows as they arrive (awaited); false stops reading (the query is then stopped on the server). */
  onRows?(rows: SqlValue[][]): boolean | void | Promise<boolean | void>;
}

export interface StreamOutcome {
  queryId: string;
  columns: string[];
  types: string[];
  rows: number;
}

const CLICKHOUSE_ERROR = /^Code: (\d+), e\.displayText\(\) = (?:DB::Exception: )?([\s\S]*?)(?:, e\.what\(\) = [\w:]+)?\s*$/;
/** The codes of a refused login: UNKNOWN_USER, WRONG_PASSWORD, REQUIRED_PASSWORD, IP_ADDRESS_NOT_ALLOWED, AUTHENTICATION_FAILED. */
const AUTH_CODES = new Set([192, 193, 194, 195, 516]);
const DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EPIPE']);

/** How long a cancel waits for the server to confirm that the query stopped. */
const KILL_WAIT_MS = 10_000;

/** A statement that ends in its own FORMAT clause would not come back as the shell's TSV. */
const OWN_FORMAT = /\bFORMAT\s+[A-Za-z]\w*\s*$/i;

/** The statement as sent: without its closing semicolons (one statement per request over HTTP). */
export function statementText(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}

export class StoreSql {
  private readonly client: ClickHouseClient;
  readonly where: string;
  /** The query ids of the requests in flight (stopped on the server when burrow exits). */
  private readonly inFlight = new Set<string>();

  constructor(readonly options: StoreSqlOptions) {
    this.where = showStoreUrl(options.store);
    this.client = createClient({
      ...storeConnection(options.store, options.password ?? ''),
      database: options.store.database,
      request_timeout: options.timeoutMs ?? 3_600_000,
      compression: { request: false, response: false },
      max_open_connections: 4,
      log: { level: ClickHouseLogLevel.OFF },
    });
  }

  get database(): string {
    return this.options.store.database;
  }

  /** What went wrong, in words: server down, login refused, or ClickHouse's own error text. */
  explain(error: unknown): StoreSqlError {
    if (error instanceof StoreSqlError) return error;
    const { user } = this.options.store;
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (typeof code === 'string' && DOWN_CODES.has(code)) {
      return new StoreSqlError(
        `cannot reach the log store at ${storeAddress(this.options.store)} (${code}): is ClickHouse running there, on its HTTP port?`,
        'down',
      );
    }
    const text = error instanceof Error ? error.message : String(error);
    const m = CLICKHOUSE_ERROR.exec(text.trim());
    if (m) {
      const n = Number(m[1]);
      const what = m[2]!
        .replace(/\s*\(version [^)]*\)\s*$/, '')
        .replace(/\s*\n\s*/g, ' ')
        .trim();
      if (AUTH_CODES.has(n)) {
        return new StoreSqlError(
          `the log store refused the login of user ${user}: ${what}. Check the user in the store URL and the password (BURROW_LOG_STORE_PASSWORD or logStorePassword: in the profile)`,
          'auth',
          n,
        );
      }
      if (n === 394) return new StoreSqlError('the query was cancelled on the server', 'cancelled', n);
      // READONLY: the server refused a write under readonly = 2
      if (n === 164 && this.options.readOnly)
        return new StoreSqlError(`${this.options.readOnly}: the log store runs reads only, so ClickHouse refused it (${what})`, 'sql', n);
      return new StoreSqlError(`ClickHouse error ${n}: ${what}`, 'sql', n);
    }
    if (/timeout/i.test(text)) return new StoreSqlError(`the log store did not answer in time: ${text.split('\n')[0]}`, 'down');
    return new StoreSqlError(text.split('\n')[0] ?? text, 'other');
  }

  /**
   * Runs one statement, its rows handed to `onRows` as they arrive. On abort the request is
   * dropped and `KILL QUERY` stops the query on the server (an HTTP client leaving is not seen by
   * a query that has written nothing yet, such as a long count()); then it rejects with a
   * 'cancelled' StoreSqlError that says whether the server confirmed.
   */
  async stream(sql: string, hooks: StreamHooks = {}): Promise<StreamOutcome> {
    const text = statementText(sql);
    if (OWN_FORMAT.test(text)) {
      throw new StoreSqlError('the shell reads results in its own format: drop the FORMAT clause (.mode sets how results are shown)', 'sql');
    }
    const outer = hooks.signal;
    if (outer?.aborted) throw new StoreSqlError('cancelled before it was sent', 'cancelled');
    const queryId = randomUUID();
    this.inFlight.add(queryId);
    const local = new AbortController();
    let killed: Promise<boolean> | null = null;
    // a person's cancel may come before the server lists the query: that kill looks again
    const stop = (lookAgain = true) => {
      if (killed) return;
      local.abort();
      killed = this.kill(queryId, lookAgain);
    };
    const cancel = () => stop(true);
    outer?.addEventListener('abort', cancel);
    const rows = new TsvRows();
    let count = 0;
    let headSent = false;
    const head = async () => {
      if (headSent || !rows.columns || !rows.types) return;
      headSent = true;
      await hooks.onHead?.(rows.columns, rows.types);
    };
    try {
      const result = await this.client.exec({
        query: text,
        query_id: queryId,
        abort_signal: local.signal,
        clickhouse_settings: { default_format: 'TabSeparatedWithNamesAndTypes', ...(this.options.readOnly ? { readonly: '2' } : {}) },
      });
      for await (const chunk of result.stream as AsyncIterable<Buffer>) {
        const got = rows.push(chunk);
        await head();
        if (got.length === 0) continue;
        count += got.length;
        if ((await hooks.onRows?.(got)) === false) {
          stop(false);
          break;
        }
      }
      if (!killed) {
        rows.end();
        await head();
      }
      return { queryId, columns: rows.columns ?? [], types: rows.types ?? [], rows: count };
    } catch (error) {
      if (killed) {
        const confirmed = await (killed as Promise<boolean>);
        if (outer?.aborted) {
          throw new StoreSqlError(
            confirmed ? `cancelled: the server stopped the query (KILL QUERY ${queryId})` : `cancelled; KILL QUERY ${queryId} was not confirmed by the server`,
            'cancelled',
          );
        }
      }
      if (error instanceof MidStreamError) throw this.explain(new Error(error.message));
      throw this.explain(error);
    } finally {
      this.inFlight.delete(queryId);
      outer?.removeEventListener('abort', cancel);
      // a reader that stopped early does not leave the query running
      if (killed) await (killed as Promise<boolean>);
    }
  }

  /**
   * Stops a query on the server: `KILL QUERY ... SYNC` waits until it has stopped. A cancel that
   * came before the server listed the query finds nothing: it is looked for again, briefly.
   * True when the server answered.
   */
  async kill(queryId: string, lookAgain = true): Promise<boolean> {
    const id = sqlLiteral(queryId);
    try {
      for (let attempt = 0; ; attempt++) {
        // SYNC waits for the query to stop: a query that does not is not waited on for ever
        const r = await this.client.exec({
          query: `KILL QUERY WHERE query_id = ${id} SYNC`,
          clickhouse_settings: { default_format: 'TabSeparated' },
          abort_signal: AbortSignal.timeout(KILL_WAIT_MS),
        });
        let answer = '';
        for await (const chunk of r.stream as AsyncIterable<Buffer>) answer += chunk.toString();
        if (answer.trim() !== '' || !lookAgain || attempt === 3) return true;
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
      }
    } catch {
      return false;
    }
  }

  /** Stops every query of this session still running on the server (burrow is exiting). */
  async killAll(): Promise<void> {
    await Promise.all([...this.inFlight].map((id) => this.kill(id, false)));
  }

  /** Every row of a statement (the catalog's small answers). */
  async all(sql: string, signal?: AbortSignal): Promise<{ columns: string[]; types: string[]; rows: SqlValue[][] }> {
    const out: SqlValue[][] = [];
    const r = await this.stream(sql, { signal, onRows: (rows) => void out.push(...rows) });
    return { columns: r.columns, types: r.types, rows: out };
  }

  /** Rows [skip, skip + take) of the statement, read again (the query is stopped once they are in). */
  async readRows(sql: string, skip: number, take: number): Promise<SqlValue[][]> {
    const out: SqlValue[][] = [];
    let seen = 0;
    await this.stream(sql, {
      onRows: (rows) => {
        const from = Math.max(0, skip - seen);
        seen += rows.length;
        if (from < rows.length) out.push(...rows.slice(from, from + take - out.length));
        return out.length < take;
      },
    });
    return out;
  }

  async version(signal?: AbortSignal): Promise<string> {
    const r = await this.all('SELECT version()', signal);
    return String(r.rows[0]?.[0] ?? '');
  }

  /** Tables and views of the store's database with their columns (for completion): rows of [table, 'table' | 'view', column]. */
  async schemaRows(signal?: AbortSignal): Promise<SqlValue[][]> {
    const db = sqlLiteral(this.database);
    const tables = (await this.all(`SELECT name, engine FROM system.tables WHERE database = ${db} ORDER BY name`, signal)).rows;
    const columns = new Map<string, string[]>();
    for (const [table, name] of (await this.all(`SELECT table, name FROM system.columns WHERE database = ${db}`, signal)).rows) {
      const list = columns.get(String(table)) ?? [];
      list.push(String(name));
      columns.set(String(table), list);
    }
    return tables.flatMap(([name, engine]) => {
      const kind = /View$/.test(String(engine)) ? 'view' : 'table';
      const cols = columns.get(String(name)) ?? [];
      return cols.length ? cols.map((c): SqlValue[] => [name!, kind, c]) : [[name!, kind, null]];
    });
  }

  async tables(pattern: string | null, signal?: AbortSignal): Promise<string[]> {
    const like = pattern === null ? '' : ` AND name LIKE ${sqlLiteral(pattern)}`;
    const r = await this.all(`SELECT name FROM system.tables WHERE database = ${sqlLiteral(this.database)}${like} ORDER BY name`, signal);
    return r.rows.map((row) => String(row[0]));
  }

  /** `SHOW CREATE TABLE` of each table that matches. */
  async schemaText(pattern: string | null, signal?: AbortSignal): Promise<string[]> {
    const out: string[] = [];
    for (const table of await this.tables(pattern, signal)) {
      const r = await this.all(`SHOW CREATE TABLE ${sqlName(this.database)}.${sqlName(table)}`, signal);
      out.push(formatCreate(String(r.rows[0]?.[0] ?? '')));
    }
    return out;
  }

  /** The columns of one table: name, type, default, and whether it is in the sorting and primary key. */
  async describe(table: string, signal?: AbortSignal): Promise<{ columns: string[]; types: string[]; rows: SqlValue[][] }> {
    return this.all(
      `SELECT name, type, default_kind AS default_type, default_expression, is_in_sorting_key AS sorting_key, is_in_primary_key AS primary_key ` +
        `FROM system.columns WHERE database = ${sqlLiteral(this.database)} AND table = ${sqlLiteral(table)}`,
      signal,
    );
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** 18.16 writes CREATE TABLE on one line: one column a line reads better. */
export function formatCreate(sql: string): string {
  const open = sql.indexOf('(');
  if (open < 0 || sql.includes('\n')) return sql;
  let depth = 0;
  let quote: string | null = null;
  let out = sql.slice(0, open + 1) + '\n  ';
  let i = open + 1;
  for (; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      out += c;
      if (c === '\\') out += sql[++i] ?? '';
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '`' || c === '"') quote = c;
    if (c === '(') depth++;
    if (c === ')') {
      if (depth === 0) break;
      depth--;
    }
    if (c === ',' && depth === 0) {
      out += ',\n  ';
      while (sql[i + 1] === ' ') i++;
      continue;
    }
    out += c;
  }
  return `${out.replace(/\n {2} +/, '\n  ').trimEnd()}\n)${sql.slice(i + 1)}`;
}
