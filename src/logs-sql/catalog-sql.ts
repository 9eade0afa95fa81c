/**
 * The SQL of the shell's dot-commands on the logs table's DuckDB (its catalog functions instead
 * of SQLite's sqlite_schema). burrow's own staging tables (`__burrow_*`, gone between syncs
 * anyway) are never listed. Patterns match as SQLite's LIKE does: case-insensitively.
 */

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const OWN = "NOT LIKE '\\_\\_burrow%' ESCAPE '\\'";
const matching = (column: string, pattern: string | null) => (pattern === null ? '' : ` AND ${column} ILIKE ${literal(pattern)}`);

/** table, kind (table or view), column: every column of every table and view, in order. */
export const LOGS_SCHEMA_QUERY =
  "SELECT c.table_name, CASE WHEN t.table_type = 'VIEW' THEN 'view' ELSE 'table' END, c.column_name " +
  'FROM information_schema.columns c JOIN information_schema.tables t USING (table_catalog, table_schema, table_name) ' +
  `WHERE c.table_name ${OWN} ORDER BY c.table_name, c.ordinal_position`;

export function tablesQuery(pattern: string | null): string {
  return `SELECT DISTINCT table_name FROM information_schema.tables WHERE table_name ${OWN}${matching('table_name', pattern)} ORDER BY 1`;
}

export function indexesQuery(pattern: string | null): string {
  return `SELECT index_name FROM duckdb_indexes() WHERE table_name ${OWN}${matching('table_name', pattern)} ORDER BY 1`;
}

/** The CREATE statements of the tables, views and indexes that match, tables first. */
export function schemaTextQuery(pattern: string | null): string {
  const part = (fn: string, name: string, rank: number, internal: boolean) =>
    `SELECT ${rank} AS rank, ${name} AS name, sql FROM ${fn}() WHERE ${internal ? 'NOT internal AND ' : ''}sql IS NOT NULL AND ${name} ${OWN}${matching(name, pattern)}`;
  return `SELECT sql FROM (${part('duckdb_tables', 'table_name', 0, true)} UNION ALL ${part('duckdb_views', 'view_name', 1, true)} UNION ALL ${part('duckdb_indexes', 'table_name', 2, false)}) ORDER BY name, rank`;
}

/** name, type, nullable, default and what the column holds (the logs table's columns say). */
export function describeQuery(table: string): string {
  return (
    'SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS "default", comment AS about ' +
    `FROM duckdb_columns() WHERE table_name = ${literal(table)} AND table_name ${OWN} ORDER BY column_index`
  );
}

/**
 * DuckDB keeps a table's CREATE statement on one line: one column a line reads better, with what
 * the column holds after it (`docs`, by column name) as a comment.
 */
export function formatCreate(sql: string, docs: ReadonlyMap<string, string> = new Map()): string {
  const open = sql.indexOf('(');
  if (!/^CREATE\s+(TEMP\s+|TEMPORARY\s+)?TABLE\b/i.test(sql) || open < 0) return sql;
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = open + 1;
  let end = -1;
  for (let i = start; i < sql.length && end < 0; i++) {
    const c = sql[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) end = i;
      else depth--;
    } else if (c === ',' && depth === 0) {
      parts.push(sql.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (end < 0) return sql;
  parts.push(sql.slice(start, end).trim());
  const lines = parts.map((part, i) => {
    const name = /^"?([^"\s]+)"?/.exec(part)?.[1] ?? '';
    const doc = docs.get(name);
    return `  ${part}${i < parts.length - 1 ? ',' : ''}${doc ? ` -- ${doc}` : ''}`;
  });
  return `${sql.slice(0, open).trim()} (\n${lines.join('\n')}\n)${sql.slice(end + 1).replace(/;\s*$/, '')}`;
}
