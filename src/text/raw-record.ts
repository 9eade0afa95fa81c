import { isSecretField, maskSecret, redact } from '../config/redact';
import { cellWidth, takeCells } from './cells';
import { jsonTerminalSafe, terminalSafe } from './terminal-safe';

/** One row's record as the server sent it, for the raw view (`d`). */
export interface RawRecord {
  /** What the record is, e.g. "video library 42 acme". */
  title: string;
  /** The JSON value; bigint and Uint8Array (database values) are allowed too. */
  value: unknown;
}

function blobBase64(v: Uint8Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

/**
 * Pretty JSON (two spaces) of a record. Unless `showSecrets`: string values of secret-named
 * fields are masked, and known secrets (or parts of them) anywhere in the text too. A bigint is
 * written as its digits (no precision lost), a blob as {"base64": ...}. DEL, C1 and bidi
 * characters inside strings come out as \u escapes, so the text is safe to draw and to copy.
 */
export function recordJson(value: unknown, options: { showSecrets?: boolean } = {}): string {
  const mask = !options.showSecrets;
  const seen = new Set<object>();
  const write = (v: unknown, indent: string, key: string | null): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'string') return JSON.stringify(mask && key !== null && isSecretField(key) ? maskSecret(v) : v);
    if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (v instanceof Uint8Array) return `{ "base64": ${JSON.stringify(blobBase64(v))} }`;
    if (v instanceof Date) return JSON.stringify(Number.isNaN(v.getTime()) ? null : v.toISOString());
    if (typeof v !== 'object') return 'null';
    if (seen.has(v)) return '"[circular]"';
    seen.add(v);
    const inner = `${indent}  `;
    let out: string;
    if (Array.isArray(v)) {
      out = v.length === 0 ? '[]' : `[\n${v.map((x) => inner + write(x, inner, key)).join(',\n')}\n${indent}]`;
    } else {
      const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && typeof x !== 'function');
      out = entries.length === 0 ? '{}' : `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${write(x, inner, k)}`).join(',\n')}\n${indent}}`;
    }
    seen.delete(v);
    return out;
  };
  const text = jsonTerminalSafe(write(value, '', null));
  return mask ? redact(text) : text;
}

/**
 * The JSON's lines for a window `width` cells wide: a longer line continues on the next ones,
 * indented by two more cells than it was. Every line is terminal-safe.
 */
export function recordLines(json: string, width: number): string[] {
  const w = Math.max(8, width);
  const out: string[] = [];
  for (const raw of json.split('\n')) {
    const line = terminalSafe(raw);
    if (cellWidth(line) <= w) {
      out.push(line);
      continue;
    }
    const pad = ' '.repeat(Math.min(w - 4, (/^ */.exec(line)?.[0].length ?? 0) + 2));
    let rest = line;
    let first = true;
    while (rest.length > 0) {
      const room = first ? w : w - pad.length;
      const cut = takeCells(rest, room);
      const take = cut.text.length > 0 ? cut.text : [...rest][0]!;
      out.push(first ? take : pad + take);
      rest = rest.slice(take.length);
      first = false;
    }
  }
  return out;
}
