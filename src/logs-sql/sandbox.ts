import { randomBytes } from 'node:crypto';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { LOGS_TABLE_DDL, COMPUTED_COLUMNS, STORED_COLUMNS } from './columns';

type DuckDb = typeof import('@duckdb/node-api');

/** A statement the engine will not run, with the reason to show. */
export class LogsSqlRefusal extends Error {}

/** The database the user's own tables and views go to (the logs table is in `memory`, DuckDB's main one). */
export const WORK_DB = 'work';

export const READ_ONLY_MESSAGE = 'the logs table is read-only: make your own, e.g. CREATE TEMP TABLE errors AS SELECT * FROM logs WHERE status >= 500';

/**
 * Statement kinds (DuckDB's own parse, not a reading of the text) never run for the user: they
 * reach files, extensions or settings, print around the shell (PRAGMA enable_profiling and the
 * progress-bar pragmas are not covered by the configuration lock, and CALL runs pragmas too), or
 * would end the transaction each statement runs in.
 */
const REFUSED_KINDS: ReadonlyMap<string, string> = new Map([
  ['COPY', 'reaches files'],
  ['EXPORT', 'reaches files'],
  ['COPY_DATABASE', 'reaches files'],
  ['ATTACH', 'reaches files'],
  ['DETACH', 'changes the databases attached'],
  ['LOAD', 'loads extensions'],
  ['EXTENSION', 'installs extensions'],
  ['UPDATE_EXTENSIONS', 'installs extensions'],
  ['SET', 'changes settings'],
  ['VARIABLE_SET', 'changes settings'],
  ['PRAGMA', 'changes settings or prints around the shell'],
  ['CALL', 'runs pragmas: use SELECT * FROM the table function instead'],
  ['TRANSACTION', 'each statement is its own transaction here'],
  ['PREPARE', 'is not needed here'],
  ['EXECUTE', 'is not needed here'],
  ['VACUUM', 'is not needed here'],
]);

/** Why a statement of this kind is refused, or null. */
export function refusedKind(kind: string): string | null {
  const why = REFUSED_KINDS.get(kind);
  return why ? `${kind} is not available on the logs table's engine (it ${why})` : null;
}

/** Anything named logs but the logs table itself would hide it from the user's own queries. */
const SHADOWS_QUERY = `SELECT count(*) FROM (
  SELECT database_name AS d, schema_name AS s, table_name AS n FROM duckdb_tables()
  UNION ALL SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal
) WHERE lower(n) = 'logs' AND NOT (d = 'memory' AND s = 'main')`;

/**
 * The logs table's engine, opened so that the engine itself refuses what the user must not do:
 * - `logs` lives in the database `memory`, written by burrow's own connection (`loader`);
 * - the user's statements run on another connection (`user`), each in a transaction that has
 *   first written to the database `work`. DuckDB lets one transaction write to one attached
 *   database only, so any change to `logs` (DELETE, DROP, ALTER, CREATE OR REPLACE, an EXPLAIN
 *   ANALYZE of one, whatever the text looks like) fails in the engine. The user's tables and views
 *   go to `work` (the default) or `temp`; the search path finds `logs` after them, and a statement
 *   that makes something named logs is rolled back;
 * - no file or directory is reachable: external access is off with no temp directory (so nothing
 *   spills and no path is implicitly allowed: DuckDB otherwise allows `<cwd>/.tmp` and
 *   `<cwd>/:memory:.wal`), no extension loads, and the configuration is locked;
 * - the progress bar is off for the user's connection, so DuckDB prints nothing itself.
 */
export class Sandbox {
  private readonly guardTable = `__burrow_guard_${randomBytes(6).toString('hex')}`;

  private constructor(
    readonly instance: DuckDBInstance,
    readonly loader: DuckDBConnection,
    readonly user: DuckDBConnection,
    private readonly threads: number | undefined,
  ) {}

  /** Locking the configuration (once: a sync's seal and a statement's may meet). */
  private sealing: Promise<void> | null = null;

  /**
   * `threads`: DuckDB's threads once sealed; until then (burrow's own first load, before any
   * statement of the user's) it uses one per core.
   */
  static async open(duck: DuckDb, options: { threads?: number }): Promise<Sandbox> {
    const instance = await duck.DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    const loader = await instance.connect();
    const user = await instance.connect();
    try {
      await loader.run(LOGS_TABLE_DDL);
      for (const column of [...STORED_COLUMNS, ...COMPUTED_COLUMNS]) {
        await loader.run(`COMMENT ON COLUMN logs.${column.name} IS '${column.doc.replace(/'/g, "''")}'`);
      }
      await loader.run(`ATTACH ':memory:' AS ${WORK_DB}`);
      await user.run(`SET search_path = '${WORK_DB}.main,memory.main'`);
      await user.run('SET enable_progress_bar = false');
      await user.run('SET enable_progress_bar_print = false');
      // in this order: the temp directory cannot be changed once external access is off, and
      // turned off at run time (not at start) external access allows no path at all
      await loader.run("SET temp_directory = ''");
      await loader.run('SET enable_external_access = false');
    } catch (error) {
      user.closeSync();
      loader.closeSync();
      instance.closeSync();
      throw error;
    }
    return new Sandbox(instance, loader, user, options.threads);
  }

  /**
   * Drops to the threads asked for and locks the configuration. Runs before any statement of the
   * user's (engine.run and readRows call it first), so nothing the user writes meets an unlocked
   * engine; burrow calls it after its first load, which may use every core.
   */
  seal(): Promise<void> {
    this.sealing ??= (async () => {
      if (this.threads) await this.loader.run(`SET threads = ${Math.max(1, Math.floor(this.threads))}`);
      await this.loader.run('SET lock_configuration = true');
    })();
    return this.sealing;
  }

  /**
   * Runs `work` (the user's statement) in a transaction that may write to `work` and `temp` only;
   * commits unless it failed or made something named logs.
   */
  async guarded<T>(work: () => Promise<T>): Promise<T> {
    await this.seal();
    await this.user.run('BEGIN TRANSACTION');
    try {
      // a write to `work` first: from now on this transaction cannot write to `memory`
      await this.user.run(`CREATE TABLE ${WORK_DB}.main.${this.guardTable} (x INTEGER); DROP TABLE ${WORK_DB}.main.${this.guardTable}`);
    } catch (error) {
      await this.rollback();
      throw new LogsSqlRefusal(`the logs table's engine could not make its read-only guard, so nothing was run: ${firstLine(error)}`);
    }
    let out: T;
    try {
      out = await work();
      const shadows = await this.user.runAndReadAll(SHADOWS_QUERY);
      if (Number(shadows.getRows()[0]?.[0] ?? 0) > 0)
        throw new LogsSqlRefusal('logs is the name of the logs table: give your table or view another name (nothing was changed)');
    } catch (error) {
      await this.rollback();
      throw refusalOf(error);
    }
    await this.user.run('COMMIT');
    return out;
  }

  private async rollback(): Promise<void> {
    try {
      await this.user.run('ROLLBACK');
    } catch {
      // no transaction left to roll back
    }
  }

  close(): void {
    this.user.closeSync();
    this.loader.closeSync();
    this.instance.closeSync();
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** The engine's refusal to write to `memory` is the logs table's read-only rule: said so. */
export function refusalOf(error: unknown): unknown {
  if (error instanceof LogsSqlRefusal) return error;
  const message = error instanceof Error ? error.message : '';
  if (/a single transaction can only write to a single attached database/.test(message) && /write to database "memory"/.test(message)) {
    return new LogsSqlRefusal(READ_ONLY_MESSAGE);
  }
  return error;
}
