/**
 * SQL values as burrow holds them. Every INTEGER is a bigint (not only the ones above 2^53), so an
 * integer 1 and a REAL 1.0 stay distinguishable and nothing ever loses digits; REAL is a number,
 * TEXT a string, BLOB a Uint8Array, NULL null.
 */
export type SqlValue = null | bigint | number | string | Uint8Array;

/** What may be bound as an argument: a boolean binds as 1 or 0, like SQLite's own clients. */
export type SqlArg = SqlValue | boolean;

export type WireValue =
  { type: 'null' } | { type: 'integer'; value: string } | { type: 'float'; value: number } | { type: 'text'; value: string } | { type: 'blob'; base64: string };

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

export class ValueError extends Error {}

export function encodeArg(v: SqlArg): WireValue {
  if (v === null) return { type: 'null' };
  if (typeof v === 'bigint') {
    if (v < I64_MIN || v > I64_MAX) throw new ValueError(`${v} does not fit in a 64-bit SQLite integer`);
    return { type: 'integer', value: v.toString() };
  }
  if (typeof v === 'boolean') return { type: 'integer', value: v ? '1' : '0' };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ValueError(`${v} cannot be sent: SQLite over HTTP has no representation for it`);
    return { type: 'float', value: v };
  }
  if (typeof v === 'string') return { type: 'text', value: v };
  return { type: 'blob', base64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64').replace(/=+$/, '') };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes one wire value; throws ValueError on anything the protocol does not allow. */
export function decodeValue(v: unknown): SqlValue {
  if (!isObj(v)) throw new ValueError('a value is not an object');
  switch (v.type) {
    case 'null':
      return null;
    case 'integer':
      if (typeof v.value === 'string' && /^-?\d{1,20}$/.test(v.value)) return BigInt(v.value);
      if (typeof v.value === 'number' && Number.isSafeInteger(v.value)) return BigInt(v.value);
      throw new ValueError(`an integer value is not a decimal string: ${JSON.stringify(v.value)?.slice(0, 40)}`);
    case 'float':
      if (typeof v.value === 'number') return v.value;
      // sqld writes a non-finite REAL as null (serde_json); the sign is lost on the wire
      if (v.value === null) return Number.NaN;
      throw new ValueError('a float value is not a number');
    case 'text':
      if (typeof v.value === 'string') return v.value;
      throw new ValueError('a text value is not a string');
    case 'blob':
      // with or without `=` padding: sqld sends none, other servers may
      if (typeof v.base64 === 'string' && BASE64.test(v.base64)) return new Uint8Array(Buffer.from(v.base64, 'base64'));
      throw new ValueError('a blob value is not base64');
    default:
      throw new ValueError(`unknown value type ${JSON.stringify(v.type)?.slice(0, 40)}`);
  }
}

/** A REAL printed so that it reads as one: 1.0, not 1 (as sqlite3 prints it). */
export function formatReal(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Inf' : '-Inf';
  const s = String(n);
  return Number.isInteger(n) && !/e/i.test(s) ? `${s}.0` : s;
}

/**
 * A REAL as sqlite3 prints it in its text modes (`%!.15g`): at most 15 significant digits, so
 * 213.785 and not 213.78500000000003; always a decimal point (1.0, 1.0e+20); exponent form
 * below 1e-4 and from 1e15, with a two-digit exponent. Exact text (JSON, .dump) uses formatReal.
 */
export function displayReal(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = n.toExponential(14).split('e') as [string, string];
  const exp = Number(expText);
  const trim = (t: string) => {
    const cut = t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t;
    return cut.includes('.') ? cut : `${cut}.0`;
  };
  if (exp < -4 || exp >= 15) return `${trim(mantissa)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return trim(n.toFixed(Math.max(0, 14 - exp)));
}

export function blobHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

/** One value as text for tables and CSV: NULL, x'0aff' for blobs, reals as sqlite3 prints them (1.0, 213.785). */
export function valueText(v: SqlValue, nullText = 'NULL'): string {
  if (v === null) return nullText;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return displayReal(v);
  if (typeof v === 'string') return v;
  return `x'${blobHex(v)}'`;
}

/**
 * One value as a JSON literal: integers as exact JSON numbers (even above 2^53; jq and Python keep
 * them), reals with a decimal point (1.0), blobs as {"base64": "..."} so they cannot be mistaken for text.
 */
export function valueJson(v: SqlValue): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? formatReal(v) : 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return `{"base64":"${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')}"}`;
}

/**
 * JSON keys for result columns: a name that repeats (SELECT a.id, b.id) gets _2, _3... so no key
 * is lost to a duplicate (`id`, `id_2`), and never one that another column already has.
 */
export function distinctKeys(columns: readonly string[]): string[] {
  const taken = new Set(columns);
  const used = new Set<string>();
  return columns.map((name) => {
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
    let n = 2;
    while (taken.has(`${name}_${n}`) || used.has(`${name}_${n}`)) n++;
    const key = `${name}_${n}`;
    used.add(key);
    return key;
  });
}
