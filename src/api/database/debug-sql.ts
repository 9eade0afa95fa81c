/**
 * What `--debug` shows of the SQL sent: the statements, with string and blob literals (and the
 * text and blob arguments) replaced by `'…'`, since they are where passwords, e-mails and other
 * personal data sit. `--debug-sql` shows them as sent.
 */

const HIDDEN = '…';

/** The statement with every '...' and x'...' literal replaced; identifiers, comments and numbers kept. */
export function redactSqlLiterals(sql: string): string {
  let out = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || ((c === 'x' || c === 'X') && sql[i + 1] === "'" && !/[\w$]/.test(sql[i - 1] ?? ''))) {
      const blob = c !== "'";
      let j = i + (blob ? 2 : 1);
      for (; j < n; j++) {
        if (sql[j] !== "'") continue;
        if (sql[j + 1] === "'") {
          j++;
          continue;
        }
        break;
      }
      out += blob ? `${c}'${HIDDEN}'` : `'${HIDDEN}'`;
      i = j + 1;
      continue;
    }
    const close = c === '"' ? '"' : c === '`' ? '`' : c === '[' ? ']' : c === '-' && sql[i + 1] === '-' ? '\n' : c === '/' && sql[i + 1] === '*' ? '*/' : null;
    if (close) {
      const end = sql.indexOf(close, i + 1 + (close === '*/' ? 1 : 0));
      const stop = end < 0 ? n : end + close.length;
      out += sql.slice(i, stop);
      i = stop;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An argument value: text and blob values hidden, numbers and NULL kept. */
function redactValue(v: unknown): unknown {
  if (!isObject(v)) return v;
  if (v.type === 'text' || v.type === 'blob') return { ...v, [v.type === 'blob' ? 'base64' : 'value']: HIDDEN };
  return v;
}

/** A pipeline body with its SQL literals and text/blob arguments hidden (any other shape is kept as is). */
export function redactPipelineBody(body: unknown): unknown {
  const walk = (value: unknown, key: string | null): unknown => {
    if (Array.isArray(value)) return key === 'args' ? value.map(redactValue) : value.map((v) => walk(v, null));
    if (!isObject(value)) return key === 'sql' && typeof value === 'string' ? redactSqlLiterals(value) : value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'named_args' && Array.isArray(v)) out[k] = v.map((a) => (isObject(a) ? { ...a, value: redactValue(a.value) } : a));
      else out[k] = walk(v, k);
    }
    return out;
  };
  return walk(body, null);
}
