import { createRequire } from 'node:module';
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance, DuckDBResultReader, DuckDBValue } from '@duckdb/node-api';
import type { LogEntry } from '../api/logs/entry';
import type { RecordColumns } from '../log-engine/columns/record-columns';
import type { SqlValue } from '../api/database/values';
import type { StatementResult } from '../api/database/protocol';
import { parseTimestamp } from '../api/logs/entry';
import { LogBuffer } from '../log-engine/buffer';
import { COMPUTED_COLUMNS, LOGS_TABLE_DDL, STORED_COLUMNS } from './columns';
import { writeTarget } from './write-target';
import { loadColumns, type Yield } from './column-load';

type DuckDb = typeof import('@duckdb/node-api');


/** A statement the engine will not run, with the reason to show. */
export class LogsSqlRefusal extends Error {}

/** Statement kinds that reach outside the table, the engine or its settings: never run. */
const REFUSED_KINDS = new Set(['COPY', 'EXPORT', 'ATTACH', 'DETACH', 'LOAD', 'EXTENSION', 'UPDATE_EXTENSIONS', 'COPY_DATABASE', 'VACUUM', 'PREPARE', 'EXECUTE', 'SET', 'VARIABLE_SET']);
/** Statement kinds that change a table: allowed on the user's own tables, refused on `logs`. */
const WRITE_KINDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE_INTO', 'ALTER', 'DROP', 'CREATE']);

/**
 * An in-process DuckDB holding the log records of a screen or a command as the table `logs`.
 * DuckDB is columnar and built for GROUP BY over millions of rows, and a bad value or query is
 * an error, never an abort of the process (libsql aborts on TEXT that is not UTF-8). The engine
 * cannot touch the host: external access (files, network, extensions) is off and the settings
 * are locked before any user statement runs.
 */
export class LogsSqlEngine {
  private appended = 0;
  private newestMs = Number.NaN;

