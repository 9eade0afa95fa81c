import Database from 'libsql';
import { performance } from 'node:perf_hooks';
import { classify, parameters, splitStatements, SqlTextError, touchesQueryOnly, type StatementText } from './sql-text';
import { encodeValue, type EngineValue, type WireValue } from './values';

type Db = InstanceType<typeof Database>;

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

/** An error that fails one request (or one batch step) while the HTTP answer stays 200. */
export class StmtError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

export interface BoundStmt {
  sql: string;
  args: EngineValue[];
  namedArgs: { name: string; value: EngineValue }[];
  wantRows: boolean;
}

export const BLOCKED_MESSAGE = "Operation was blocked: SQL write operations are forbidden (current session doesn't have write permission)";

const PRIMARY: Record<number, string> = {
  2: 'SQLITE_INTERNAL', 3: 'SQLITE_PERM', 4: 'SQLITE_ABORT', 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED', 7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY', 9: 'SQLITE_INTERRUPT', 10: 'SQLITE_IOERR', 11: 'SQLITE_CORRUPT', 12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL', 14: 'SQLITE_CANTOPEN', 15: 'SQLITE_PROTOCOL', 17: 'SQLITE_SCHEMA', 18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT', 20: 'SQLITE_MISMATCH', 21: 'SQLITE_MISUSE', 22: 'SQLITE_NOLFS', 23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE', 26: 'SQLITE_NOTADB',
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

/** One SQLite connection: what a Hrana stream runs its statements on. */
export class Connection {
  private readonly db: Db;
  private readOnly = false;
  private meta: ReturnType<Db['prepare']> | null = null;

  constructor(readonly file: string) {
    this.db = new Database(file);
    this.db.exec('PRAGMA busy_timeout = 20');
    this.db.exec('PRAGMA foreign_keys = ON');
  }

  get autocommit(): boolean {
    return !this.db.inTransaction;
  }

  /** A read-only session: writes are refused with BLOCKED, and the connection is query_only as a net. */
  setReadOnly(readOnly: boolean): void {
    if (readOnly === this.readOnly) return;
    this.db.exec(`PRAGMA query_only = ${readOnly ? 1 : 0}`);
    this.readOnly = readOnly;
  }

  execute(b: BoundStmt, stmtText?: StatementText): StmtResult {
    const parsed = stmtText ?? singleStatement(b.sql);
    const kind = classify(parsed.tokens);
    let sql = parsed.sql;
    if (this.readOnly) {
      if (kind.kind === 'write' || (kind.kind === 'pragma' && touchesQueryOnly(parsed.tokens))) throw new StmtError(BLOCKED_MESSAGE, 'BLOCKED');
      // a read-only session never writes, so taking the write lock up front only blocks others
      if (kind.verb === 'BEGIN' && parsed.tokens.some((t) => /^(IMMEDIATE|EXCLUSIVE)$/i.test(t.text))) sql = 'BEGIN DEFERRED';
    }
    const args = bindArgs(parsed, b);
    const started = performance.now();
    let prepared;
    try {
      prepared = this.db.prepare(sql);
    } catch (error) {
      throw this.mapped(error, 'prepare');
    }
    const cols = prepared.reader ? prepared.columns().map((c) => ({ name: c.name, decltype: c.type })) : [];
    const dml = !kind.explain && (kind.verb === 'INSERT' || kind.verb === 'REPLACE' || kind.verb === 'UPDATE' || kind.verb === 'DELETE');
    const insert = !kind.explain && (kind.verb === 'INSERT' || kind.verb === 'REPLACE');
    let rows: WireValue[][] = [];
    let changes = 0;
    try {
      if (prepared.reader) {
        const raw = prepared.raw(true).safeIntegers(true).all(args) as unknown[][];
        if (b.wantRows) rows = raw.map((r) => r.map(encodeValue));
        if (dml) changes = Number(this.metaRow()[0]);
      } else {
        changes = prepared.run(args).changes;
      }
    } catch (error) {
      throw this.mapped(error, 'run');
    }
    const lastInsert = insert ? String(this.metaRow()[1]) : null;
    return {
      cols,
      rows,
      affected_row_count: dml ? changes : 0,
      last_insert_rowid: lastInsert,
      replication_index: null,
      rows_read: 0,
      rows_written: 0,
      query_duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    };
  }

  /** The parse error sqld's own parser would raise for this statement, if any (nothing runs). */
  syntaxError(sql: string): StmtError | null {
    try {
      this.db.prepare(sql);
      return null;
    } catch (error) {
      const mapped = mapEngineError(error, 'prepare');
      return mapped.code === 'SQL_PARSE_ERROR' ? mapped : null;
    }
  }

  /** Runs every statement of the text; stops at the first error. */
  sequence(sql: string): void {
    let parts: StatementText[];
    try {
      parts = splitStatements(sql);
    } catch (error) {
      throw new StmtError(`SQL string could not be parsed: ${(error as Error).message}`, 'SQL_PARSE_ERROR');
    }
    for (const part of parts) this.execute({ sql: part.sql, args: [], namedArgs: [], wantRows: false }, part);
  }

  describe(sql: string): DescribeResult {
    const parsed = singleStatement(sql);
    const kind = classify(parsed.tokens);
    let names: (string | null)[];
    let prepared;
    try {
      names = parameters(parsed.tokens).names;
      prepared = this.db.prepare(parsed.sql);
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
  close(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } catch {
      // closing rolls back anyway
    }
    this.db.close();
  }

  /** Rolls back and makes the connection fit for another stream. */
  reset(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.setReadOnly(false);
  }

  private metaRow(): [bigint, bigint] {
    this.meta ??= this.db.prepare('SELECT changes(), last_insert_rowid()').raw(true).safeIntegers(true);
    return this.meta.all([])[0] as [bigint, bigint];
  }

  private mapped(error: unknown, stage: 'prepare' | 'run'): StmtError {
    const e = error as { rawCode?: unknown };
    if (this.readOnly && typeof e.rawCode === 'number' && (e.rawCode & 0xff) === 8) return new StmtError(BLOCKED_MESSAGE, 'BLOCKED');
    return mapEngineError(error, stage);
  }
}
