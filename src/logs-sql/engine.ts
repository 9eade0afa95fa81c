import { createRequire } from 'node:module';
import type { DuckDBAppender, DuckDBConnection, DuckDBResult, DuckDBValue } from '@duckdb/node-api';
import { type LogEntry, parseTimestamp } from '../api/logs/entry';
import type { RecordColumns } from '../log-engine/columns/record-columns';
import type { SqlValue } from '../api/database/values';
import type { StatementResult } from '../api/database/protocol';
import { LogBuffer } from '../log-engine/buffer';
import { STORED_COLUMNS } from './columns';
import { LogsSqlRefusal, refusedKind, Sandbox } from './sandbox';
import { EngineHalted, register, tracked } from './in-flight';
import { loadColumns, type Yield } from './column-load';

type DuckDb = typeof import('@duckdb/node-api');

export { LogsSqlRefusal } from './sandbox';
export { nativeBusy, stopAll as stopLogsEngines } from './in-flight';

/** Statement kinds that change a table (the user's own: `logs` is refused by the engine). */
const WRITE_KINDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE_INTO', 'ALTER', 'DROP', 'CREATE']);

/** One statement's result: `rows` holds the first `keepRows` of its `rowCount` rows (all without keepRows). */
export interface LogsStatementResult extends StatementResult {
  rowCount: number;
  /** The statement is a read: its rows can be read again (readRows with this index); null for others. */
  rereadIndex: number | null;
}

export interface RunOptions {
  /** Rows of each result turned into values and kept; the rest are only counted (default: all). */
  keepRows?: number;
  onResult?: (index: number, result: LogsStatementResult) => void;
}

/**
 * An in-process DuckDB holding the log records of a screen or a command as the table `logs`.
 * DuckDB is columnar and built for GROUP BY over millions of rows, and a bad value or query is
 * an error, never an abort of the process (libsql aborts on TEXT that is not UTF-8). What the
 * user may do is enforced by the engine itself (sandbox.ts): `logs` cannot be changed, no file
 * or directory is reachable, no setting changes.
 */
export class LogsSqlEngine {
  private appended = 0;
  private newestMs = Number.NaN;
  private halted = false;
  private readonly unregister: () => void;

  private constructor(
    private readonly duck: DuckDb,
    private readonly sandbox: Sandbox,
  ) {
    this.unregister = register(this);
  }

  /** burrow's own connection: loads and trims `logs`. */
  private get connection(): DuckDBConnection {
    return this.sandbox.loader;
  }

  /**
   * `threads`: DuckDB's worker threads (default: one per core). The console's shell gives it one,
   * so a sync or a query never takes every core from the screen it runs beside; its first load
   * (before seal) still uses every core, so the first answer comes sooner.
   */
  static async open(options: { threads?: number } = {}): Promise<LogsSqlEngine> {
    // loaded on first use: start-up and the other commands do not pay for it. require, not
    // import(): the bundle runs in a vm.Script, which has no loader for import() on Node 20
    const duck = createRequire(import.meta.url)('@duckdb/node-api') as DuckDb;
    return new LogsSqlEngine(duck, await Sandbox.open(duck, options));
  }

  /** Rows in `logs`. */
  get rowCount(): number {
    return this.appended;
  }

  /** The time of the newest record appended (epoch ms), NaN before any. */
  get asOfMs(): number {
    return this.newestMs;
  }

  /**
   * Appends records straight from the columnar store (the screen's buffer): `slots` with the
   * sequence numbers they had when chosen (a slot that changed meanwhile is skipped). Sliced:
   * `pause` gives the event loop a turn between slices.
   */
  async appendStored(columns: RecordColumns, slots: ArrayLike<number>, seqs: ArrayLike<number>, pause: Yield, sliceMs?: number): Promise<number> {
    return this.track(async () => {
      const pauseUnlessHalted: Yield = async () => {
        await pause();
        if (this.halted) throw new EngineHalted();
      };
      const { loaded, rest } = await loadColumns(this.duck, this.connection, columns, slots, seqs, pauseUnlessHalted, sliceMs);
      this.appended += loaded;
      for (let i = 0; i < slots.length; i++) {
        const t = columns.time(slots[i]!);
        if (!(t <= this.newestMs) && columns.seqs[slots[i]!] === seqs[i]) this.newestMs = t;
      }
      if (rest.length) await this.append(rest.map((slot) => columns.entry(slot)));
      return loaded + rest.length;
    });
  }

