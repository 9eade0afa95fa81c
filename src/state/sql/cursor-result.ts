import { cursorStatement, CursorUnsupportedError, type CursorOptions } from '../../api/database/cursor';
import { leadingTokens, type StatementResult } from '../../api/database/index';
import type { SqlValue } from '../../api/database/values';
import { PAGE_ROWS, PagedRows, pagedRowsView } from './paged-rows';

/** A statement that only reads: its rows can come through a cursor (its own stream, so outside a transaction). */
export function isPlainRead(sql: string): boolean {
  const word = (leadingTokens(sql, 1)[0] ?? '').toUpperCase();
  if (word === 'SELECT' || word === 'VALUES') return true;
  // a WITH may end in a write: anything that looks like one keeps the ordinary path
  return word === 'WITH' && !/\b(INSERT|UPDATE|DELETE|REPLACE|UPSERT)\b/i.test(sql);
}

/** Rows [skip, skip + take) of the statement, read again through a cursor (the stream is closed once they are in). */
export async function readRows(target: CursorOptions, sql: string, skip: number, take: number): Promise<SqlValue[][]> {
  const out: SqlValue[][] = [];
  let seen = 0;
  for await (const ev of cursorStatement(target, sql)) {
    if (ev.type !== 'rows') continue;
    const from = Math.max(0, skip - seen);
    seen += ev.rows.length;
    if (from < ev.rows.length) out.push(...ev.rows.slice(from, from + take - out.length));
    if (out.length >= take) break;
  }
  return out;
}

export interface CursorResultHooks {
  /** The result with its first rows: shown at once, then updated as the count grows. */
  show(result: StatementResult, rows: PagedRows): void;
  /** The count grew, the first pass ended, or a page came in. */
  changed(): void;
  pageFailed(error: unknown): void;
  now(): number;
}

/**
 * Runs a read through the cursor: the first page is shown as soon as it is in, the rest is
 * counted (keeping a bounded cache of pages) while the grid can already be browsed.
 * Returns false when the server has no cursor (nothing shown: the caller runs it the old way).
 */
export async function runCursorResult(target: CursorOptions, sql: string, hooks: CursorResultHooks): Promise<boolean> {
  const started = hooks.now();
  const paged = new PagedRows(
    (skip, take) => readRows({ ...target, signal: undefined }, sql, skip, take),
    () => hooks.changed(),
    (e) => hooks.pageFailed(e),
  );
  let result: StatementResult | null = null;
  let columns: string[] | null = null;
  let decltypes: (string | null)[] | null = null;
  let lastNotified = 0;
  const show = (whole?: SqlValue[][]) => {
    if (result) return;
    const rows = whole ?? pagedRowsView(paged, (columns ?? []).length);
    result = { columns: columns ?? [], decltypes: decltypes ?? [], rows, rowsAffected: 0, lastInsertRowid: null, durationMs: hooks.now() - started };
    hooks.show(result, paged);
  };
  try {
    for await (const ev of cursorStatement(target, sql)) {
      if (ev.type === 'begin') {
        columns = ev.columns;
        decltypes = ev.decltypes;
      } else if (ev.type === 'rows') {
        paged.append(ev.rows);
        if (!result && paged.count >= PAGE_ROWS) show();
        else if (result && paged.count - lastNotified >= PAGE_ROWS * 10) {
          lastNotified = paged.count;
          hooks.changed();
        }
      }
    }
  } catch (error) {
    if (error instanceof CursorUnsupportedError) return false;
    // a cancelled or failed pass keeps what it counted, and says so
    paged.stopped = true;
    if (result) hooks.changed();
    throw error;
  }
  paged.finish();
  if (result) {
    (result as StatementResult).durationMs = hooks.now() - started;
    hooks.changed();
  } else {
    // a result within one page is a plain array, like the pipeline's
    show(paged.firstPage());
  }
  return true;
}
