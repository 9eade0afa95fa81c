import LibsqlPromise from 'libsql/promise';
import { performance } from 'node:perf_hooks';
import { classify, parameters, splitStatements, SqlTextError, touchesQueryOnly, type StatementText } from './sql-text';
import { encodeValue, type EngineValue, type WireValue } from './values';
import type { EngineLimits, EngineStmt as BoundStmt } from './engine-protocol';
import { checkProgram, checkStatementText, unlistedFacts, type EngineCatalog, type ProgramFacts } from './engine-policy';
import { cachedVerdict, COUNTER_SQL, createsTemp, rememberVerdict, SCHEMA_SQL, schemaState, setsConnectionState, type SchemaState } from './engine-schema';
import type { WriteGate } from './write-gate';
import { StmtError } from './stmt-error';

/*
 * Runs only in the engine process (engine-host.ts). It uses libsql's promise API: a statement's
 * first step runs off the main thread, so a runaway statement can be interrupted from here; the
 * remaining rows are read in chunks on the main thread, with the deadline checked between them.
 */

/** The part of libsql/promise this file uses (its typings are `any`). */
interface AsyncStatement {
  readonly reader: boolean;
  raw(on: boolean): AsyncStatement;
  safeIntegers(on: boolean): AsyncStatement;
  columns(): { name: string; type: string | null }[];
  iterate(args: EngineValue[]): Promise<Iterator<unknown>>;
  /** Synchronous first row (only for trivial statements: it runs on the main thread). */
  get(args: EngineValue[]): unknown;
  /** Synchronous run of a statement that returns no rows (only for quick statements). */
  run(args: EngineValue[]): unknown;
}
interface AsyncDb {
  readonly inTransaction: boolean;
  prepare(sql: string): Promise<AsyncStatement>;
  exec(sql: string): Promise<void>;
  interrupt(): void;
  close(): void;
}
const AsyncDatabase = LibsqlPromise as unknown as new (file: string) => AsyncDb;

/** A statement in the cache, with what its compiled program showed when it was vetted. */
interface Prepared {
  stmt: AsyncStatement;
  writes: boolean;
  facts: ProgramFacts;
  /** Times it ran on this handle (SQLite's own run counter, to find it in sqlite_stmt). */
  runs: number;
  /** Its full-scan and automatic-index steps as SQLite counted them at the end of its last run. */
  scanned: number;
}

const isBusy = (error: unknown) => {
  const raw = (error as { rawCode?: unknown }).rawCode;
  return typeof raw === 'number' && (raw & 0xff) === 5;
};

/** Runs `fn` again while SQLite answers SQLITE_BUSY (a WAL recovery or restart in another connection), up to 2 s. */
async function whileBusy<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = performance.now() + 2000;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      return await fn();
    } catch (error) {
      if (!isBusy(error) || performance.now() + wait > deadline) throw error;
    }
    await new Promise((r) => setTimeout(r, wait));
  }
}

