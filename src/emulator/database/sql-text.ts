/**
 * The emulator's own look at SQL text, standing in for sqld's parser: where statements end,
 * which parameters they use, and what kind of statement each is. It tokenizes like SQLite
 * (quotes, [ident], `ident`, comments) and knows the CREATE TRIGGER ... ;END; rule.
 */

export type TokenKind = 'word' | 'string' | 'ident' | 'param' | 'semi' | 'punct' | 'number';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

export class SqlTextError extends Error {}

const isIdStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 0x80;
const isIdChar = (c: number) => isIdStart(c) || (c >= 48 && c <= 57) || c === 36;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** Tokens without whitespace and comments; throws SqlTextError on unterminated quotes or comments. */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql.charCodeAt(i);
    const start = i;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 45 && sql.charCodeAt(i + 1) === 45) {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
      continue;
    }
    if (c === 47 && sql.charCodeAt(i + 1) === 42) {
      const close = sql.indexOf('*/', i + 2);
      // SQLite accepts an unterminated block comment at the very end of the input
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (c === 39 || c === 34 || c === 96) {
      const q = sql[i]!;
      i++;
      for (;;) {
        const j = sql.indexOf(q, i);
        if (j < 0) throw new SqlTextError(`unrecognized token: "${sql.slice(start, start + 20)}"`);
        if (sql[j + 1] === q) {
          i = j + 2;
          continue;
        }
        i = j + 1;
        break;
      }
      out.push({ kind: c === 39 ? 'string' : 'ident', text: sql.slice(start, i), start, end: i });
      continue;
    }
    if (c === 91) {
      const j = sql.indexOf(']', i);
      if (j < 0) throw new SqlTextError(`unrecognized token: "${sql.slice(start, start + 20)}"`);
      i = j + 1;
      out.push({ kind: 'ident', text: sql.slice(start, i), start, end: i });
      continue;
    }
    if (c === 59) {
      i++;
      out.push({ kind: 'semi', text: ';', start, end: i });
      continue;
    }
    if (c === 63) {
      i++;
      while (i < n && isDigit(sql.charCodeAt(i))) i++;
      out.push({ kind: 'param', text: sql.slice(start, i), start, end: i });
      continue;
    }
    if ((c === 58 || c === 64 || c === 36) && i + 1 < n && isIdChar(sql.charCodeAt(i + 1))) {
      i++;
      while (i < n && isIdChar(sql.charCodeAt(i))) i++;
      out.push({ kind: 'param', text: sql.slice(start, i), start, end: i });
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(sql.charCodeAt(i + 1)))) {
      while (i < n && (isIdChar(sql.charCodeAt(i)) || sql[i] === '.' || ((sql[i] === '+' || sql[i] === '-') && /[eE]/.test(sql[i - 1]!)))) i++;
      out.push({ kind: 'number', text: sql.slice(start, i), start, end: i });
      continue;
    }
    if (isIdStart(c)) {
      while (i < n && isIdChar(sql.charCodeAt(i))) i++;
      // x'..' blob literals stay one token
      if ((sql[start] === 'x' || sql[start] === 'X') && i === start + 1 && sql[i] === "'") {
        const j = sql.indexOf("'", i + 1);
        if (j < 0) throw new SqlTextError(`unrecognized token: "${sql.slice(start, start + 20)}"`);
        i = j + 1;
        out.push({ kind: 'string', text: sql.slice(start, i), start, end: i });
        continue;
      }
      out.push({ kind: 'word', text: sql.slice(start, i), start, end: i });
      continue;
    }
    i++;
    out.push({ kind: 'punct', text: sql[start]!, start, end: i });
  }
  return out;
}

export interface StatementText {
  /** The statement's text, from its first token to its last (without the `;`). */
  sql: string;
  tokens: Token[];
}

const upper = (t: Token | undefined) => (t && t.kind === 'word' ? t.text.toUpperCase() : '');

