import { formatReal, blobHex, type SqlValue } from '../api/database/values';
import { cellWidth, padCells } from '../text/cells';
import { quoteName, type Schema, type SchemaTable } from './completion';

/**
 * The SQL the dot-commands send (all reads of sqlite_schema and table-valued pragmas, so they
 * work with a read-only token), and the pure parts of their answers: the schema for
 * completion, and `.dump`'s text.
 */

/** Every table and view with its columns, in one query (for completion). */
export const SCHEMA_QUERY =
  'SELECT m.name AS t, m.type AS kind, p.name AS c FROM sqlite_schema AS m LEFT JOIN pragma_table_info(m.name) AS p ' +
  "WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY m.name, p.cid";

export function schemaFromRows(rows: readonly SqlValue[][]): Schema {
  const tables = new Map<string, SchemaTable>();
  for (const [t, kind, c] of rows) {
    if (typeof t !== 'string') continue;
    let table = tables.get(t);
    if (!table) {
      table = { name: t, kind: kind === 'view' ? 'view' : 'table', columns: [] };
      tables.set(t, table);
    }
    if (typeof c === 'string') table.columns.push(c);
  }
  return { tables: [...tables.values()] };
}

export const TABLES_QUERY =
  "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND (?1 IS NULL OR name LIKE ?1) ORDER BY name";

export const SCHEMA_TEXT_QUERY =
  "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND (?1 IS NULL OR tbl_name LIKE ?1 OR name LIKE ?1) " +
  "ORDER BY tbl_name, CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, name";

export const INDEXES_QUERY = "SELECT name FROM sqlite_schema WHERE type = 'index' AND (?1 IS NULL OR tbl_name LIKE ?1) ORDER BY name";

export const DESCRIBE_QUERY = 'SELECT name, type, "notnull" AS not_null, dflt_value AS "default", pk FROM pragma_table_info(?1) ORDER BY cid';

/** What `.dump` needs: every object to recreate, in creation order. */
export const DUMP_OBJECTS_QUERY =
  "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' " +
  'AND (?1 IS NULL OR tbl_name LIKE ?1) ORDER BY rowid';

/** Run only when HAS_SEQUENCE_QUERY says the table exists (it appears with the first AUTOINCREMENT). */
export const SEQUENCE_QUERY = 'SELECT name, seq FROM sqlite_sequence WHERE (?1 IS NULL OR name LIKE ?1)';

export const HAS_SEQUENCE_QUERY = "SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'";

export function selectAllQuery(table: string): string {
  return `SELECT * FROM ${quoteName(table)}`;
}

/** A value as an SQL literal that reads back as the same value and type. */
export function sqlLiteral(v: SqlValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NULL';
    if (!Number.isFinite(v)) return v > 0 ? '1e999' : '-1e999';
    return formatReal(v);
  }
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  return `X'${blobHex(v).toUpperCase()}'`;
}

export interface DumpObject {
  type: string;
  name: string;
  tblName: string;
  sql: string;
}

export function dumpObjectsFromRows(rows: readonly SqlValue[][]): DumpObject[] {
  const out: DumpObject[] = [];
  for (const [type, name, tbl, sql] of rows) {
    if (typeof type === 'string' && typeof name === 'string' && typeof sql === 'string')
      out.push({ type, name, tblName: typeof tbl === 'string' ? tbl : name, sql });
  }
  return out;
}

/**
 * `.dump` as sqlite3 writes it: inside one transaction, each table's CREATE then its rows as
 * INSERTs, then indexes, triggers and views. `rowsOf` gives a table's rows (in the table's
 * column order).
 */
export async function* dumpLines(
  objects: readonly DumpObject[],
  rowsOf: (table: string) => Promise<SqlValue[][]>,
  sequence: readonly SqlValue[][] = [],
): AsyncGenerator<string> {
  yield 'PRAGMA foreign_keys=OFF;';
  yield 'BEGIN TRANSACTION;';
  const tables = objects.filter((o) => o.type === 'table');
  for (const t of tables) {
    yield `${t.sql};`;
    // virtual tables keep their rows elsewhere
    if (/^\s*CREATE\s+VIRTUAL\s/i.test(t.sql)) continue;
    const name = quoteName(t.name);
    for (const row of await rowsOf(t.name)) yield `INSERT INTO ${name} VALUES(${row.map(sqlLiteral).join(',')});`;
  }
  // AUTOINCREMENT counters, so new rows do not reuse ids
  if (sequence.length) {
    yield 'DELETE FROM sqlite_sequence;';
    for (const row of sequence) yield `INSERT INTO sqlite_sequence VALUES(${row.map(sqlLiteral).join(',')});`;
  }
  for (const o of objects) if (o.type === 'index') yield `${o.sql};`;
  for (const o of objects) if (o.type === 'trigger') yield `${o.sql};`;
  for (const o of objects) if (o.type === 'view') yield `${o.sql};`;
  yield 'COMMIT;';
}

/** Names laid out in columns (as sqlite3's .tables), to fit `width` cells. */
export function columnsLayout(names: readonly string[], width: number): string[] {
  if (names.length === 0) return [];
  const colWidth = Math.max(...names.map((n) => cellWidth(n))) + 2;
  const perLine = Math.max(1, Math.floor((width + 2) / colWidth));
  const rows = Math.ceil(names.length / perLine);
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < perLine; c++) {
      const n = names[c * rows + r];
      if (n !== undefined) line += padCells(n, colWidth);
    }
    out.push(line.trimEnd());
  }
  return out;
}
