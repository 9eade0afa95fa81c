import { SqlError, type DatabaseSession, type SqlStatement } from '../api/database/index';

/**
 * Read-only mode (--read-only, a profile's readOnly) for `burrow sql`: before anything runs, the
 * server describes each statement (as the console's :sql screen does) and the first one that would
 * write stops the whole input. A full-access token would let it through; this is burrow's refusal.
 */
export async function firstWriter<T extends SqlStatement>(
  db: DatabaseSession,
  statements: readonly T[],
  signal?: AbortSignal,
): Promise<{ index: number; statement: T } | null> {
  for (let index = 0; index < statements.length; index++) {
    const statement = statements[index]!;
    try {
      if (!(await db.describe(statement.text, { signal })).isReadonly) return { index, statement };
    } catch (error) {
      // a statement the server cannot describe fails with its own error when it runs
      if (!(error instanceof SqlError)) throw error;
    }
  }
  return null;
}

/** "read-only mode (--read-only)", or "read-only (profile prod)" when the profile made it so. */
export function readOnlyWords(source: string | null | undefined): string {
  return source?.startsWith('profile ') ? `read-only (${source}, readOnly: true)` : 'read-only mode (--read-only)';
}

/** The refusal, worded as the :sql screen's, with the statement on one line. */
export function readOnlyRefusal(text: string, source: string | null = null): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/\s*;$/, '');
  const shown = flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
  return `${readOnlyWords(source)}: "${shown}" would write to the database, so nothing was run`;
}