function openHandle(file: string): Promise<AsyncDb> {
  return whileBusy(async () => {
    const db = new AsyncDatabase(file);
    try {
      await db.exec('PRAGMA busy_timeout = 20');
      await db.exec('PRAGMA foreign_keys = ON');
      // views, triggers, defaults and CHECKs may call only functions SQLite marks innocuous
      await db.exec('PRAGMA trusted_schema = OFF');
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
}

/**
 * Every row of a statement that takes no arguments. An EXPLAIN statement stays active after its
 * last row (SQLite halts only real programs), and an active statement that lists a write counts
 * as a writer: COMMIT then fails with "SQL statements in progress" and autocommit writes are
 * never committed. get() resets the statement after its row, which is the only reset libsql
 * 0.5.29 offers without running a statement again.
 */
async function allRows(stmt: AsyncStatement): Promise<unknown[][]> {
  const it = await stmt.raw(true).iterate([]);
  const rows: unknown[][] = [];
  for (let r = it.next(); !r.done; r = it.next()) rows.push(r.value as unknown[]);
  stmt.get([]);
  return rows;
}

let catalog: Promise<EngineCatalog> | null = null;

/** The functions and virtual table modules this engine build has (the same for every connection). */
function engineCatalog(db: AsyncDb): Promise<EngineCatalog> {
  catalog ??= whileBusy(async () => {
    const names = async (sql: string) => new Set((await allRows(await db.prepare(sql))).map((r) => String(r[0]).toLowerCase()));
    return { functions: await names('SELECT name FROM pragma_function_list'), modules: await names('SELECT name FROM pragma_module_list') };
  });
  catalog.catch(() => {
    catalog = null;
  });
  return catalog;
}

/** Errors after which SQLite leaves the statement running (not halted) until it is reset. */
function leavesStatementActive(error: unknown): boolean {
  const raw = (error as { rawCode?: unknown }).rawCode;
  return typeof raw === 'number' && ((raw & 0xff) === 5 || (raw & 0xff) === 6);
}

export interface StmtResult {
  cols: { name: string | null; decltype: string | null }[];
  rows: WireValue[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
  replication_index: string | null;
  rows_read: number;
  rows_written: number;
  query_duration_ms: number;
}

export interface DescribeResult {
  params: { name: string | null }[];
  cols: { name: string; decltype: string | null }[];
  is_explain: boolean;
  is_readonly: boolean;
}

/**
 * Where a cursor's rows go instead of into the result (no size limit): `full()` after a row asks
 * for a pause, and the reader awaits `drain()` before it steps again.
 */
export interface RowSink {
  begin(cols: StmtResult['cols']): void;
  /** A row as the engine read it (values not yet encoded). */
  row(row: unknown[]): void;
  full(): boolean;
  drain(): Promise<void>;
}

export type { EngineStmt as BoundStmt } from './engine-protocol';

export const BLOCKED_MESSAGE = "Operation was blocked: SQL write operations are forbidden (current session doesn't have write permission)";

const PRIMARY: Record<number, string> = {
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  22: 'SQLITE_NOLFS',
  23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};

const PARSE_ERROR = /syntax error|incomplete input|unrecognized token/;

/**
 * sqld reports primary codes only. SQLite's generic code 1 has no name in sqld: a prepare-time
 * error is SQL_PARSE_ERROR (its own parser) or SQL_INPUT_ERROR, a run-time one SQLITE_UNKNOWN.
 */
export function mapEngineError(error: unknown, stage: 'prepare' | 'run'): StmtError {
  const e = error as { code?: unknown; rawCode?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  const raw = typeof e.rawCode === 'number' ? e.rawCode : null;
  const primary = raw === null ? (typeof e.code === 'string' && e.code.startsWith('SQLITE_') ? -1 : 1) : raw & 0xff;
  if (primary === 1 || primary === -1) {
    if (stage === 'prepare' && PARSE_ERROR.test(message)) return new StmtError(`SQL string could not be parsed: ${message}`, 'SQL_PARSE_ERROR');
    if (stage === 'prepare') return new StmtError(`SQL input error: ${message}`, 'SQL_INPUT_ERROR');
    return new StmtError(`SQLite error: ${message}`, 'SQLITE_UNKNOWN');
  }
  return new StmtError(`SQLite error: ${message}`, PRIMARY[primary] ?? 'SQLITE_UNKNOWN');
}

/** One statement from text that must hold exactly one (execute, batch steps, describe). */
export function singleStatement(sql: string): StatementText {
  let parts: StatementText[];
  try {
    parts = splitStatements(sql);
  } catch (error) {
    throw new StmtError(`SQL string could not be parsed: ${(error as Error).message}`, 'SQL_PARSE_ERROR');
  }
  if (parts.length === 0) throw new StmtError('SQL string does not contain any statement', 'SQL_NO_STATEMENT');
  if (parts.length > 1) throw new StmtError('SQL string contains more than one statement', 'SQL_MANY_STATEMENTS');
  return parts[0]!;
}

function bindArgs(stmt: StatementText, b: BoundStmt): EngineValue[] {
  let names: (string | null)[];
  try {
    names = parameters(stmt.tokens).names;
  } catch (error) {
    throw new StmtError(`SQL input error: ${(error as Error).message}`, 'SQL_INPUT_ERROR');
  }
  if (b.args.length && b.namedArgs.length) {
    throw new StmtError('Arguments do not match SQL parameters: cannot use both positional and named arguments', 'ARGS_BOTH_POSITIONAL_AND_NAMED');
  }
  if (b.namedArgs.length) {
    const byName = new Map(b.namedArgs.map((a) => [a.name, a.value] as const));
    return names.map((name) => {
      if (name === null) return null;
      if (byName.has(name)) return byName.get(name)!;
      const bare = name.slice(1);
      if (byName.has(bare)) return byName.get(bare)!;
      throw new StmtError(`Arguments do not match SQL parameters: value for parameter ${name} not found`, 'ARGS_INVALID');
    });
  }
  if (b.args.length > names.length) {
    throw new StmtError(`Arguments do not match SQL parameters: too many parameters, expected ${names.length} found ${b.args.length}`, 'ARGS_INVALID');
  }
  // unbound parameters are NULL, as in SQLite
  return names.map((_, i) => (i < b.args.length ? b.args[i]! : null));
}

/** Prepared statements kept per connection: a batch of a few hundred distinct texts stays in it. */
const STATEMENT_CACHE = 256;
const TXN_CONTROL = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);
/** Statements that never change the schema nor end a transaction (a trigger cannot run DDL). */
const KEEPS_SCHEMA = new Set(['SELECT', 'VALUES', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE']);

/**
 * Statements that cannot run long: transaction control, an INSERT of VALUES, a SELECT without
 * FROM. They run on the engine's main thread (a hand-off to libsql's thread costs more than the
 * statement). Anything else may scan or recurse, so it goes where it can be interrupted. (A
 * trigger could still make an INSERT slow: then the supervisor's watchdog is the net.)
 */
function quick(tokens: StatementText['tokens'], kind: ReturnType<typeof classify>): boolean {
  if (kind.explain) return false;
  if (TXN_CONTROL.has(kind.verb)) return true;
  const words = tokens.filter((t) => t.kind === 'word').map((t) => t.text.toUpperCase());
  if (words.includes('WITH') || words.filter((w) => w === 'SELECT').length > (kind.verb === 'SELECT' ? 1 : 0)) return false;
  if (kind.verb === 'INSERT' || kind.verb === 'REPLACE') return words.includes('VALUES') && !words.includes('RETURNING');
  return kind.verb === 'SELECT' && !words.includes('FROM');
}

/** Rough bytes of a value in the JSON answer, to refuse a response before it eats the memory. */
function wireSize(v: unknown): number {
  if (typeof v === 'string') return v.length + 32;
  if (v instanceof Uint8Array) return Math.ceil(v.byteLength * 1.34) + 32;
  return 32;
}

/** One SQLite connection: what a Hrana stream runs its statements on. */
export class Connection {
  private readOnly = false;
  private meta: AsyncStatement | null = null;
  /** Set while a statement runs off the main thread: interrupt() only then reaches it. */
  private running = false;
  /** The handle holds a statement left running and could not be replaced yet (see retire). */
  private stale = false;
  private timedOut = false;
  private cancelled = false;
  /** Statements of a request in progress (interrupt() may arrive before one runs). */
  private executing = 0;
  /** The client went away while the statement was being prepared: stop it before it starts. */
  private cancelPending = false;

  /**
   * Prepared statements by SQL text, most recently used last: a repeated statement skips a round
   * to the engine's thread. All of them were prepared under `schema`; a change empties it.
   */
  private readonly prepared = new Map<string, Prepared>();
  /** The schema as this connection last read it (null: read it before the next statement). */
  private schema: SchemaState | null = null;
  /** The connection's own statements that read its schema state (per handle). */
  private schemaStmts = new Map<string, AsyncStatement>();
  /**
   * The schema was read inside the transaction the connection is in, and since then it ran only
   * statements that keep the schema: the transaction's snapshot cannot change but by its own
   * statements, so the next statement need not read the version again.
   */
  private schemaPinned = false;
  /** It made temp objects: its schema includes a temp schema of its own. */
  private hasTemp = false;
  /** No stream changed its settings or made temp objects: fit for another stream. */
  private pristine = true;

  private constructor(
    private db: AsyncDb,
    readonly file: string,
    private readonly limits: EngineLimits,
    private readonly gate: WriteGate,
    private readonly catalog: EngineCatalog,
  ) {}

  static async open(file: string, limits: EngineLimits, gate: WriteGate): Promise<Connection> {
    const db = await openHandle(file);
    let known: EngineCatalog;
    try {
      known = await engineCatalog(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return new Connection(db, file, limits, gate, known);
  }

  get autocommit(): boolean {
    return !this.db.inTransaction;
  }

  /**
   * Fit for the pool: no statement of a failed run is left on its handle, and no stream changed
   * its settings or made temp objects (sqld gives each stream a connection of its own).
   */
  get reusable(): boolean {
    return !this.stale && this.pristine;
  }

  /** A read-only session: writes are refused with BLOCKED, and the connection is query_only as a net. */
  async setReadOnly(readOnly: boolean): Promise<void> {
    if (readOnly === this.readOnly) return;
    await this.db.exec(`PRAGMA query_only = ${readOnly ? 1 : 0}`);
    this.readOnly = readOnly;
  }

  /** The client went away: stop the statement that is running, if any. */
  interrupt(): void {
    this.gate.cancel(this, new StmtError('SQLite error: interrupted (the request was cancelled)', 'SQLITE_INTERRUPT'));
    if (!this.running) {
      // still preparing or vetting: the statement is stopped before it starts
      if (this.executing > 0) this.cancelPending = true;
      return;
    }
    this.cancelled = true;
    this.db.interrupt();
  }

  async execute(b: BoundStmt, stmtText?: StatementText, sink?: RowSink): Promise<StmtResult> {
    this.executing++;
    try {
      return await this.executeOne(b, stmtText, sink);
    } finally {
      this.executing--;
    }
  }

  private async executeOne(b: BoundStmt, stmtText?: StatementText, sink?: RowSink): Promise<StmtResult> {
    const parsed = stmtText ?? singleStatement(b.sql);
    const kind = classify(parsed.tokens);
    this.vetText(parsed.tokens, kind.verb);
    if (this.stale) {
      try {
        await this.retire();
      } catch (error) {
        throw mapEngineError(error, 'run');
      }
    }
    let sql = parsed.sql;
    if (this.readOnly) {
      if (kind.kind === 'write' || (kind.kind === 'pragma' && touchesQueryOnly(parsed.tokens))) throw new StmtError(BLOCKED_MESSAGE, 'BLOCKED');
      // a read-only session never writes, so taking the write lock up front only blocks others
      if (kind.verb === 'BEGIN' && parsed.tokens.some((t) => /^(IMMEDIATE|EXCLUSIVE)$/i.test(t.text))) sql = 'BEGIN DEFERRED';
    }
    const args = bindArgs(parsed, b).map(asBindable);
    if (setsConnectionState(parsed.tokens, kind.verb)) this.pristine = false;
    if (createsTemp(parsed.tokens, kind.verb)) {
      this.pristine = false;
      this.hasTemp = true;
      this.schema = null;
    }
    const started = performance.now();
    const deadline = started + this.limits.statementTimeoutMs;
    let entry: Prepared;
    try {
      await this.syncSchema();
      entry = await this.prepare(sql, kind.explain);
    } catch (error) {
      throw error instanceof StmtError ? error : this.mapped(error, 'prepare');
    }
    const prepared = entry.stmt;
    // Column names are read after the first step, as sqld does: a cached statement that SQLite
    // re-prepared for a schema committed meanwhile names the columns it now returns.
    let cols: StmtResult['cols'] = [];
    let begun = false;
    const begin = () => {
      if (begun) return;
      begun = true;
      cols = prepared.reader ? prepared.columns().map((c) => ({ name: c.name, decltype: c.type })) : [];
      sink?.begin(cols);
    };
    const dml = !kind.explain && (kind.verb === 'INSERT' || kind.verb === 'REPLACE' || kind.verb === 'UPDATE' || kind.verb === 'DELETE');
    const insert = !kind.explain && (kind.verb === 'INSERT' || kind.verb === 'REPLACE');
    let rows: WireValue[][] = [];
    let meta: [bigint, bigint] | null = null;
    let reading = false;
    /** Rows the statement produced (kept or not). */
    let produced = 0;
    let rowsRead = 0;
    // one writer at a time: wait for the lock here rather than meet SQLITE_BUSY inside SQLite
    if (entry.writes || kind.verb === 'VACUUM') await this.gate.acquire(this);
    try {
      if (quick(parsed.tokens, kind)) {
        // cannot run long: on this thread, without the hand-off to the engine's thread and back
        if (prepared.reader) {
          const row = prepared.raw(true).safeIntegers(true).get(args) as unknown[] | undefined;
          begin();
          if (row) produced = 1;
          if (row && b.wantRows && sink) sink.row(row);
          else if (row && b.wantRows) {
            if (row.reduce((n: number, v) => n + wireSize(v), 0) > this.limits.maxResponseBytes) throw this.tooLarge();
            rows = [row.map(encodeValue)];
          }
        } else {
          prepared.run(args);
        }
        begin();
      } else {
        // the first step runs off the main thread (interruptible); a writer does all its work there
        const it = await this.offThread(deadline, () => (prepared.reader ? prepared.raw(true).safeIntegers(true) : prepared).iterate(args));
        begin();
        reading = true;
        if (sink && b.wantRows && prepared.reader) produced = await this.streamRows(it, sink);
        else ({ rows, count: produced } = this.readRows(it, deadline, b.wantRows && prepared.reader));
        reading = false;
      }
      entry.runs++;
      if (dml || insert) meta = await this.metaRow();
      const changed = dml && meta ? Number(meta[0]) : 0;
      rowsRead = kind.explain
        ? 0
        : await this.rowsRead(
            sql,
            entry,
            quick(parsed.tokens, kind) && kind.verb === 'SELECT' ? 0 : produced + (kind.verb === 'UPDATE' || kind.verb === 'DELETE' ? changed : 0),
          );
    } catch (error) {
      this.prepared.delete(sql);
      throw await this.runFailure(error, reading || leavesStatementActive(error));
    } finally {
      if (!KEEPS_SCHEMA.has(kind.verb)) this.schemaPinned = false;
      if (!this.db.inTransaction) this.gate.release(this);
    }
    return {
      cols,
      rows,
      affected_row_count: dml && meta ? Number(meta[0]) : 0,
      last_insert_rowid: insert && meta ? String(meta[1]) : null,
      replication_index: null,
      rows_read: rowsRead,
      rows_written: dml && meta ? Number(meta[0]) : 0,
      query_duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    };
  }

  /**
   * Runs before SQLite ever prepares the text: preparing a pragma already acts (a cipher key, a
   * temp directory), so the policy cannot wait for the run.
   */
  private vetText(tokens: StatementText['tokens'], verb: string): void {
    // The hosted database is one file: ATTACH/DETACH and VACUUM INTO would read or create other
    // files on the machine running the emulator (sqld refuses ATTACH without an attach grant).
    if (verb === 'ATTACH' || verb === 'DETACH' || (verb === 'VACUUM' && tokens.some((t) => /^INTO$/i.test(t.text)))) {
      throw new StmtError(`not authorized: ${verb === 'VACUUM' ? 'VACUUM INTO' : verb} is not allowed on the hosted database`, 'SQLITE_AUTH');
    }
    checkStatementText(tokens, verb, this.catalog);
  }

  /** The parse error sqld's own parser would raise for this statement, if any (nothing runs). */
  async syntaxError(sql: string): Promise<StmtError | null> {
    try {
      await this.prepare(sql, false);
      return null;
    } catch (error) {
      if (error instanceof StmtError) return null;
      const mapped = mapEngineError(error, 'prepare');
      return mapped.code === 'SQL_PARSE_ERROR' ? mapped : null;
    }
  }

  /** Runs every statement of the text; stops at the first error. */
  async sequence(sql: string): Promise<void> {
    let parts: StatementText[];
    try {
      parts = splitStatements(sql);
    } catch (error) {
      throw new StmtError(`SQL string could not be parsed: ${(error as Error).message}`, 'SQL_PARSE_ERROR');
    }
    for (const part of parts) await this.execute({ sql: part.sql, args: [], namedArgs: [], wantRows: false }, part);
  }

  async describe(sql: string): Promise<DescribeResult> {
    const parsed = singleStatement(sql);
    const kind = classify(parsed.tokens);
    let names: (string | null)[];
    let prepared: AsyncStatement;
    this.vetText(parsed.tokens, kind.verb);
    try {
      names = parameters(parsed.tokens).names;
      await this.syncSchema();
      prepared = await this.prepareFresh(parsed.sql);
    } catch (error) {
      if (error instanceof SqlTextError) throw new StmtError(`SQL input error: ${error.message}`, 'SQL_INPUT_ERROR');
      throw this.mapped(error, 'prepare');
    }
    const readOnly = kind.kind === 'read' || kind.kind === 'transaction' || (kind.kind === 'pragma' && !parsed.tokens.some((t) => t.text === '='));
    return {
      params: names.map((name) => ({ name })),
      cols: prepared.reader ? prepared.columns().map((c) => ({ name: c.name, decltype: c.type })) : [],
      is_explain: kind.explain,
      is_readonly: readOnly,
    };
  }

  /** Drops the connection; an open transaction is rolled back. */
  async close(): Promise<void> {
    await this.rollback();
    this.db.close();
  }

  /** Rolls back and makes the connection fit for another stream. */
  async reset(): Promise<void> {
    this.cancelPending = false;
    if (this.db.inTransaction) await this.db.exec('ROLLBACK');
    this.gate.release(this);
    await this.setReadOnly(false);
  }

  private async rollback(): Promise<void> {
    try {
      if (this.db.inTransaction) await this.db.exec('ROLLBACK');
    } catch {
      // closing the connection rolls back anyway
    }
    if (!this.db.inTransaction) this.gate.release(this);
  }

  /**
   * A statement was left running (SQLITE_BUSY/LOCKED, or rows left unread). libsql 0.5.29 cannot
   * reset or finalize a statement without running it again, and while it counts as active the
   * connection never commits an autocommit write (acknowledged, then lost). So the handle is
   * retired with its statements (rolled back, closed) and the connection goes on with a new one.
   */
  private async retire(): Promise<void> {
    this.stale = true;
    await this.rollback();
    this.prepared.clear();
    this.meta = null;
    this.schema = null;
    this.schemaPinned = false;
    this.schemaStmts = new Map();
    this.gate.release(this);
    const fresh = await openHandle(this.file);
    if (this.readOnly) await fresh.exec('PRAGMA query_only = 1');
    this.db.close();
    this.db = fresh;
    this.stale = false;
  }

  /** Awaits work done off the main thread; past the deadline the connection is interrupted. */
  private async offThread<T>(deadline: number, work: () => Promise<T>): Promise<T> {
    this.timedOut = false;
    this.cancelled = this.cancelPending;
    this.cancelPending = false;
    if (this.cancelled) throw new StmtError('interrupted', 'SQLITE_INTERRUPT');
    this.running = true;
    const timer = setTimeout(
      () => {
        this.timedOut = true;
        this.db.interrupt();
      },
      Math.max(0, deadline - performance.now()),
    );
    try {
      return await work();
    } finally {
      clearTimeout(timer);
      this.running = false;
    }
  }

  /** Reads the rest of the rows on the main thread, in the engine's chunks, checking the limits. */
  private readRows(it: Iterator<unknown>, deadline: number, keep: boolean): { rows: WireValue[][]; count: number } {
    const rows: WireValue[][] = [];
    let bytes = 0;
    let n = 0;
    for (let r = it.next(); !r.done; r = it.next()) {
      const raw = r.value as unknown[];
      if (keep) {
        const row = new Array<WireValue>(raw.length);
        for (let i = 0; i < raw.length; i++) {
          bytes += wireSize(raw[i]);
          row[i] = encodeValue(raw[i]);
        }
        rows.push(row);
        if (bytes > this.limits.maxResponseBytes) throw this.tooLarge();
      }
      if ((++n & 63) === 0 && performance.now() > deadline) {
        this.timedOut = true;
        throw new StmtError('interrupted', 'SQLITE_INTERRUPT');
      }
    }
    return { rows, count: n };
  }

  /**
   * A cursor's rows, handed to the sink as they are read. The statement limit counts the time
   * spent reading between pauses, not the time the receiver takes: a big export is not cut off.
   * A reader that stops early leaves the statement active: the caller retires the handle.
   */
  private async streamRows(it: Iterator<unknown>, sink: RowSink): Promise<number> {
    const limit = this.limits.statementTimeoutMs;
    let deadline = performance.now() + limit;
    let n = 0;
    let count = 0;
    for (let r = it.next(); !r.done; r = it.next()) {
      count++;
      sink.row(r.value as unknown[]);
      if (sink.full()) {
        await sink.drain();
        deadline = performance.now() + limit;
      } else if ((++n & 63) === 0 && performance.now() > deadline) {
        this.timedOut = true;
        throw new StmtError('interrupted', 'SQLITE_INTERRUPT');
      }
    }
    return count;
  }

  /**
   * A failed run: a timeout or cancel rolls the stream's transaction back (nothing half-done
   * stays); a statement left running retires the handle it runs on (see retire).
   */
  private async runFailure(error: unknown, leftActive: boolean): Promise<StmtError> {
    const inTx = this.db.inTransaction;
    // if the new handle cannot be opened now, the next statement (or the pool) tries again
    if (leftActive) await this.retire().catch(() => {});
    if (this.timedOut || this.cancelled) {
      const why = this.timedOut ? `the statement ran longer than ${this.limits.statementTimeoutMs} ms, the limit of this server` : 'the request was cancelled';
      await this.rollback();
      return new StmtError(`SQLite error: interrupted (${why}${inTx ? '; the transaction was rolled back' : ''})`, 'SQLITE_INTERRUPT');
    }
    const mapped = error instanceof StmtError ? error : this.mapped(error, 'run');
    return leftActive && inTx ? new StmtError(`${mapped.message} (the transaction was rolled back)`, mapped.code) : mapped;
  }

  private tooLarge(): StmtError {
    return new StmtError(`Response is too large: the rows of this statement exceed ${this.limits.maxResponseBytes} bytes`, 'RESPONSE_TOO_LARGE');
  }

  private async metaRow(): Promise<[bigint, bigint]> {
    this.meta ??= (await this.db.prepare('SELECT changes(), last_insert_rowid()')).raw(true).safeIntegers(true);
    // trivial: read at once on this thread rather than another round to the engine's
    return this.meta.get([]) as [bigint, bigint];
  }

  /** A cached statement, or a new one whose compiled program passed the policy (engine-policy.ts). */
  private async prepare(sql: string, isExplain: boolean): Promise<Prepared> {
    const hit = this.prepared.get(sql);
    if (hit) {
      this.prepared.delete(sql);
      this.prepared.set(sql, hit);
      return hit;
    }
    let tokens: StatementText['tokens'] | null = null;
    try {
      tokens = splitStatements(sql)[0]?.tokens ?? null;
    } catch {
      // text SQLite will refuse to prepare anyway
    }
    if (tokens) this.vetText(tokens, classify(tokens).verb);
    if (this.schema === null) await this.syncSchema();
    const stmt = await this.prepareFresh(sql);
    // an EXPLAIN only lists a program; anything else is vetted from its own listing
    const facts = isExplain ? unlistedFacts(false) : await this.vettedFacts(sql, tokens, stmt.reader);
    const entry: Prepared = { stmt, writes: facts.writes, facts, runs: 0, scanned: 0 };
    this.prepared.set(sql, entry);
    if (this.prepared.size > STATEMENT_CACHE) this.prepared.delete(this.prepared.keys().next().value!);
    return entry;
  }

  /**
   * The statement's program, vetted from its EXPLAIN listing. The listing shows a blob literal's
   * bytes as TEXT, and libsql aborts the process on TEXT that is not UTF-8: blob literals are
   * listed as x'' (the program is the same otherwise), and while a view or trigger holds one
   * (its text was vetted when it was made) the listing is not read at all.
   */
  private async programFacts(sql: string, tokens: StatementText['tokens'] | null, reader: boolean, blobLiterals: boolean): Promise<ProgramFacts> {
    if (tokens === null || blobLiterals) return unlistedFacts(!reader || (tokens !== null && classify(tokens).kind === 'write'));
    let listed = '';
    let at = 0;
    for (const t of tokens) {
      if (t.kind === 'string' && /^x'/i.test(t.text)) {
        listed += `${sql.slice(at, t.start)}x''`;
        at = t.end;
      }
    }
    listed += sql.slice(at);
    return checkProgram(await allRows(await this.db.prepare(`EXPLAIN ${listed}`)));
  }

  /**
   * The program check's verdict for this text under this schema: the same check, made once per
   * text and schema content for every connection of the engine (not once per connection).
   */
  private async vettedFacts(sql: string, tokens: StatementText['tokens'] | null, reader: boolean): Promise<ProgramFacts> {
    if (this.schema === null) await this.syncSchema();
    const { fingerprint, blobLiterals } = this.schema!;
    let verdict = cachedVerdict(fingerprint, sql);
    if (verdict === undefined) {
      try {
        verdict = await this.programFacts(sql, tokens, reader, blobLiterals);
      } catch (error) {
        if (!(error instanceof StmtError)) throw error;
        verdict = error;
      }
      rememberVerdict(fingerprint, sql, verdict);
    }
    if (verdict instanceof StmtError) throw verdict;
    return verdict;
  }

  /**
   * Reads the schema version before a statement: when another connection (or this one) changed
   * the schema, the stale schema is reloaded, its content hashed, and every statement prepared
   * under the old one dropped. Cheap when nothing changed: one pragma read on this thread.
   */
  async syncSchema(): Promise<void> {
    if (this.schemaPinned && this.db.inTransaction && this.schema !== null) return;
    let version = String(await this.schemaValue(SCHEMA_SQL.mainVersion));
    if (this.hasTemp) version += `/${String(await this.schemaValue(SCHEMA_SQL.tempVersion))}`;
    this.schemaPinned = this.db.inTransaction;
    if (this.schema?.version === version) return;
    (await this.schemaStmt(SCHEMA_SQL.reload)).get([]);
    const rows = await allRows(await this.schemaStmt(SCHEMA_SQL.main));
    if (this.hasTemp) rows.push(...(await allRows(await this.schemaStmt(SCHEMA_SQL.temp))));
    this.prepared.clear();
    this.schema = schemaState(version, rows);
  }

  /**
   * The rows a statement read, as near to sqld's count as this engine shows it. sqld reports
   * libsql's LIBSQL_STMTSTATUS_ROWS_READ: one per cursor step and seek (a scan of N rows is N),
   * and for count(*) the b-tree pages it visits. The libsql npm package does not expose that
   * counter, so: the rows the statement produced (and, for UPDATE/DELETE, changed); or, when its
   * program scans a whole table or builds an automatic index, SQLite's own count of those steps
   * (sqlite_stmt's nscan + naidx) if larger; plus, for count(*), the b-tree's pages (dbstat) as
   * libsql counts them. Index seeks that find nothing and the inner loops of joins by index are
   * not seen.
   */
  private async rowsRead(sql: string, entry: Prepared, visited: number): Promise<number> {
    // count(*)'s one row is made, not read: the pages are its reads
    let read = entry.facts.countRoots.length > 0 ? 0 : visited;
    if (entry.facts.scans) {
      const row = (await this.schemaStmt(COUNTER_SQL.steps)).get([sql, entry.runs]) as unknown[] | undefined;
      if (row) {
        const total = Number(row[0]);
        const steps = total - entry.scanned;
        entry.scanned = total;
        // a scan of N rows is its first row (the rewind) and N - 1 steps
        if (steps > 0) read = Math.max(read, steps + 1);
      }
    }
    for (const root of entry.facts.countRoots) read += await this.countedPages(root);
    return read;
  }

  /**
   * The pages libsql's count(*) visits in one b-tree, from dbstat. Walking them this way costs
   * more than the count itself (about 20x): past a second the figure is left out rather than
   * the statement, which already ran, made to wait.
   */
  private async countedPages(root: number): Promise<number> {
    try {
      const [name, type] = (await this.schemaStmt(COUNTER_SQL.btree)).get([root]) as [string, string];
      const pages = await this.schemaStmt(COUNTER_SQL.pages);
      const it = await this.offThread(performance.now() + Math.min(1000, this.limits.statementTimeoutMs), () =>
        pages.iterate([name, type === 'index' ? 1 : 0]),
      );
      const first = it.next();
      while (!it.next().done);
      return first.done ? 0 : Number((first.value as unknown[])[0]);
    } catch {
      this.timedOut = false;
      this.schemaStmts.delete(COUNTER_SQL.pages);
      return 0;
    }
  }

  /** The first column of a schema statement's row (read on this thread: it cannot run long). */
  private async schemaValue(sql: string): Promise<unknown> {
    return ((await this.schemaStmt(sql)).get([]) as unknown[] | undefined)?.[0];
  }

  private async schemaStmt(sql: string): Promise<AsyncStatement> {
    let stmt = this.schemaStmts.get(sql);
    if (!stmt) {
      stmt = (await this.db.prepare(sql)).raw(true);
      this.schemaStmts.set(sql, stmt);
    }
    return stmt;
  }

  /**
   * Prepares a statement against the schema as committed: a prepare that fails (no such column,
   * wrong number of values) is tried once more after the schema is reloaded, in case another
   * connection committed a change between the version read and the prepare.
   */
  private async prepareFresh(sql: string): Promise<AsyncStatement> {
    try {
      return await this.db.prepare(sql);
    } catch (error) {
      if (PARSE_ERROR.test(String((error as { message?: unknown }).message))) throw error;
      const known = this.schema?.version;
      await this.syncSchema();
      // the schema is the one the failed prepare saw: the error stands
      if (this.schema?.version === known) throw error;
      return this.db.prepare(sql);
    }
  }

  private mapped(error: unknown, stage: 'prepare' | 'run'): StmtError {
    const e = error as { rawCode?: unknown };
    if (this.readOnly && typeof e.rawCode === 'number' && (e.rawCode & 0xff) === 8) return new StmtError(BLOCKED_MESSAGE, 'BLOCKED');
    return mapEngineError(error, stage);
  }
}

/** Blobs may arrive from the parent as plain Uint8Arrays; the engine binds Buffers. */
function asBindable(v: EngineValue | Uint8Array): EngineValue {
  return v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : (v as EngineValue);
}
