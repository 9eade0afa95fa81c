import type { SqlValue } from '../api/database/values';

/**
 * ClickHouse's TabSeparatedWithNamesAndTypes read as it arrives: a line of names, a line of
 * types, then one line per row. 18.16 has no JSONCompactEachRow (measured: "Unknown format"), and
 * JSONEachRow loses a repeated column name and reorders numeric names, so the shell reads TSV.
 * A row is cut only at a newline byte, so a UTF-8 character split between chunks is kept whole.
 */

/** An error the server wrote in the middle of a streamed answer (18.16 has no exception tag). */
export class MidStreamError extends Error {}

const ERROR_LINE = /^Code: \d+, e\.displayText\(\) = /;

/** TSV's escapes: \N alone is NULL; \t \n \\ \' \0 \b \f \r, and any other \x is x. */
export function tsvUnescape(field: string): string {
  if (!field.includes('\\')) return field;
  let out = '';
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    if (c !== '\\' || i === field.length - 1) {
      out += c;
      continue;
    }
    const n = field[++i]!;
    out += n === 't' ? '\t' : n === 'n' ? '\n' : n === 'r' ? '\r' : n === '0' ? '\0' : n === 'b' ? '\b' : n === 'f' ? '\f' : n;
  }
  return out;
}

type Convert = (text: string) => SqlValue;

const FLOAT = /^Float(32|64)$/;
/** Integers are bigints, as the database's are: the shell prints a number as a real (`7.0`). */
const INTEGER = /^U?Int(8|16|32|64|128|256)$/;

/** How a column's text becomes a value: integers as bigint (exact), floats as number, the rest as text. */
export function converterFor(type: string): Convert {
  const nullable = /^Nullable\((.*)\)$/.exec(type);
  const inner = nullable ? nullable[1]! : type;
  const base: Convert = FLOAT.test(inner)
    ? (t) => (t === 'nan' ? Number.NaN : t === 'inf' || t === '+inf' ? Infinity : t === '-inf' ? -Infinity : Number(t))
    : INTEGER.test(inner)
      ? (t) => BigInt(t)
      : (t) => tsvUnescape(t);
  return (t) => (t === '\\N' ? null : base(t));
}

export class TsvRows {
  columns: string[] | null = null;
  types: string[] | null = null;
  private converters: Convert[] = [];
  private rest: Buffer = Buffer.alloc(0);
  /** A line that reads as a server error: one only if the answer ends with it. */
  private suspect: string | null = null;

  /** The rows that the chunk completes (the header lines are taken first). */
  push(chunk: Buffer): SqlValue[][] {
    const data = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk;
    const rows: SqlValue[][] = [];
    let start = 0;
    for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
      for (const row of this.line(data.toString('utf8', start, nl))) rows.push(row);
      start = nl + 1;
    }
    this.rest = data.subarray(start);
    return rows;
  }

  /** The answer ended: a line without its newline is a server error. */
  end(): void {
    const text = this.rest.toString('utf8');
    this.rest = Buffer.alloc(0);
    if (text.trim()) throw new MidStreamError(text.trim());
    if (this.suspect !== null) throw new MidStreamError(this.suspect);
  }

  private line(text: string): SqlValue[][] {
    if (this.columns === null) {
      this.columns = text.split('\t').map(tsvUnescape);
      return [];
    }
    if (this.types === null) {
      this.types = text.split('\t').map(tsvUnescape);
      this.converters = this.types.map(converterFor);
      return [];
    }
    const rows: SqlValue[][] = [];
    if (this.suspect !== null) {
      // a value that only looked like an error: the answer went on
      rows.push(this.row(this.suspect));
      this.suspect = null;
    }
    if (ERROR_LINE.test(text)) {
      this.suspect = text;
      return rows;
    }
    rows.push(this.row(text));
    return rows;
  }

  private row(text: string): SqlValue[] {
    return text.split('\t').map((f, i) => (this.converters[i] ?? tsvUnescape)(f));
  }
}
