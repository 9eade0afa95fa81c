/**
 * The one way a value gets into ClickHouse SQL text. 18.16 has no query parameters, so the few
 * literals a statement needs (zone ids, times, names) are written here and nowhere else; records
 * never go through SQL text (they are JSONEachRow bodies).
 */

export type SqlValue = number | bigint | string | Date;

/** A literal: a whole number as is, a string quoted with every special byte escaped, a Date as toDateTime64/toDateTime seconds. */
export function sqlLiteral(value: SqlValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not a whole number for SQL: ${value}`);
    return String(value);
  }
  if (value instanceof Date) {
    const ms = value.getTime();
    if (!Number.isFinite(ms)) throw new RangeError('invalid date for SQL');
    return String(Math.floor(ms / 1000));
  }
  let out = "'";
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (ch === "'") out += "\\'";
    else if (ch === '\\') out += '\\\\';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** A table, database or cluster name: letters, digits and _ only (refused otherwise), in backquotes. */
export function sqlIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name)) {
    throw new RangeError(`"${name}" is not a plain name (letters, digits and _, not starting with a digit)`);
  }
  return `\`${name}\``;
}

/**
 * Any name (a table a person made may hold any character) as a backquoted identifier, with the
 * same escapes as a string literal: for names read from the server's catalog, never typed SQL.
 */
export function sqlName(name: string): string {
  return `\`${sqlLiteral(name).slice(1, -1).replace(/`/g, '\\`')}\``;
}
