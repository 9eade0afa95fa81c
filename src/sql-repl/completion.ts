import { scanSql, TK_WS } from '../api/database/complete';
import { DOT_COMMANDS, resolveDotName } from './dot-commands';
import { OUTPUT_MODES } from './output-modes';

/** Tables and views with their columns, as read from the live database. */
export interface SchemaTable {
  name: string;
  kind: 'table' | 'view';
  columns: string[];
}

export interface Schema {
  tables: SchemaTable[];
}

/** Replace text[start, end) with one of the candidates. */
export interface Completion {
  start: number;
  end: number;
  candidates: string[];
}

// SQLite's keywords (https://sqlite.org/lang_keywords.html) and its common functions.
export const SQL_KEYWORDS = (
  'ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY CASCADE CASE CAST ' +
  'CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE ' +
  'DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN ' +
  'FAIL FILTER FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED ' +
  'INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT ' +
  'NOTHING NOTNULL NULL NULLS OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE ' +
  'RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT SELECT SET ' +
  'STRICT TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL ' +
  'WHEN WHERE WINDOW WITH WITHOUT INTEGER TEXT REAL BLOB NUMERIC ROWID'
).split(' ');

export const SQL_FUNCTIONS = (
  'abs avg changes char coalesce concat concat_ws count date datetime format glob group_concat hex ifnull iif instr json ' +
  'json_array json_each json_extract json_group_array json_group_object json_object json_type julianday last_insert_rowid ' +
  'length like lower ltrim max min nullif printf quote random randomblob replace round rtrim sign sqlite_version strftime ' +
  'string_agg substr substring sum time total total_changes trim typeof unhex unicode unixepoch upper zeroblob'
).split(' ');

const KEYWORD_SET = new Set(SQL_KEYWORDS);
const TABLE_KEYWORDS = new Set(['FROM', 'JOIN', 'INTO', 'UPDATE', 'TABLE', 'VIEW']);
const CLAUSE_KEYWORDS = new Set([
  'SELECT',
  'FROM',
  'JOIN',
  'WHERE',
  'SET',
  'INTO',
  'UPDATE',
  'TABLE',
  'VIEW',
  'ON',
  'BY',
  'HAVING',
  'VALUES',
  'AND',
  'OR',
  'RETURNING',
  'USING',
  'WHEN',
  'THEN',
  'ELSE',
  'CASE',
  'LIMIT',
  'INDEX',
]);

const isIdChar = (c: string) => /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80;

/** A name as it must be written in SQL: bare when it can be, else "double quoted". */
export function quoteName(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) && !KEYWORD_SET.has(name.toUpperCase())) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

function unquote(name: string): string {
  const m = /^(["`[])(.*?)["`\]]?$/s.exec(name);
  return (m ? m[2]! : name).replace(/""/g, '"');
}

interface Tok {
  text: string;
  upper: string;
  start: number;
}

function tokensOf(text: string): { toks: Tok[]; open: number } {
  const toks: Tok[] = [];
  const open = scanSql(text, (t) => {
    if (t.token !== TK_WS) {
      const s = text.slice(t.start, t.end);
      toks.push({ text: s, upper: s.toUpperCase(), start: t.start });
    }
  });
  return { toks, open };
}

/** Tables the statement names (FROM, JOIN, UPDATE, INTO), and their aliases: lower-case name or alias -> table. */
export function referencedTables(text: string, schema: Schema): Map<string, SchemaTable> {
  const { toks } = tokensOf(text);
  const byName = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  const out = new Map<string, SchemaTable>();
  for (let i = 0; i < toks.length; i++) {
    const kw = toks[i]!.upper;
    if (!['FROM', 'JOIN', 'UPDATE', 'INTO'].includes(kw)) continue;
    let j = i + 1;
    for (;;) {
      const tok = toks[j];
      if (!tok) break;
      let name = unquote(tok.text);
      if (toks[j + 1]?.text === '.' && toks[j + 2]) {
        name = unquote(toks[j + 2]!.text);
        j += 2;
      }
      const table = byName.get(name.toLowerCase());
      if (!table) break;
      out.set(table.name.toLowerCase(), table);
      j++;
      if (toks[j]?.upper === 'AS') j++;
      const alias = toks[j];
      if (alias && /^["`[A-Za-z_]/.test(alias.text) && !KEYWORD_SET.has(alias.upper)) {
        out.set(unquote(alias.text).toLowerCase(), table);
        j++;
      }
      if (kw === 'FROM' && toks[j]?.text === ',') {
        j++;
        continue;
      }
      break;
    }
  }
  return out;
}

function matchCase(word: string, prefix: string): string {
  return /[a-z]/.test(prefix) && !/[A-Z]/.test(prefix) ? word.toLowerCase() : word;
}

function byPrefix(names: Iterable<string>, prefix: string): string[] {
  const p = prefix.toLowerCase();
  const out: string[] = [];
  for (const n of names) if (n.toLowerCase().startsWith(p)) out.push(n);
  return out;
}

function uniq(list: string[]): string[] {
  return [...new Set(list)];
}

const sortNames = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

