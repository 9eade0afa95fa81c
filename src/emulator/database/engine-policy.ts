import { StmtError } from './stmt-error';
import type { Token } from './sql-text';

/*
 * What SQL may use on the hosted database. The libsql build in the `libsql` npm package compiles
 * in SQLite's fileio, sha3, carray, dbpage and cipher extensions: readfile(), writefile(),
 * fsdir, sha3_query() (runs any SQL, ATTACH included), fts3_tokenizer() (takes a pointer),
 * load_extension(), sqlite_dbpage (raw page writes), the sqlite3mc_* cipher controls. The real
 * platform has none of them. Everything here is an allow-list: a function, virtual table module
 * or pragma the engine has and that is not listed is refused, so a newer libsql that adds one
 * does not open a hole.
 */

/** Scalar, aggregate and window functions SQL may call (libsql 0.5.29 has 230; these are the safe ones). */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set(
  // core
  (
    'abs changes char coalesce concat concat_ws format glob hex ifnull iif instr last_insert_rowid length like likelihood likely ' +
    'lower ltrim max min nullif octet_length printf quote random randomblob replace round rtrim sign soundex ' +
    'sqlite_compileoption_get sqlite_compileoption_used sqlite_source_id sqlite_version substr substring subtype total_changes trim ' +
    'typeof unhex unicode unlikely upper zeroblob ' +
    // aggregates and windows
    'avg count group_concat string_agg sum total cume_dist dense_rank first_value lag last_value lead nth_value ntile ' +
    'percent_rank rank row_number ' +
    // date and time
    'current_date current_time current_timestamp date datetime julianday strftime time timediff unixepoch ' +
    // JSON
    '-> ->> json json_array json_array_length json_error_position json_extract json_group_array json_group_object json_insert ' +
    'json_object json_patch json_quote json_remove json_replace json_set json_type json_valid jsonb jsonb_array jsonb_extract ' +
    'jsonb_group_array jsonb_group_object jsonb_insert jsonb_object jsonb_patch jsonb_remove jsonb_replace jsonb_set ' +
    // math (SQLite's and the extension-functions set)
    'acos acosh asin asinh atan atan2 atanh atn2 ceil ceiling cos cosh cot coth degrees difference exp floor ln log log10 pi ' +
    'power radians sin sinh sqrt square tan tanh stdev variance mode median lower_quartile upper_quartile ' +
    // strings (extension-functions set)
    'charindex leftstr padc padl padr proper replicate reverse rightstr strfilter ' +
    // regexp, uuid, hashes
    'regexp regexpi uuid uuid_blob uuid_str sha3 ' +
    // full-text search and r-tree auxiliaries
    'bm25 highlight snippet match matchinfo offsets optimize fts5 fts5_source_id rtreecheck rtreedepth rtreenode ' +
    'geopoly_area geopoly_bbox geopoly_blob geopoly_ccw geopoly_contains_point geopoly_group_bbox geopoly_json geopoly_overlap ' +
    'geopoly_regular geopoly_svg geopoly_within geopoly_xform ' +
    // libsql vectors
    'libsql_vector_idx vector vector8 vector16 vector1bit vector32 vector64 vectorb16 vector_distance_cos vector_distance_l2 vector_extract ' +
    'last_rows_affected'
  ).split(' '),
);

/** Virtual table modules SQL may name (as an eponymous table or in CREATE VIRTUAL TABLE ... USING). */
export const ALLOWED_MODULES: ReadonlySet<string> = new Set([
  'dbstat',
  'fts3',
  'fts3tokenize',
  'fts4',
  'fts4aux',
  'fts5',
  'fts5vocab',
  'generate_series',
  'geopoly',
  'json_each',
  'json_tree',
  'pragma_module_list',
  'rtree',
  'rtree_i32',
  'sqlite_stmt',
  'vector_top_k',
]);

/**
 * Pragmas SQL may run: SQLite's list without temp_store_directory (moves temp files anywhere),
 * writable_schema and trusted_schema (would let a view or trigger smuggle a refused function or
 * module in), locking_mode (an exclusive lock shuts every other stream out) and the process-wide
 * heap limits. The cipher's key/rekey pragmas are not SQLite pragmas and are refused with the rest.
 */
export const ALLOWED_PRAGMAS: ReadonlySet<string> = new Set(
  (
    'analysis_limit application_id auto_vacuum automatic_index busy_timeout cache_size cache_spill case_sensitive_like ' +
    'cell_size_check checkpoint_fullfsync collation_list compile_options count_changes data_version database_list ' +
    'default_cache_size defer_foreign_keys empty_result_callbacks encoding foreign_key_check foreign_key_list foreign_keys ' +
    'freelist_count full_column_names fullfsync function_list ignore_check_constraints incremental_vacuum index_info ' +
    'index_list index_xinfo integrity_check journal_mode journal_size_limit legacy_alter_table max_page_count mmap_size ' +
    'module_list optimize page_count page_size pragma_list query_only quick_check read_uncommitted recursive_triggers ' +
    'reverse_unordered_selects schema_version secure_delete short_column_names synchronous table_info table_list ' +
    'table_xinfo temp_store user_version wal_autocheckpoint wal_checkpoint'
  ).split(' '),
);