  private constructor(
    private readonly duck: DuckDb,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /**
   * `threads`: DuckDB's worker threads (default: one per core). The console's shell gives it one,
   * so a sync or a query never takes every core from the screen it runs beside.
   */
  static async open(options: { threads?: number } = {}): Promise<LogsSqlEngine> {
    // loaded on first use: start-up and the other commands do not pay for it. require, not
    // import(): the bundle runs in a vm.Script, which has no loader for import() on Node 20
    const duck = createRequire(import.meta.url)('@duckdb/node-api') as DuckDb;
    const instance = await duck.DuckDBInstance.create(':memory:', {
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      ...(options.threads ? { threads: String(options.threads) } : {}),
    });
    const connection = await instance.connect();
    await connection.run(LOGS_TABLE_DDL);
    for (const column of [...STORED_COLUMNS, ...COMPUTED_COLUMNS]) {
      await connection.run(`COMMENT ON COLUMN logs.${column.name} IS '${column.doc.replace(/'/g, "''")}'`);
    }
    await connection.run('SET lock_configuration = true');
    return new LogsSqlEngine(duck, instance, connection);
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
    const { loaded, rest } = await loadColumns(this.duck, this.connection, columns, slots, seqs, pause, sliceMs);
    this.appended += loaded;
    for (let i = 0; i < slots.length; i++) {
      const t = columns.time(slots[i]!);
      if (!(t <= this.newestMs) && columns.seqs[slots[i]!] === seqs[i]) this.newestMs = t;
    }
    if (rest.length) await this.append(rest.map((slot) => columns.entry(slot)));
    return loaded + rest.length;
  }

  /** Deletes the rows older than `ms` (epoch), or all of them with no argument; returns how many went. */
  async deleteRows(beforeMs?: number): Promise<number> {
    const where = beforeMs === undefined ? '' : ` WHERE ts < epoch_ms(${Math.floor(beforeMs)}::BIGINT)`;
    const reader = await this.connection.runAndReadAll(`DELETE FROM logs${where}`);
    const gone = Number(reader.rowsChanged);
    this.appended = Math.max(0, this.appended - gone);
    if (beforeMs === undefined) this.newestMs = Number.NaN;
    return gone;
  }

  /** Deletes the rows at exactly `ms` (the edge of an eviction, put back from the store after). */
  async deleteAt(ms: number): Promise<number> {
    const reader = await this.connection.runAndReadAll(`DELETE FROM logs WHERE ts = epoch_ms(${Math.floor(ms)}::BIGINT)`);
    const gone = Number(reader.rowsChanged);
    this.appended = Math.max(0, this.appended - gone);
    return gone;
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
   * Runs one or more statements; the results of those that return rows, in order. `lazy`: the
   * rows stay in DuckDB's result and are turned into values when read (a grid over a large
   * result shows a window of it).
   */
  async run(sql: string, options: { lazy?: boolean; onResult?: (index: number, result: StatementResult) => void } = {}): Promise<StatementResult[]> {
    const extracted = await this.connection.extractStatements(sql);
    const results: StatementResult[] = [];
    for (let i = 0; i < extracted.count; i++) {
      const prepared = await extracted.prepare(i);
      const kind = this.duck.StatementType[prepared.statementType] ?? 'INVALID';
      if (REFUSED_KINDS.has(kind)) throw new LogsSqlRefusal(`${kind} is not available on the logs table's engine (it reaches files, settings or extensions)`);
      if (WRITE_KINDS.has(kind)) {
        const target = writeTarget(kind, statementText(sql, extracted.count, i));
        if (target === 'logs' || target === null) {
          throw new LogsSqlRefusal(
            target === 'logs'
              ? 'the logs table is read-only: make your own, e.g. CREATE TEMP TABLE errors AS SELECT * FROM logs WHERE status >= 500'
              : `cannot tell which table this ${kind} changes; write it as ${kind} [TEMP] TABLE name ... so it can be checked`,
          );
        }
      }
      const started = performance.now();
      const reader = await prepared.runAndReadAll();
      const columns = reader.columnNames();
      const integer = reader.columnTypes().map((t) => INTEGER_TYPES.has(String(t)));
      const rows = options.lazy && !WRITE_KINDS.has(kind) ? lazyRows(reader, integer) : reader.getRows().map((row) => row.map((v, k) => toSqlValue(v, integer[k]!)));
      const durationMs = performance.now() - started;
      if (WRITE_KINDS.has(kind) && columns.length === 1 && columns[0] === 'Count') {
        // DuckDB answers a change with a one-cell "Count" result: shown as rows affected
        results.push({ columns: [], decltypes: [], rows: [], rowsAffected: Number(rows[0]?.[0] ?? 0), lastInsertRowid: null, durationMs });
      } else {
        results.push({ columns, decltypes: reader.columnTypes().map((t) => String(t)), rows, rowsAffected: 0, lastInsertRowid: null, durationMs });
      }
      options.onResult?.(i, results[results.length - 1]!);
    }
    return results;
  }

  /** A statement of burrow's own (the catalog for the shell), not subject to the user's policy. */
  async internal(sql: string): Promise<StatementResult> {
    const started = performance.now();
    const reader = await this.connection.runAndReadAll(sql);
    const integer = reader.columnTypes().map((t) => INTEGER_TYPES.has(String(t)));
    const rows = reader.getRows().map((row) => row.map((v, k) => toSqlValue(v, integer[k]!)));
    return { columns: reader.columnNames(), decltypes: reader.columnTypes().map((t) => String(t)), rows, rowsAffected: 0, lastInsertRowid: null, durationMs: performance.now() - started };
  }

  /** Stops the statement running now (it fails with an interruption). */
  interrupt(): void {
    this.connection.interrupt();
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

/** The text of statement `index` when there are several (for the write-target check). */
function statementText(sql: string, count: number, index: number): string {
  if (count === 1) return sql;
  // DuckDB does not hand back each statement's text; split on semicolons outside quotes
  return splitStatements(sql)[index] ?? '';
}

export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      current += c;
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 1;
      current += ' ';
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      current += ' ';
    } else if (c === ';') {
      if (current.trim()) out.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim()) out.push(current);
  return out;
}

/** Rows converted when read (the last few thousand kept), as the array the shell's grid indexes. */
function lazyRows(reader: DuckDBResultReader, integer: boolean[]): SqlValue[][] {
  const count = reader.currentRowCount;
  const cache = new Map<number, SqlValue[]>();
  const row = (i: number): SqlValue[] => {
    let r = cache.get(i);
    if (r === undefined) {
      if (cache.size >= 4096) cache.clear();
      r = integer.map((isInt, c) => toSqlValue(reader.value(c, i), isInt));
      cache.set(i, r);
    }
    return r;
  };
  return new Proxy<SqlValue[][]>([], {
    get(target, prop, receiver) {
      if (prop === 'length') return count;
      if (typeof prop === 'string' && /^\d+$/.test(prop)) {
        const i = Number(prop);
        return i < count ? row(i) : undefined;
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
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
