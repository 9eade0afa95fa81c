/**
 * The table a writing statement changes, read from its text: 'logs' when it is the read-only
 * logs table, the name otherwise, null when the text does not say plainly (then the statement
 * is refused rather than guessed at).
 */
export function writeTarget(kind: string, sql: string): string | null {
  const text = withoutComments(sql).trim();
  const name = String.raw`((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"[^"]+"|[A-Za-z_][\w$]*)){0,2})`;
  const patterns: Record<string, RegExp> = {
    INSERT: new RegExp(String.raw`^(?:WITH\b[\s\S]*?\)\s*)?INSERT\s+(?:OR\s+\w+\s+)?INTO\s+${name}`, 'i'),
    UPDATE: new RegExp(String.raw`^(?:WITH\b[\s\S]*?\)\s*)?UPDATE\s+${name}`, 'i'),
    DELETE: new RegExp(String.raw`^(?:WITH\b[\s\S]*?\)\s*)?DELETE\s+FROM\s+${name}`, 'i'),
    MERGE_INTO: new RegExp(String.raw`^MERGE\s+INTO\s+${name}`, 'i'),
    ALTER: new RegExp(String.raw`^ALTER\s+(?:TABLE|VIEW)\s+(?:IF\s+EXISTS\s+)?${name}`, 'i'),
    DROP: new RegExp(String.raw`^DROP\s+(?:TABLE|VIEW|MACRO(?:\s+TABLE)?|SEQUENCE|INDEX|TYPE|SCHEMA|FUNCTION)\s+(?:IF\s+EXISTS\s+)?${name}`, 'i'),
    CREATE: new RegExp(String.raw`^CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:TEMP|TEMPORARY)\s+)?(?:TABLE|VIEW|MACRO(?:\s+TABLE)?|SEQUENCE|INDEX\s+\S+\s+ON|TYPE|SCHEMA|FUNCTION)\s+(?:IF\s+NOT\s+EXISTS\s+)?${name}`, 'i'),
  };
  const pattern = patterns[kind];
  if (!pattern) return null;
  const m = pattern.exec(text);
  if (!m) return null;
  const parts = m[1]!.split('.').map((p) => p.trim().replace(/^"|"$/g, '').toLowerCase());
  const last = parts[parts.length - 1]!;
  // logs, main.logs and memory.main.logs all name the table; temp.logs is a table of the user's own
  const qualifier = parts.slice(0, -1);
  const isLogs = last === 'logs' && (qualifier.length === 0 || qualifier[qualifier.length - 1] === 'main');
  // an index on logs, or CREATE OR REPLACE logs, changes it too
  if (kind === 'CREATE' && /^CREATE\s+(?:UNIQUE\s+)?INDEX\b/i.test(text)) return /\bON\s+(?:(?:"?memory"?\s*\.\s*)?"?main"?\s*\.\s*)?"?logs"?\s*\(/i.test(text) ? 'logs' : last;
  return isLogs ? 'logs' : parts.join('.');
}

function withoutComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
}