  /** Deletes the rows older than `ms` (epoch), or all of them with no argument; returns how many went. */
  async deleteRows(beforeMs?: number): Promise<number> {
    return this.track(async () => {
      const where = beforeMs === undefined ? '' : ` WHERE ts < epoch_ms(${Math.floor(beforeMs)}::BIGINT)`;
      const reader = await this.connection.runAndReadAll(`DELETE FROM logs${where}`);
      const gone = Number(reader.rowsChanged);
      this.appended = Math.max(0, this.appended - gone);
      if (beforeMs === undefined) this.newestMs = Number.NaN;
      return gone;
    });
  }

  /** Deletes the rows at exactly `ms` (the edge of an eviction, put back from the store after). */
  async deleteAt(ms: number): Promise<number> {
    return this.track(async () => {
      const reader = await this.connection.runAndReadAll(`DELETE FROM logs WHERE ts = epoch_ms(${Math.floor(ms)}::BIGINT)`);
      const gone = Number(reader.rowsChanged);
      this.appended = Math.max(0, this.appended - gone);
      return gone;
    });
  }

  /**
   * Appends many records the fast way: into a columnar store first (records with the same
   * request id kept once), then as data chunks (appendStored).
   */
  async load(records: readonly LogEntry[]): Promise<number> {
    if (records.length === 0) return 0;
    const buffer = new LogBuffer(records.length);
    buffer.insert(records);
    const slots = new Int32Array(buffer.length);
    const seqs = new Uint32Array(buffer.length);
    for (let i = 0; i < buffer.length; i++) {
      slots[i] = buffer.slotAt(i);
      seqs[i] = buffer.columns.seqs[slots[i]!]!;
    }
    return this.appendStored(buffer.columns, slots, seqs, async () => undefined, Number.POSITIVE_INFINITY);
  }

  /** Appends records one row at a time (in any order; the table has no order of its own). */
  async append(records: Iterable<LogEntry>): Promise<number> {
    return this.track(async () => {
      // the row appender: measured faster than data chunks here, where most values are strings
      const appender = await this.connection.createAppender('logs');
      let n = 0;
      try {
        for (const entry of records) {
          const ms = parseTimestamp(entry.timestamp);
          if (!Number.isFinite(ms)) continue;
          this.appendRow(appender, entry, ms);
          if (!(ms <= this.newestMs)) this.newestMs = ms;
          n++;
        }
      } finally {
        appender.closeSync();
      }
      this.appended += n;
      return n;
    });
  }

  private appendRow(appender: DuckDBAppender, entry: LogEntry, ms: number): void {
    for (const column of STORED_COLUMNS) {
      const value = column.value(entry, ms);
      if (value === null) appender.appendNull();
      else if (column.type === 'VARCHAR') appender.appendVarchar(String(value));
      else if (column.type === 'INTEGER') appender.appendInteger(Number(value));
      else if (column.type === 'UINTEGER') appender.appendUInteger(Number(value));
      else if (column.type === 'TIMESTAMP') appender.appendTimestamp(new this.duck.DuckDBTimestampValue(BigInt(value) * 1000n));
      else appender.appendBigInt(BigInt(value));
    }
    appender.endRow();
  }

  /**
   * Runs one or more statements on the user's connection, each in its own guarded transaction;
   * the results of those that return rows, in order. With `keepRows`, a large result is streamed:
   * its first rows kept, the rest counted, and readRows reads any of them again.
   */
  async run(sql: string, options: RunOptions = {}): Promise<LogsStatementResult[]> {
    return this.track(async () => {
      const user = this.sandbox.user;
      const extracted = await user.extractStatements(sql);
      const results: LogsStatementResult[] = [];
      for (let i = 0; i < extracted.count; i++) {
        const result = await this.sandbox.guarded(async () => {
          const prepared = await extracted.prepare(i);
          const kind = this.duck.StatementType[prepared.statementType] ?? 'INVALID';
          const refused = refusedKind(kind);
          if (refused) throw new LogsSqlRefusal(refused);
          const started = performance.now();
          const stream = await prepared.stream();
          const columns = stream.columnNames();
          const types = stream.columnTypes().map((t) => String(t));
          const integer = types.map((t) => INTEGER_TYPES.has(t));
          const { rows, count } = await collect(stream, integer, 0, options.keepRows ?? Number.POSITIVE_INFINITY);
          const durationMs = performance.now() - started;
          if (WRITE_KINDS.has(kind) && columns.length === 1 && columns[0] === 'Count') {
            // DuckDB answers a change with a one-cell "Count" result: shown as rows affected
            return {
              columns: [],
              decltypes: [],
              rows: [],
              rowsAffected: Number(rows[0]?.[0] ?? 0),
              lastInsertRowid: null,
              durationMs,
              rowCount: 0,
              rereadIndex: null,
            };
          }
          return {
            columns,
            decltypes: types,
            rows,
            rowsAffected: 0,
            lastInsertRowid: null,
            durationMs,
            rowCount: count,
            rereadIndex: kind === 'SELECT' ? i : null,
          };
        });
        results.push(result);
        options.onResult?.(i, result);
      }
      return results;
    });
  }

