import type { StatementResult } from '../../api/database/index';
import type { SqlValue } from '../../api/database/values';
import type { StoreSql } from '../../log-ship/store-sql';
import { showStoreUrl, type StoreUrl } from '../../config/store-url';
import { schemaFromRows } from '../../sql-repl/schema-sql';
import type { SqlCatalog } from './backend';
import { PAGE_ROWS, PagedRows, pagedRowsView } from './paged-rows';

/** What the shell's header says about the log store. */
export interface StoreSnapshot {
  /** clickhouse://user@server:port/database (a store URL never holds a password). */
  where: string;
  database: string;
  /** The server's version once it answered; null before. */
  version: string | null;
  /** Why it cannot be reached, or null. */
  error: string | null;
}

/** Where the rows of an export go as they arrive (`.output` in a mode written row by row). */
export interface RowSink {
  head(columns: string[]): void;
  rows(rows: SqlValue[][]): void;
}

export interface StoreResultHooks {
  /** The result with its first rows (`paged` null when every row is in `result.rows`). */
  show(result: StatementResult, paged: PagedRows | null): void;
  /** The count grew, the first pass ended, or a page came in. */
  changed(): void;
  pageFailed(error: unknown): void;
}

/** The open store shells: every way out of the console stops their queries on the server. */
const open = new Set<StoreBackend>();

/**
 * Stops the store shells' running queries on the server (an HTTP client that leaves is not
 * noticed by a query that has written nothing yet), within `ms`.
 */
export async function stopStoreQueries(ms: number): Promise<void> {
  const all = Promise.all([...open].map((b) => b.stopQueries()));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  await Promise.race([all, late]);
  clearTimeout(timer);
}

/**
 * The SQL shell's engine when it runs on the log store (`:sql store`): ClickHouse over HTTP
 * (`log-ship/store-sql.ts`, loaded with the first use so the console does not pay for the client).
 * A result is streamed: its first page is shown as soon as it is in, the rest counted while the
 * grid can be browsed, a bounded window of pages kept (a page outside it is read again).
 */
export class StoreBackend {
  private readonly session: Promise<StoreSql>;
  private snapshot: StoreSnapshot;
  private readonly windows = new Set<PagedRows>();
  private closed = false;

  constructor(
    store: StoreUrl,
    password: string | null,
    private readonly onSnapshot: (s: StoreSnapshot) => void,
    private readonly now: () => number,
    /** burrow's read-only mode in words (ClickHouse then refuses writes), or null. */
    readOnly: string | null = null,
  ) {
    this.snapshot = { where: showStoreUrl(store), database: store.database, version: null, error: null };
    this.session = import('../../log-ship/store-sql').then(({ StoreSql }) => new StoreSql({ store, password, readOnly }));
    open.add(this);
  }

  async stopQueries(): Promise<void> {
    await (await this.session).killAll();
  }

  get state(): StoreSnapshot {
    return this.snapshot;
  }

  /** Asks the server's version: rejects with the reason (down, login refused) in words. */
  async connect(): Promise<void> {
    const session = await this.session;
    try {
      const version = await session.version();
      this.publish({ version, error: null });
    } catch (error) {
      const explained = session.explain(error);
      this.publish({ error: explained.message });
      throw explained;
    }
  }

  /**
   * Runs one statement. `whole` (for .output) keeps every row in one result; otherwise a result
   * larger than a page is paged.
   */
  async run(sql: string, signal: AbortSignal, hooks: StoreResultHooks, whole = false): Promise<void> {
    const session = await this.session;
    const started = this.now();
    const paged = new PagedRows(
      (skip, take) => session.readRows(sql, skip, take),
      () => hooks.changed(),
      (e) => hooks.pageFailed(e),
    );
    const all: SqlValue[][] = [];
    let columns: string[] = [];
    let types: string[] = [];
    let result: StatementResult | null = null;
    let notified = 0;
    const show = (rows: SqlValue[][], pages: PagedRows | null) => {
      result = { columns, decltypes: types, rows, rowsAffected: 0, lastInsertRowid: null, durationMs: this.now() - started };
      if (pages) {
        for (const earlier of this.windows) earlier.release();
        this.windows.add(pages);
      }
      hooks.show(result, pages);
    };
    try {
      await session.stream(sql, {
        signal,
        onHead: (c, t) => {
          columns = c;
          types = t;
        },
        onRows: (rows) => {
          if (whole) {
            for (const row of rows) all.push(row);
            return;
          }
          paged.append(rows);
          if (!result && paged.count >= PAGE_ROWS) show(pagedRowsView(paged, columns.length), paged);
          else if (result && paged.count - notified >= PAGE_ROWS * 10) {
            notified = paged.count;
            hooks.changed();
          }
        },
      });
    } catch (error) {
      // a cancelled or failed pass keeps what it counted, and says so
      paged.stopped = true;
      paged.finish();
      if (result) hooks.changed();
      throw error;
    }
    paged.finish();
    if (whole) show(all, null);
    else if (result) {
      (result as StatementResult).durationMs = this.now() - started;
      hooks.changed();
    } else show(paged.firstPage(), null);
  }

  /**
   * Runs one statement with its rows handed to `sink` as they arrive, none kept (an export of
   * any size). Resolves with the columns (none: a statement without rows) and the count.
   */
  async export(sql: string, signal: AbortSignal, sink: RowSink): Promise<{ columns: string[]; rows: number; durationMs: number }> {
    const session = await this.session;
    const started = this.now();
    const r = await session.stream(sql, { signal, onHead: (columns) => sink.head(columns), onRows: (rows) => void sink.rows(rows) });
    return { columns: r.columns, rows: r.rows, durationMs: this.now() - started };
  }

  /** Rows held in memory by the results of this shell. */
  rowsHeld(): number {
    let n = 0;
    for (const paged of this.windows) n += paged.rowsHeld();
    return n;
  }

  readonly catalog: SqlCatalog = {
    schema: async (signal) => schemaFromRows(await (await this.session).schemaRows(signal)),
    tables: async (pattern, signal) => (await this.session).tables(pattern, signal),
    // ClickHouse has no indexes to list: a table's sorting key (ORDER BY) is in .schema
    indexes: async () => [],
    schemaText: async (pattern, signal) => (await this.session).schemaText(pattern, signal),
    describe: async (table, signal) => {
      const started = this.now();
      const r = await (await this.session).describe(table, signal);
      return { columns: r.columns, decltypes: r.types, rows: r.rows, rowsAffected: 0, lastInsertRowid: null, durationMs: this.now() - started };
    },
  };

  /** The reason a failure is shown with: ClickHouse's message, the server down, the login refused. */
  async explain(error: unknown): Promise<string> {
    return (await this.session).explain(error).message;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    open.delete(this);
    this.windows.clear();
    void this.session.then((s) => s.close()).catch(() => undefined);
  }

  private publish(patch: Partial<StoreSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.onSnapshot(this.snapshot);
  }
}
