import { leadingTokens } from '../api/database/index';
import { redactSqlLiterals } from '../api/database/debug-sql';

const READS = new Set(['SELECT', 'EXPLAIN', 'VALUES']);
const WRITE_WORD = /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i;

/** SELECT, EXPLAIN, VALUES, or a WITH whose text (literals aside) has no INSERT/UPDATE/DELETE/REPLACE. */
function plainRead(sql: string): boolean {
  const verb = (leadingTokens(sql, 1)[0] ?? '').toUpperCase();
  if (READS.has(verb)) return true;
  return verb === 'WITH' && !WRITE_WORD.test(redactSqlLiterals(sql));
}

function flat(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim().replace(/;+$/, '').trim();
}

/** The statement as it is compared: retyped in other case or spacing it is the same write (erring towards asking). */
function normal(sql: string): string {
  return flat(sql).toLowerCase();
}

/** "INSERT INTO t VALUES (1)" on one line, cut to `max` characters for a question or a message. */
export function oneLine(sql: string, max = 60): string {
  const text = flat(sql);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Statements whose answer was lost after they were sent: they may or may not have run. Sending one
 * of them again needs its own confirmation. Plain reads are not kept: running them twice is harmless.
 */
export class UncertainStatements {
  private readonly texts = new Set<string>();

  /** True when kept (a plain read is not). */
  remember(sql: string): boolean {
    if (plainRead(sql)) return false;
    this.texts.add(normal(sql));
    return true;
  }

  forget(sql: string): void {
    this.texts.delete(normal(sql));
  }

  has(sql: string): boolean {
    return this.texts.has(normal(sql));
  }
}