  /** Rows [skip, skip + take) of statement `index` of `sql` (a read), run again in a guarded transaction. */
  async readRows(sql: string, index: number, skip: number, take: number): Promise<SqlValue[][]> {
    return this.track(async () => {
      const extracted = await this.sandbox.user.extractStatements(sql);
      if (index >= extracted.count) return [];
      return this.sandbox.guarded(async () => {
        const prepared = await extracted.prepare(index);
        if (this.duck.StatementType[prepared.statementType] !== 'SELECT') throw new LogsSqlRefusal('only a read is run again');
        const stream = await prepared.stream();
        const integer = stream.columnTypes().map((t) => INTEGER_TYPES.has(String(t)));
        return (await collect(stream, integer, skip, take, true)).rows;
      });
    });
  }

  /** A statement of burrow's own (the catalog for the shell), on the user's connection (to see their tables). */
  async internal(sql: string): Promise<StatementResult> {
    return this.track(async () => {
      const started = performance.now();
      const reader = await this.sandbox.user.runAndReadAll(sql);
      const integer = reader.columnTypes().map((t) => INTEGER_TYPES.has(String(t)));
      const rows = reader.getRows().map((row) => row.map((v, k) => toSqlValue(v, integer[k]!)));
      return {
        columns: reader.columnNames(),
        decltypes: reader.columnTypes().map((t) => String(t)),
        rows,
        rowsAffected: 0,
        lastInsertRowid: null,
        durationMs: performance.now() - started,
      };
    });
  }

  /**
   * Ends burrow's first load: from here DuckDB has the threads asked for at open and its
   * configuration is locked (the user's first statement does this too, if it comes first).
   */
  seal(): Promise<void> {
    return this.track(() => this.sandbox.seal());
  }

  /** Stops the statement running now, the user's or a load (it fails with an interruption). */
  interrupt(): void {
    this.sandbox.user.interrupt();
    this.sandbox.loader.interrupt();
  }

  /** Interrupts what runs and refuses anything new (the process is leaving). */
  halt(): void {
    this.halted = true;
    this.interrupt();
  }

  /** Runs native work counted as running (so an exit waits for it), unless the engine was halted. */
  private async track<T>(work: () => Promise<T>): Promise<T> {
    if (this.halted) throw new EngineHalted();
    return tracked(work);
  }

  /** Closes the engine; a statement still running is interrupted first (closing waits for it). */
  close(): void {
    this.unregister();
    this.interrupt();
    this.sandbox.close();
  }
}

/**
 * Reads a streamed result: rows [skip, skip + take) turned into values, every row counted (or
 * stopping once they are in, with `stopAtTake`).
 */
async function collect(
  stream: DuckDBResult,
  integer: boolean[],
  skip: number,
  take: number,
  stopAtTake = false,
): Promise<{ rows: SqlValue[][]; count: number }> {
  const rows: SqlValue[][] = [];
  let count = 0;
  for (;;) {
    const chunk = await stream.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const n = chunk.rowCount;
    const from = Math.max(0, skip - count);
    if (from < n && rows.length < take) {
      for (const row of chunk.getRows().slice(from, from + take - rows.length)) rows.push(row.map((v, k) => toSqlValue(v, integer[k]!)));
    }
    count += n;
    if (stopAtTake && rows.length >= take) break;
  }
  return { rows, count };
}

/** DuckDB's integer types: their values are SQL integers (bigint), as the SQL shell shows them. */
const INTEGER_TYPES = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT']);

function toSqlValue(value: DuckDBValue, integer: boolean): SqlValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') return integer ? BigInt(value) : value;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value === 'bigint') return value;
  if (value instanceof Uint8Array) return value;
  return String(value);
}
