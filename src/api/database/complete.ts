/**
 * A port of SQLite's `sqlite3_complete()` (src/complete.c): a tokenizer-level state machine,
 * not a parser. Text is complete when it ends with a `;` that is outside quotes, brackets and
 * comments; after `CREATE [TEMP|TEMPORARY] TRIGGER` (optionally after EXPLAIN) only `;END;` ends it.
 */

export const TK_SEMI = 0;
export const TK_WS = 1;
export const TK_OTHER = 2;
const TK_EXPLAIN = 3;
const TK_CREATE = 4;
const TK_TEMP = 5;
const TK_TRIGGER = 6;
const TK_END = 7;

/** complete.c's trans[state][token]. States: 0 INVALID 1 START 2 NORMAL 3 EXPLAIN 4 CREATE 5 TRIGGER 6 SEMI 7 END. */
export const TRANS: readonly (readonly number[])[] = [
  /*                 SEMI WS OTHER EXPLAIN CREATE TEMP TRIGGER END */
  /* 0 INVALID: */ [1, 0, 2, 3, 4, 2, 2, 2],
  /* 1   START: */ [1, 1, 2, 3, 4, 2, 2, 2],
  /* 2  NORMAL: */ [1, 2, 2, 2, 2, 2, 2, 2],
  /* 3 EXPLAIN: */ [1, 3, 3, 2, 4, 2, 2, 2],
  /* 4  CREATE: */ [1, 4, 2, 2, 2, 4, 5, 2],
  /* 5 TRIGGER: */ [6, 5, 5, 5, 5, 5, 5, 5],
  /* 6    SEMI: */ [6, 6, 5, 5, 5, 5, 5, 7],
  /* 7     END: */ [1, 7, 5, 5, 5, 5, 5, 5],
];

/** SQLite's IdChar: ASCII letters and digits, `_`, `$`, and anything at or above 0x80. */
function isIdChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 0x80;
}

function keyword(sql: string, start: number, end: number): number {
  const n = end - start;
  if (n !== 3 && n !== 4 && n !== 6 && n !== 7 && n !== 9) return TK_OTHER;
  switch (sql.slice(start, end).toLowerCase()) {
    case 'create':
      return TK_CREATE;
    case 'trigger':
      return TK_TRIGGER;
    case 'temp':
    case 'temporary':
      return TK_TEMP;
    case 'end':
      return TK_END;
    case 'explain':
      return TK_EXPLAIN;
    default:
      return TK_OTHER;
  }
}

export interface ScanToken {
  token: number;
  start: number;
  end: number;
}

/**
 * Walks the text token by token as complete.c does, calling `onToken` for each. Returns the
 * offset where an unterminated quote, bracket or block comment starts, or -1. A NUL ends the
 * text, as it does for the C string.
 */
export function scanSql(sql: string, onToken: (t: ScanToken) => void): number {
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 0) break;
    const start = i;
    let token: number;
    switch (c) {
      case 59: // ;
        token = TK_SEMI;
        i++;
        break;
      case 32:
      case 13:
      case 9:
      case 10:
      case 12:
        token = TK_WS;
        i++;
        break;
      case 47: // /
        if (sql.charCodeAt(i + 1) !== 42) {
          token = TK_OTHER;
          i++;
          break;
        }
        i += 2;
        while (i < n && sql.charCodeAt(i) !== 0 && (sql.charCodeAt(i) !== 42 || sql.charCodeAt(i + 1) !== 47)) i++;
        if (i >= n || sql.charCodeAt(i) === 0) return start;
        i += 2;
        token = TK_WS;
        break;
      case 45: // -
        if (sql.charCodeAt(i + 1) !== 45) {
          token = TK_OTHER;
          i++;
          break;
        }
        // a `--` comment at the very end counts as whitespace (complete.c returns the state as is)
        while (i < n && sql.charCodeAt(i) !== 0 && sql.charCodeAt(i) !== 10) i++;
        if (i < n && sql.charCodeAt(i) === 10) i++;
        token = TK_WS;
        break;
      case 91: // [
        i++;
        while (i < n && sql.charCodeAt(i) !== 0 && sql.charCodeAt(i) !== 93) i++;
        if (i >= n || sql.charCodeAt(i) === 0) return start;
        i++;
        token = TK_OTHER;
        break;
      case 96: // `
      case 34: // "
      case 39: {
        // '
        i++;
        while (i < n && sql.charCodeAt(i) !== 0 && sql.charCodeAt(i) !== c) i++;
        if (i >= n || sql.charCodeAt(i) === 0) return start;
        i++;
        token = TK_OTHER;
        break;
      }
      default:
        if (isIdChar(c)) {
          i++;
          while (i < n && isIdChar(sql.charCodeAt(i))) i++;
          token = keyword(sql, start, i);
        } else {
          token = TK_OTHER;
          i++;
        }
    }
    onToken({ token, start, end: i });
  }
  return -1;
}

/** sqlite3_complete(): true when the text ends with a complete statement. */
export function isComplete(sql: string): boolean {
  let state = 0;
  const unterminated = scanSql(sql, (t) => {
    state = TRANS[state]![t.token]!;
  });
  return unterminated < 0 && state === 1;
}
