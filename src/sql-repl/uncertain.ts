import { leadingTokens } from '../api/database/index';

const READS = new Set(['SELECT', 'EXPLAIN', 'VALUES']);

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

  remember(sql: string): void {
    const verb = (leadingTokens(sql, 1)[0] ?? '').toUpperCase();
    if (!READS.has(verb)) this.texts.add(normal(sql));
  }

  forget(sql: string): void {
    this.texts.delete(normal(sql));
  }

  has(sql: string): boolean {
    return this.texts.has(normal(sql));
  }
}