/** A table-valued pragma (pragma_table_info ...) is read-only: allowed when its pragma is. */
export function moduleAllowed(name: string): boolean {
  return ALLOWED_MODULES.has(name) || (name.startsWith('pragma_') && ALLOWED_PRAGMAS.has(name.slice(7)));
}

/** What the engine has, read once from the engine itself (pragma_function_list, pragma_module_list). */
export interface EngineCatalog {
  functions: ReadonlySet<string>;
  modules: ReadonlySet<string>;
}

const refused = (what: string) =>
  new StmtError(
    `not authorized: ${what} is not available on the hosted database (the emulator refuses SQL that reaches the host's files, loads code or runs programs)`,
    'SQLITE_AUTH',
  );

/** An identifier's name as SQLite sees it: quotes and brackets removed, case folded. */
function nameOf(t: Token): string | null {
  if (t.kind === 'word') return t.text.toLowerCase();
  if (t.kind !== 'ident') return null;
  const q = t.text[0]!;
  const inner = t.text.slice(1, -1);
  return (q === '[' ? inner : inner.split(q + q).join(q)).toLowerCase();
}

/**
 * Checks a statement's text before it is prepared: its pragma, every virtual table module it
 * names and every engine function it calls (inside CREATE TRIGGER or CREATE VIEW too, which the
 * compiled-program check cannot see) must be allowed.
 */
export function checkStatementText(tokens: Token[], verb: string, catalog: EngineCatalog): void {
  if (verb === 'PRAGMA') {
    let i = tokens.findIndex((t) => t.kind === 'word' && t.text.toUpperCase() === 'PRAGMA') + 1;
    if (tokens[i + 1]?.text === '.') i += 2;
    const name = tokens[i] ? nameOf(tokens[i]!) : null;
    if (name !== null && !ALLOWED_PRAGMAS.has(name)) throw refused(`PRAGMA ${name}`);
  }
  for (let i = 0; i < tokens.length; i++) {
    const name = nameOf(tokens[i]!);
    if (name === null) continue;
    if (catalog.modules.has(name) && !moduleAllowed(name)) throw refused(`the virtual table ${name}`);
    if (tokens[i + 1]?.text === '(' && catalog.functions.has(name) && !ALLOWED_FUNCTIONS.has(name)) throw refused(`the function ${name}()`);
  }
}

/**
 * SQLite's own helpers for ALTER TABLE RENAME / DROP COLUMN. They are internal functions: SQL
 * cannot call them ("no such function"), only the program SQLite compiles for an ALTER does, so
 * they may appear in a listing without opening anything.
 */
const ALTER_INTERNALS: ReadonlySet<string> = new Set([
  'sqlite_rename_column',
  'sqlite_rename_table',
  'sqlite_rename_test',
  'sqlite_rename_quotefix',
  'sqlite_drop_column',
]);

const FUNCTION_OPS = new Set(['Function', 'PureFunc', 'AggStep', 'AggStep1', 'AggInverse', 'AggValue', 'AggFinal']);

/** What the compiled program of one statement does (from its EXPLAIN listing). */
export interface ProgramFacts {
  /** It writes the main database: it must hold the engine's write lock. */
  writes: boolean;
  /** It has a loop over a whole table or builds an automatic index (SQLite counts those steps). */
  scans: boolean;
  /** Root pages of the main database's b-trees it counts whole (`count(*)`: OP_Count). */
  countRoots: number[];
}

/** Nothing known of a program (not listed): a writer if it may write, no counted reads. */
export const unlistedFacts = (writes: boolean): ProgramFacts => ({ writes, scans: false, countRoots: [] });

/** SQLite's SQLITE_STMTSTATUS_FULLSCAN_STEP and SQLITE_STMTSTATUS_AUTOINDEX, as a Next's P5. */
const COUNTED_STEPS = new Set([1, 3]);

/**
 * Checks the compiled program (EXPLAIN rows: addr, opcode, p1, p2, p3, p4, ...): every function it
 * calls, views included, must be allowed. Also tells whether it opens a write transaction on
 * the main database (OP_Transaction with p2 != 0 on a database other than temp).
 */
export function checkProgram(rows: readonly (readonly unknown[])[]): ProgramFacts {
  let writes = false;
  let scans = false;
  const countRoots: number[] = [];
  const rootOfCursor = new Map<number, number>();
  for (const row of rows) {
    const op = row[1];
    if (op === 'Transaction' && Number(row[2]) !== 1 && Number(row[3]) !== 0) writes = true;
    // OpenRead cursor, root page, database (0: main)
    if (op === 'OpenRead' && Number(row[4]) === 0) rootOfCursor.set(Number(row[2]), Number(row[3]));
    if (op === 'Count' && Number(row[4]) === 0) {
      const root = rootOfCursor.get(Number(row[2]));
      if (root !== undefined) countRoots.push(root);
    }
    if ((op === 'Next' || op === 'Prev') && COUNTED_STEPS.has(Number(row[6]))) scans = true;
    if (typeof op === 'string' && FUNCTION_OPS.has(op)) {
      const m = /^(.+)\(-?\d+\)$/.exec(String(row[5]));
      const name = (m ? m[1]! : String(row[5])).toLowerCase();
      if (!ALLOWED_FUNCTIONS.has(name) && !ALTER_INTERNALS.has(name)) throw refused(`the function ${name}()`);
    }
  }
  return { writes, scans, countRoots };
}
