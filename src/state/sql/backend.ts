import type { DatabaseSession, StatementResult } from '../../api/database/index';
import type { Schema } from '../../sql-repl/completion';
import { DESCRIBE_QUERY, INDEXES_QUERY, SCHEMA_QUERY, SCHEMA_TEXT_QUERY, schemaFromRows, TABLES_QUERY } from '../../sql-repl/schema-sql';

/**
 * What the shell asks about the engine it runs on, whichever it is: the database over Hrana
 * (SQLite's catalog) or the logs table's in-process DuckDB (its own catalog).
 */
export interface SqlCatalog {
  /** Tables and views with their columns, for completion. */
  schema(signal?: AbortSignal): Promise<Schema>;
  tables(pattern: string | null, signal: AbortSignal): Promise<string[]>;
  indexes(pattern: string | null, signal: AbortSignal): Promise<string[]>;
  /** The statements that create what matches (without the closing semicolon). */
  schemaText(pattern: string | null, signal: AbortSignal): Promise<string[]>;
  /** The columns of one table or view; no rows when there is none of that name. */
  describe(table: string, signal: AbortSignal): Promise<StatementResult>;
}

/** The database's catalog: sqlite_schema and table-valued pragmas (reads, so a read-only token does too). */
export function hranaCatalog(db: DatabaseSession): SqlCatalog {
  const query = (sql: string, args: (string | null)[], signal?: AbortSignal) => db.execute(sql, args, { signal });
  return {
    async schema(signal) {
      return schemaFromRows((await query(SCHEMA_QUERY, [], signal)).rows);
    },
    async tables(pattern, signal) {
      return (await query(TABLES_QUERY, [pattern], signal)).rows.map((row) => String(row[0]));
    },
    async indexes(pattern, signal) {
      return (await query(INDEXES_QUERY, [pattern], signal)).rows.map((row) => String(row[0]));
    },
    async schemaText(pattern, signal) {
      return (await query(SCHEMA_TEXT_QUERY, [pattern], signal)).rows.map((row) => String(row[0]));
    },
    describe(table, signal) {
      return query(DESCRIBE_QUERY, [table], signal);
    },
  };
}