function completeDot(text: string, cursor: number, schema: Schema): Completion | null {
  const before = text.slice(0, cursor);
  const m = /^(\s*\.)(\S*)$/.exec(before);
  if (m) {
    const start = m[1]!.length;
    return {
      start: start - 1,
      end: cursor,
      candidates: byPrefix(
        DOT_COMMANDS.map((c) => c.name),
        m[2]!,
      ).map((n) => `.${n}`),
    };
  }
  const arg = /^\s*\.(\S+)\s+(?:\S+\s+)*?(\S*)$/.exec(before);
  if (!arg) return { start: cursor, end: cursor, candidates: [] };
  const resolved = resolveDotName(arg[1]!);
  const word = arg[2]!;
  const start = cursor - word.length;
  if ('error' in resolved) return { start, end: cursor, candidates: [] };
  switch (resolved.name) {
    case 'schema':
    case 'indexes':
    case 'describe':
    case 'dump':
    case 'tables':
      return {
        start,
        end: cursor,
        candidates: byPrefix(
          schema.tables.map((t) => t.name),
          word,
        ).sort(sortNames),
      };
    case 'mode':
      return { start, end: cursor, candidates: byPrefix(OUTPUT_MODES, word) };
    case 'timer':
      return { start, end: cursor, candidates: byPrefix(['on', 'off'], word) };
    default:
      return { start, end: cursor, candidates: [] };
  }
}

/**
 * What Tab can put at the cursor: dot-command names and their arguments; after FROM/JOIN/INTO/
 * UPDATE/TABLE the tables; after `t.` (a table or alias) its columns; elsewhere the columns of
 * the tables the statement names, then tables, keywords and functions. Keywords follow the
 * case of what was typed. Nothing is offered inside a string or a comment.
 */
export function complete(text: string, cursor: number, schema: Schema): Completion {
  if (/^\s*\./.test(text) && !text.slice(0, cursor).includes('\n')) return completeDot(text, cursor, schema) ?? { start: cursor, end: cursor, candidates: [] };
  let start = cursor;
  while (start > 0 && isIdChar(text[start - 1]!)) start--;
  const { toks, open } = tokensOf(text.slice(0, start));
  let quoted = false;
  if (open >= 0) {
    // inside a "quoted identifier" being typed: complete it; inside a string or comment: nothing
    if (text[open] !== '"' || /\s/.test(text.slice(open + 1, start))) return { start: cursor, end: cursor, candidates: [] };
    start = open;
    quoted = true;
  }
  const word = text.slice(start, cursor);
  const prefix = quoted ? word.slice(1) : word;
  const none: Completion = { start, end: cursor, candidates: [] };

  // `t.col`: the columns of t (a table or an alias)
  if (text[start - 1] === '.') {
    let q = start - 1;
    let qs = q;
    if (text[q - 1] === '"') {
      qs = text.lastIndexOf('"', q - 2);
      if (qs < 0) return none;
    } else {
      while (qs > 0 && isIdChar(text[qs - 1]!)) qs--;
    }
    const qualifier = unquote(text.slice(qs, q)).toLowerCase();
    const refs = referencedTables(text, schema);
    const table = refs.get(qualifier) ?? schema.tables.find((t) => t.name.toLowerCase() === qualifier);
    if (!table) return none;
    return { start, end: cursor, candidates: byPrefix(table.columns, prefix).map(quoteName) };
  }

  const last = toks[toks.length - 1];
  let clause: string | null = null;
  for (let i = toks.length - 1; i >= 0; i--) {
    if (CLAUSE_KEYWORDS.has(toks[i]!.upper)) {
      clause = toks[i]!.upper;
      break;
    }
  }
  const tableNames = schema.tables.map((t) => t.name).sort(sortNames);
  if (last && TABLE_KEYWORDS.has(last.upper)) {
    return { start, end: cursor, candidates: byPrefix(tableNames, prefix).map(quoteName) };
  }
  if (prefix === '') return none;
  const keywords = byPrefix(SQL_KEYWORDS, prefix).map((k) => matchCase(k, prefix));
  const functions = byPrefix(SQL_FUNCTIONS, prefix).map((f) => (/[A-Z]/.test(prefix) && !/[a-z]/.test(prefix) ? f.toUpperCase() : f));
  const tables = byPrefix(tableNames, prefix).map(quoteName);
  if (clause && TABLE_KEYWORDS.has(clause) && last && (last.text === ',' || !KEYWORD_SET.has(last.upper))) {
    // a table list (FROM a, b): tables first, then the keyword that may end it
    return { start, end: cursor, candidates: uniq([...tables, ...keywords]) };
  }
  const refs = [...new Set(referencedTables(text, schema).values())];
  const columnSource = refs.length ? refs : schema.tables;
  const columns = uniq(columnSource.flatMap((t) => byPrefix(t.columns, prefix)))
    .sort(sortNames)
    .map(quoteName);
  return { start, end: cursor, candidates: uniq([...columns, ...tables, ...keywords, ...functions]) };
}

/** The longest prefix all candidates share (compared without case; spelled as the first). */
export function commonPrefix(candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  let n = candidates[0]!.length;
  for (const c of candidates) {
    let i = 0;
    while (i < n && i < c.length && c[i]!.toLowerCase() === candidates[0]![i]!.toLowerCase()) i++;
    n = i;
  }
  return candidates[0]!.slice(0, n);
}
