import { createHash } from 'node:crypto';
import type { ProgramFacts } from './engine-policy';
import type { StmtError } from './stmt-error';
import type { Token } from './sql-text';

/*
 * Runs in the engine process. What a connection knows of its database's schema, so that every
 * statement is prepared and vetted against the schema as committed when it runs (sqld opens a
 * connection per stream; the emulator pools them and caches prepared statements).
 *
 * SQLite re-prepares a cached statement by itself when the schema cookie changed, but a new
 * prepare uses the schema the connection loaded last (`table t has 1 columns but 4 values were
 * supplied` after another connection added three), and reading `PRAGMA schema_version` does not
 * reload it. A statement that reads sqlite_schema does: its transaction checks the cookie.
 */

/** The SQL a connection reads its schema state with (each prepared once per handle). */
export const SCHEMA_SQL = {
  mainVersion: 'PRAGMA main.schema_version',
  tempVersion: 'PRAGMA temp.schema_version',
  /** Runs nothing, but its transaction checks the schema cookie and reloads a stale schema. */
  reload: 'SELECT 1 FROM main.sqlite_schema WHERE 0',
  main: 'SELECT type, name, tbl_name, sql FROM main.sqlite_schema ORDER BY rowid',
  temp: 'SELECT type, name, tbl_name, sql FROM temp.sqlite_schema ORDER BY rowid',
} as const;

/** The SQL the engine reads SQLite's own counters with, for the rows a statement read (engine.ts rowsRead). */
export const COUNTER_SQL = {
  /** SQLite's full-scan and automatic-index steps of one prepared statement, found by its text and run count. */
  steps: 'SELECT nscan + naidx FROM sqlite_stmt WHERE sql = ? AND run = ?',
  /** The b-tree's name, and 'index' when its pages all hold entries (an index, a WITHOUT ROWID table). */
  btree:
    "SELECT coalesce((SELECT name FROM main.sqlite_schema WHERE rootpage = ?1), 'sqlite_schema'), " +
    "coalesce((SELECT CASE WHEN type = 'index' OR sql LIKE '%without%rowid%' THEN 'index' ELSE 'table' END FROM main.sqlite_schema WHERE rootpage = ?1), 'table')",
  /** The pages libsql's OP_Count counts: a table's leaf pages, every page of an index. */
  pages: "SELECT count(*) FROM main.dbstat WHERE name = ?1 AND (pagetype = 'leaf' OR (pagetype = 'internal' AND ?2))",
} as const;

/** What a schema's content says, computed once per change of its version. */
export interface SchemaState {
  /** The schema_version(s) this was read at ("12", or "12/3" with a temp schema). */
  version: string;
  /** Hash of every object's type, names and SQL (main and temp): equal content, equal programs. */
  fingerprint: string;
  /** A view or trigger holds a blob literal (the EXPLAIN listing is not read then; see engine.ts). */
  blobLiterals: boolean;
}

export function schemaState(version: string, rows: readonly (readonly unknown[])[]): SchemaState {
  const hash = createHash('sha256');
  let blobLiterals = false;
  for (const r of rows) {
    hash.update(`${String(r[0])}\u0000${String(r[1])}\u0000${String(r[2])}\u0000${r[3] === null ? '\u0001' : String(r[3])}\u0002`);
    if ((r[0] === 'view' || r[0] === 'trigger') && /(^|[^\w])x'/i.test(String(r[3] ?? ''))) blobLiterals = true;
  }
  return { version, fingerprint: hash.digest('base64url'), blobLiterals };
}

/**
 * The program check's verdicts, shared by every connection of the engine: keyed by the schema's
 * content and the statement text, which together decide the compiled program. A verdict is either
 * what the program does or the refusal. Bounded; the oldest verdict goes first.
 */
const VERDICTS_MAX = 8192;
const verdicts = new Map<string, ProgramFacts | StmtError>();

export function cachedVerdict(fingerprint: string, sql: string): ProgramFacts | StmtError | undefined {
  return verdicts.get(`${fingerprint}\u0000${sql}`);
}

export function rememberVerdict(fingerprint: string, sql: string, verdict: ProgramFacts | StmtError): void {
  const key = `${fingerprint}\u0000${sql}`;
  verdicts.delete(key);
  verdicts.set(key, verdict);
  if (verdicts.size > VERDICTS_MAX) verdicts.delete(verdicts.keys().next().value!);
}

const upper = (t: Token | undefined) => (t && (t.kind === 'word' || t.kind === 'ident') ? t.text.replace(/^["`[]|["`\]]$/g, '').toUpperCase() : '');

/** A CREATE that makes a temp object: the connection then has a schema of its own. */
export function createsTemp(tokens: readonly Token[], verb: string): boolean {
  return verb === 'CREATE' && tokens.some((t) => upper(t) === 'TEMP' || upper(t) === 'TEMPORARY');
}

/** Pragmas that take an argument only to read something: they change nothing on the connection. */
const READING_PRAGMAS = new Set([
  'TABLE_INFO',
  'TABLE_XINFO',
  'TABLE_LIST',
  'INDEX_INFO',
  'INDEX_XINFO',
  'INDEX_LIST',
  'FOREIGN_KEY_LIST',
  'FOREIGN_KEY_CHECK',
  'INTEGRITY_CHECK',
  'QUICK_CHECK',
  'WAL_CHECKPOINT',
  'INCREMENTAL_VACUUM',
  'OPTIMIZE',
]);

/**
 * A pragma that sets something on the connection (foreign_keys, recursive_triggers, ...): a
 * connection that ran one is not handed to another stream, which would inherit the setting.
 */
export function setsConnectionState(tokens: readonly Token[], verb: string): boolean {
  if (verb !== 'PRAGMA') return false;
  if (tokens.some((t) => t.text === '=')) return true;
  const open = tokens.findIndex((t) => t.text === '(');
  if (open < 0) return false;
  const name = tokens[open - 1];
  return !READING_PRAGMAS.has(upper(name));
}
