/** Hrana values on the wire <-> what the libsql engine binds and returns. */

export type EngineValue = null | bigint | number | string | Buffer;

export type WireValue =
  | { type: 'null' }
  | { type: 'integer'; value: string }
  | { type: 'float'; value: number | null }
  | { type: 'text'; value: string }
  | { type: 'blob'; base64: string };

/** A body that does not match the protocol: the whole HTTP request fails with 400, as in sqld. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly json = false,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function decodeValue(v: unknown, where: string): EngineValue {
  if (!isObj(v) || typeof v.type !== 'string')
    throw new ProtocolError(`Cannot deserialize client message from JSON: ${where}: expected a value object with a "type"`);
  switch (v.type) {
    case 'null':
      return null;
    case 'integer': {
      // sqld takes the i64 as a string only
      if (typeof v.value !== 'string' || !/^-?\d{1,20}$/.test(v.value)) {
        throw new ProtocolError(`Cannot deserialize client message from JSON: ${where}: invalid integer value, expected a string holding a 64-bit integer`);
      }
      const n = BigInt(v.value);
      if (n < I64_MIN || n > I64_MAX) throw new ProtocolError(`Cannot deserialize client message from JSON: ${where}: integer out of range for i64`);
      return n;
    }
    case 'float':
      if (typeof v.value !== 'number' || !Number.isFinite(v.value)) {
        throw new ProtocolError(`Cannot deserialize client message from JSON: ${where}: invalid float value, expected a number`);
      }
      return v.value;
    case 'text':
      if (typeof v.value !== 'string') throw new ProtocolError(`Cannot deserialize client message from JSON: ${where}: invalid text value, expected a string`);
      return v.value;
    case 'blob': {
      // sqld strips `=` padding on input, so both padded and unpadded base64 are accepted
      const b = v.base64;
      if (typeof b !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b) || b.replace(/=+$/, '').length % 4 === 1) {
        throw new ProtocolError(`Cannot deserialize client message from JSON: ${where}: invalid blob value, expected base64 in "base64"`);
      }
      return Buffer.from(b, 'base64');
    }
    default:
      throw new ProtocolError(
        `Cannot deserialize client message from JSON: ${where}: unknown variant \`${String(v.type).slice(0, 40)}\`, expected one of \`null\`, \`integer\`, \`float\`, \`text\`, \`blob\``,
      );
  }
}

/** What the engine returned, as sqld encodes it (blob base64 without padding). */
export function encodeValue(v: unknown): WireValue {
  if (v === null || v === undefined) return { type: 'null' };
  if (typeof v === 'bigint') return { type: 'integer', value: v.toString() };
  // serde_json writes a non-finite f64 as null; clients then see a float without a number
  // (with safe integers on, every INTEGER arrives as a bigint: a number is always a REAL)
  if (typeof v === 'number') return { type: 'float', value: Number.isFinite(v) ? v : null };
  if (typeof v === 'string') return { type: 'text', value: v };
  if (v instanceof ArrayBuffer) return { type: 'blob', base64: Buffer.from(v).toString('base64').replace(/=+$/, '') };
  if (ArrayBuffer.isView(v)) return { type: 'blob', base64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64').replace(/=+$/, '') };
  return { type: 'text', value: String(v) };
}
