import type { LogBuffer } from '../../log-engine/buffer';
import type { StatementResult } from '../../api/database/index';
import { describeQuery, formatCreate, indexesQuery, LOGS_SCHEMA_QUERY, schemaTextQuery, tablesQuery } from '../../logs-sql/catalog-sql';
import { COMPUTED_COLUMNS, STORED_COLUMNS } from '../../logs-sql/columns';
import { LogsSqlEngine, type LogsStatementResult } from '../../logs-sql/engine';
import { LogsTableSync } from '../../logs-sql/table-sync';
import { schemaFromRows } from '../../sql-repl/schema-sql';
import type { SqlCatalog } from './backend';
import { MAX_PAGES, PAGE_ROWS, PagedRows, pagedRowsView } from './paged-rows';

export { nativeBusy, stopLogsEngines } from '../../logs-sql/engine';

/** What the shell's header says about the logs table. */
export interface LogsSnapshot {
  /** When the table was last brought up to date with the screen's buffer (epoch ms); null before. */
  asOf: number | null;
  rows: number;
  /** A load or sync is running. */
  loading: boolean;
  /** The engine could not open (the message), or null. */
  error: string | null;
}

/** The records the logs screen holds now (null: none yet). */
export type LogsRecordSource = () => LogBuffer | null;

/** What each column of `logs` holds, shown by .schema. */
const COLUMN_DOCS: ReadonlyMap<string, string> = new Map([...STORED_COLUMNS, ...COMPUTED_COLUMNS].map((c) => [c.name, c.doc]));

/** While the shell is open, the table follows the buffer this often. */
export const LOGS_SYNC_MS = 1000;

/**
 * The SQL shell's engine when it runs on the logs screen's records: an in-process DuckDB whose
 * table `logs` mirrors the screen's buffer. It is brought up to date before each statement and
 * every LOGS_SYNC_MS while the shell is open; statements and syncs run one at a time.
 */
export class LogsBackend {
  private engine: LogsSqlEngine | null = null;
  private sync: LogsTableSync | null = null;
  private readonly opened: Promise<LogsSqlEngine>;
  private timer: ReturnType<typeof setInterval> | null = null;
  private snapshot: LogsSnapshot = { asOf: null, rows: 0, loading: true, error: null };
  private closed = false;
  /** The large results of this shell that can be read again. */
  private readonly windows = new Set<PagedRows>();

  constructor(
    private source: LogsRecordSource,
    private readonly onSnapshot: (s: LogsSnapshot) => void,
    private readonly now: () => number,
  ) {
    this.opened = LogsSqlEngine.open({ threads: 1 }).then(
      (engine) => {
        if (this.closed) {
          engine.close();
          throw new Error('the logs shell was closed');
        }
        this.engine = engine;
        this.sync = new LogsTableSync(engine, () => this.source());
        return engine;
      },
      (error: unknown) => {
        this.publish({ loading: false, error: `cannot open the logs table's engine: ${error instanceof Error ? error.message : String(error)}` });
        throw error;
      },
    );
    // a failure is reported through the snapshot and again by whatever waits on it
    this.opened.catch(() => undefined);
  }

  /** Another screen's buffer (the logs store is the console's: the same one each time, in practice). */
  setSource(source: LogsRecordSource): void {
    this.source = source;
  }

  get state(): LogsSnapshot {
    return this.snapshot;
  }

  /** Brings the table up to date with the buffer now. */
  async refresh(): Promise<void> {
    await this.opened;
    const sync = this.sync!;
    try {
      await sync.sync();
      // the first load ran on every core; the user's statements and later syncs get one
      await this.engine?.seal();
    } finally {
      this.publish({ loading: false, asOf: this.now(), rows: this.engine?.rowCount ?? 0 });
    }
  }

