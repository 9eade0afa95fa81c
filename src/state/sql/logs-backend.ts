import type { LogBuffer } from '../../log-engine/buffer';
import type { StatementResult } from '../../api/database/index';
import { describeQuery, formatCreate, indexesQuery, LOGS_SCHEMA_QUERY, schemaTextQuery, tablesQuery } from '../../logs-sql/catalog-sql';
import { COMPUTED_COLUMNS, STORED_COLUMNS } from '../../logs-sql/columns';
import { LogsSqlEngine } from '../../logs-sql/engine';
import { LogsTableSync } from '../../logs-sql/table-sync';
import { schemaFromRows } from '../../sql-repl/schema-sql';
import type { SqlCatalog } from './backend';

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

  /** Runs one statement (after a sync), each result handed over as it comes. */
  async run(sql: string, signal: AbortSignal, onResult: (r: StatementResult) => void): Promise<void> {
    const engine = await this.opened;
    const stop = () => engine.interrupt();
    signal.addEventListener('abort', stop);
    try {
      await this.sync!.exclusive(() => engine.run(sql, { lazy: true, onResult: (_, r) => onResult(r) }));
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  readonly catalog: SqlCatalog = {
    schema: async () => schemaFromRows((await this.internal(LOGS_SCHEMA_QUERY)).rows),
    tables: async (pattern) => (await this.internal(tablesQuery(pattern))).rows.map((row) => String(row[0])),
    indexes: async (pattern) => (await this.internal(indexesQuery(pattern))).rows.map((row) => String(row[0])),
    schemaText: async (pattern) => (await this.internal(schemaTextQuery(pattern))).rows.map((row) => formatCreate(String(row[0]).replace(/;\s*$/, ''), COLUMN_DOCS)),
    describe: (table) => this.internal(describeQuery(table)),
  };

  private async internal(sql: string): Promise<StatementResult> {
    const engine = await this.opened;
    return this.sync!.exclusive(() => engine.internal(sql));
  }

  close(): void {
    this.closed = true;
    this.follow(false);
    this.sync?.detach();
    const engine = this.engine;
    this.engine = null;
    if (engine) void this.sync?.exclusive(async () => engine.close());
  }

  private publish(patch: Partial<LogsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.onSnapshot(this.snapshot);
  }
}
