import { scanSql, TK_SEMI, TK_WS, TRANS } from './complete';

/** One statement of a script, with where it starts in the source. */
export interface SqlStatement {
  /** From its first token (comments before it are left out) to its `;` included. */
  text: string;
  /** Offsets into the source: [start, end). */
  start: number;
  end: number;
  /** 1-based line and column of `start`. */
  line: number;
  column: number;
  /** False for a trailing statement without its `;` (or with an open quote or comment). */
  complete: boolean;
}

function lineIndex(sql: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = sql.indexOf('\n'); i >= 0; i = sql.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/**
 * Splits a script into statements by the same rule as sqlite3_complete: a `;` outside quotes and
 * comments ends a statement, except inside CREATE TRIGGER where only `;END;` does. Empty
 * statements (`;;`) and comment-only text are dropped.
 */
export function splitStatements(sql: string): SqlStatement[] {
  const at = lineIndex(sql);
  const out: SqlStatement[] = [];
  let state = 0;
  let first = -1;
  let lastEnd = -1;
  const emit = (end: number, complete: boolean) => {
    if (first < 0) return;
    const pos = at(first);
    out.push({ text: sql.slice(first, end), start: first, end, line: pos.line, column: pos.column, complete });
    first = -1;
    lastEnd = -1;
  };
  const unterminated = scanSql(sql, (t) => {
    const next = TRANS[state]![t.token]!;
    if (t.token === TK_SEMI && next === 1) {
      // a `;` that ends the statement (state 0/1 means it was empty)
      emit(t.end, true);
    } else if (t.token !== TK_WS) {
      if (first < 0) first = t.start;
      lastEnd = t.end;
    }
    state = next;
  });
  if (unterminated >= 0) {
    const text = sql.slice(unterminated);
    // an open block comment alone is no statement
    const onlyComment = first < 0 && text.startsWith('/*');
    if (!onlyComment) {
      if (first < 0) first = unterminated;
      let end = sql.length;
      const nul = sql.indexOf('\0', first);
      if (nul >= 0) end = nul;
      emit(end, false);
    }
  } else if (first >= 0) {
    emit(lastEnd, false);
  }
  return out;
}

/** The text of the first `count` tokens, comments and whitespace skipped (`BEGIN`, `"sp 1"`...). */
export function leadingTokens(sql: string, count: number): string[] {
  const out: string[] = [];
  // scanning stops paying attention after `count` tokens; only a short prefix is looked at
  const prefix = sql.length > 4096 ? sql.slice(0, 4096) : sql;
  scanSql(prefix, (t) => {
    if (out.length < count && t.token !== TK_WS) out.push(prefix.slice(t.start, t.end));
  });
  return out;
}
