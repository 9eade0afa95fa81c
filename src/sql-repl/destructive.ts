import { scanSql, TK_WS } from '../api/database/complete';

/**
 * Statements that are easy to run by mistake and hard to undo, found on tokens (strings and
 * comments cannot fool it): UPDATE or DELETE without a WHERE at the top level, DROP TABLE/VIEW/
 * INDEX/TRIGGER, and ALTER TABLE ... DROP COLUMN. Statements inside CREATE TRIGGER bodies do not
 * run now and are not reported; neither is anything after EXPLAIN.
 */

interface Tok {
  text: string;
  upper: string;
  depth: number;
}

function tokens(sql: string): Tok[] {
  const out: Tok[] = [];
  let depth = 0;
  scanSql(sql, (t) => {
    if (t.token === TK_WS) return;
    const text = sql.slice(t.start, t.end);
    if (text === ')') depth = Math.max(0, depth - 1);
    out.push({ text, upper: text.toUpperCase(), depth });
    if (text === '(') depth++;
  });
  return out;
}

/** A table name as written (`main.t`, `"my table"`), starting at token i. */
function nameAt(toks: Tok[], i: number): string {
  let name = toks[i]?.text ?? '';
  if (toks[i + 1]?.text === '.' && toks[i + 2]) name += `.${toks[i + 2]!.text}`;
  return name;
}

const VERBS = new Set(['SELECT', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'VALUES']);

/** Why this statement deserves a confirmation, or null. */
export function destructiveReason(sql: string): string | null {
  const toks = tokens(sql);
  if (toks.length === 0) return null;
  let i = 0;
  if (toks[0]!.upper === 'EXPLAIN') return null;
  if (toks[0]!.upper === 'WITH') {
    // the statement's verb is the first one at the top level after the common table expressions
    i = toks.findIndex((t, k) => k > 0 && t.depth === 0 && VERBS.has(t.upper));
    if (i < 0) return null;
  }
  const verb = toks[i]!.upper;
  const rest = toks.slice(i + 1);
  const topWhere = rest.some((t) => t.depth === 0 && t.upper === 'WHERE');
  if (verb === 'DELETE') {
    if (topWhere) return null;
    const from = rest.findIndex((t) => t.upper === 'FROM');
    const table = from >= 0 ? nameAt(rest, from + 1) : 'the table';
    const limited = rest.some((t) => t.depth === 0 && t.upper === 'LIMIT');
    return `DELETE without WHERE deletes ${limited ? 'rows' : 'every row'} of ${table}`;
  }
  if (verb === 'UPDATE') {
    if (topWhere) return null;
    let k = 0;
    if (rest[0]?.upper === 'OR') k = 2; // UPDATE OR REPLACE t ...
    return `UPDATE without WHERE changes every row of ${nameAt(rest, k)}`;
  }
  if (verb === 'DROP') {
    const kind = rest[0]?.upper ?? '';
    if (!['TABLE', 'VIEW', 'INDEX', 'TRIGGER'].includes(kind)) return null;
    let k = 1;
    if (rest[1]?.upper === 'IF' && rest[2]?.upper === 'EXISTS') k = 3;
    const name = nameAt(rest, k);
    return kind === 'TABLE' ? `DROP TABLE removes ${name} and all its rows` : `DROP ${kind} removes ${name}`;
  }
  if (verb === 'ALTER' && rest[0]?.upper === 'TABLE') {
    const drop = rest.findIndex((t) => t.upper === 'DROP');
    if (drop < 0) return null;
    const k = rest[drop + 1]?.upper === 'COLUMN' ? drop + 2 : drop + 1;
    return `ALTER TABLE ${nameAt(rest, 1)} DROP COLUMN removes ${rest[k]?.text ?? 'a column'} and its data`;
  }
  return null;
}