  /** Syncs every LOGS_SYNC_MS while `on` (the shell is on screen). */
  follow(on: boolean): void {
    if (on && !this.timer && !this.closed) {
      this.timer = setInterval(() => {
        if (!this.snapshot.loading) this.refresh().catch(() => undefined);
      }, LOGS_SYNC_MS);
      this.timer.unref?.();
    } else if (!on && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /**
   * Runs one statement (after a sync), each result handed over as it comes. A result larger than
   * a page is held as the hosted database's grid holds one: a window of pages, each read again
   * (the statement run again) when wanted; `whole` (for .output) keeps every row instead.
   */
  async run(
    sql: string,
    signal: AbortSignal,
    onResult: (r: StatementResult, paged: PagedRows | null) => void,
    options: { whole?: boolean; onPageError?: (e: unknown) => void; onPage?: () => void } = {},
  ): Promise<void> {
    const engine = await this.opened;
    const stop = () => engine.interrupt();
    signal.addEventListener('abort', stop);
    try {
      await this.sync!.exclusive(() =>
        engine.run(sql, {
          keepRows: options.whole ? undefined : MAX_PAGES * PAGE_ROWS,
          onResult: (_, r) => {
            const paged = r.rowCount > PAGE_ROWS && !options.whole ? this.hold(engine, sql, r, options) : null;
            onResult(paged ? { ...r, rows: pagedRowsView(paged, r.columns.length) } : r, paged);
          },
        }),
      );
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /** Rows held in memory by the results of this shell (for the memory budget's test). */
  rowsHeld(): number {
    let n = 0;
    for (const paged of this.windows) n += paged.rowsHeld();
    return n;
  }

  /** Bytes DuckDB holds now (tables, results, buffers). */
  async engineBytes(): Promise<number> {
    const result = await this.internal('SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()');
    return Number(result.rows[0]?.[0] ?? 0);
  }

  /**
   * A large result as a window of pages: its first pages kept, the rest counted. Only the newest
   * result keeps pages: an earlier one gives its pages back and reads them again if shown.
   */
  private hold(engine: LogsSqlEngine, sql: string, r: LogsStatementResult, options: { onPageError?: (e: unknown) => void; onPage?: () => void }): PagedRows {
    const index = r.rereadIndex;
    const read = (skip: number, take: number) =>
      index === null
        ? Promise.reject(new Error('this result is not a read, so its rows cannot be read again: run it again'))
        : this.sync!.exclusive(() => engine.readRows(sql, index, skip, take));
    const paged = new PagedRows(
      read,
      () => options.onPage?.(),
      (e) => options.onPageError?.(e),
    );
    paged.append(r.rows);
    paged.skip(r.rowCount - r.rows.length);
    paged.finish();
    for (const earlier of this.windows) earlier.release();
    // a result that cannot be read again keeps its window (at most MAX_PAGES pages)
    if (index !== null) this.windows.add(paged);
    return paged;
  }

  readonly catalog: SqlCatalog = {
    schema: async () => schemaFromRows((await this.internal(LOGS_SCHEMA_QUERY)).rows),
    tables: async (pattern) => (await this.internal(tablesQuery(pattern))).rows.map((row) => String(row[0])),
    indexes: async (pattern) => (await this.internal(indexesQuery(pattern))).rows.map((row) => String(row[0])),
    schemaText: async (pattern) =>
      (await this.internal(schemaTextQuery(pattern))).rows.map((row) => formatCreate(String(row[0]).replace(/;\s*$/, ''), COLUMN_DOCS)),
    describe: (table) => this.internal(describeQuery(table)),
  };

  private async internal(sql: string): Promise<StatementResult> {
    const engine = await this.opened;
    return this.sync!.exclusive(() => engine.internal(sql));
  }

  close(): void {
    this.closed = true;
    this.windows.clear();
    this.follow(false);
    this.sync?.detach();
    const engine = this.engine;
    this.engine = null;
    // a statement still running would hold the queue (and a core) until it ends
    engine?.interrupt();
    if (engine) void this.sync?.exclusive(async () => engine.close());
  }

  private publish(patch: Partial<LogsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.onSnapshot(this.snapshot);
  }
}