/** Splits into statements; empty ones (`;;`) vanish. A trigger body's `;` do not split. */
export function splitStatements(sql: string): StatementText[] {
  const out: StatementText[] = [];
  let current: Token[] = [];
  let inTrigger = false;
  const flush = () => {
    if (current.length) out.push({ sql: sql.slice(current[0]!.start, current[current.length - 1]!.end), tokens: current });
    current = [];
    inTrigger = false;
  };
  for (const t of tokenize(sql)) {
    if (t.kind === 'semi') {
      const n = current.length;
      if (!inTrigger || (n >= 2 && upper(current[n - 1]) === 'END' && current[n - 2]!.kind === 'semi')) flush();
      else current.push(t);
      continue;
    }
    current.push(t);
    if (!inTrigger && isTriggerStart(current)) inTrigger = true;
  }
  flush();
  return out;
}

function isTriggerStart(tokens: Token[]): boolean {
  let i = 0;
  if (upper(tokens[i]) === 'EXPLAIN') {
    i++;
    if (upper(tokens[i]) === 'QUERY' && upper(tokens[i + 1]) === 'PLAN') i += 2;
  }
  if (upper(tokens[i]) !== 'CREATE') return false;
  i++;
  if (upper(tokens[i]) === 'TEMP' || upper(tokens[i]) === 'TEMPORARY') i++;
  return upper(tokens[i]) === 'TRIGGER' && tokens.length === i + 1;
}

export interface ParameterInfo {
  /** Name of each parameter index (1-based: names[0] is index 1); null for a bare `?`. */
  names: (string | null)[];
}

/** SQLite's parameter numbering: `?` takes the next index, `?NNN` index NNN, a name keeps its first index. */
export function parameters(tokens: Token[]): ParameterInfo {
  const names: (string | null)[] = [];
  const byName = new Map<string, number>();
  let max = 0;
  for (const t of tokens) {
    if (t.kind !== 'param') continue;
    if (t.text === '?') {
      max++;
      names[max - 1] = names[max - 1] ?? null;
    } else if (t.text.startsWith('?')) {
      const n = Number(t.text.slice(1));
      if (!Number.isInteger(n) || n < 1 || n > 32766) throw new SqlTextError(`variable number must be between ?1 and ?32766`);
      if (names[n - 1] === undefined || names[n - 1] === null) names[n - 1] = t.text;
      if (!byName.has(t.text)) byName.set(t.text, n);
      max = Math.max(max, n);
    } else if (!byName.has(t.text)) {
      max++;
      byName.set(t.text, max);
      names[max - 1] = t.text;
    }
  }
  for (let i = 0; i < max; i++) if (names[i] === undefined) names[i] = null;
  return { names: names.slice(0, max) };
}

export type StatementKind = 'read' | 'write' | 'transaction' | 'pragma' | 'other';

const WRITES = new Set(['INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'ALTER', 'ATTACH', 'DETACH', 'VACUUM', 'REINDEX', 'ANALYZE']);
const TXN = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

export interface Classified {
  kind: StatementKind;
  /** The statement's main verb: INSERT for `WITH ... INSERT`, the verb after EXPLAIN is not used. */
  verb: string;
  explain: boolean;
}

/** What sqld's permission check looks at: the statement's verb. */
export function classify(tokens: Token[]): Classified {
  let i = 0;
  let explain = false;
  if (upper(tokens[0]) === 'EXPLAIN') {
    explain = true;
    i = 1;
    if (upper(tokens[1]) === 'QUERY' && upper(tokens[2]) === 'PLAN') i = 3;
  }
  let verb = upper(tokens[i]);
  if (verb === 'WITH') verb = mainVerbAfterWith(tokens, i + 1);
  if (explain) return { kind: 'read', verb, explain };
  if (verb === 'SELECT' || verb === 'VALUES') return { kind: 'read', verb, explain };
  if (TXN.has(verb)) return { kind: 'transaction', verb, explain };
  if (verb === 'PRAGMA') return { kind: 'pragma', verb, explain };
  if (WRITES.has(verb)) return { kind: 'write', verb, explain };
  return { kind: 'other', verb, explain };
}

function mainVerbAfterWith(tokens: Token[], from: number): string {
  let depth = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0) {
      const w = upper(t);
      if (w === 'SELECT' || w === 'VALUES' || w === 'INSERT' || w === 'REPLACE' || w === 'UPDATE' || w === 'DELETE') return w;
    }
  }
  return 'WITH';
}

/** True when the tokens mention the query_only pragma (a read-only session must not switch it off). */
export function touchesQueryOnly(tokens: Token[]): boolean {
  return tokens.some((t) => (t.kind === 'word' || t.kind === 'ident') && /query_only/i.test(t.text));
}
