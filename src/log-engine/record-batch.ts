import { Buffer } from 'node:buffer';
import { LOG_FIELDS } from '../log-fields/fields';
import { entryKey, type LogEntry } from '../api/logs/entry';
import { formatIpv4, formatIpv6, isoOf } from './columns/codecs';

/** The columns of a decoded page (what the page encoder writes; see EncodedPage in page-codec.ts). */
export interface BatchColumns {
  nums: Float64Array;
  times: Float64Array;
  rid: Uint8Array;
  ip4: Uint32Array;
  ip6: Uint8Array;
  codes: Int32Array;
  joined: string[];
  ends: Int32Array;
  firstValue: Int32Array;
}

type StringField = Extract<(typeof LOG_FIELDS)[number], { type: 'string' }>['name'];
type NumberField = Extract<(typeof LOG_FIELDS)[number], { type: 'number' }>['name'];
/** The string fields in the table's order: a record's codes, one per field. */
export const STRING_FIELDS = LOG_FIELDS.filter((f) => f.type === 'string').map((f) => f.name) as readonly StringField[];
/** The number fields in the table's order: a record's nums, one per field. */
export const NUMBER_FIELDS = LOG_FIELDS.filter((f) => f.type === 'number').map((f) => f.name) as readonly NumberField[];

/** Index of each string field in a record's codes (STRING_FIELDS order). */
export const BatchField = Object.fromEntries(STRING_FIELDS.map((name, k) => [name, k])) as Readonly<Record<StringField, number>>;
/** Index of each number field in a record's nums (NUMBER_FIELDS order). */
export const BatchNumber = Object.fromEntries(NUMBER_FIELDS.map((name, k) => [name, k])) as Readonly<Record<NumberField, number>>;
const STRINGS = STRING_FIELDS.length;
/** Per string field: its storage (how a value kept in its column, COLUMN_CODE, is written back). */
const COLUMN_STORAGE = STRING_FIELDS.map((name) => LOG_FIELDS.find((f) => f.name === name)!.storage);
const NUMBERS = NUMBER_FIELDS.length;

/** The string fields that have a dictionary (their codes >= 0 are ids into `dicts`). */
const HAS_DICT = STRING_FIELDS.map((name) => LOG_FIELDS.find((f) => f.name === name)!.storage === 'dictionary');
/** Per field of the table: its index among the numbers or the strings, and whether it is a number. */
const FIELD_NAMES = LOG_FIELDS.map((f) => f.name);
const FIELD_NUMERIC = LOG_FIELDS.map((f) => f.type === 'number');
const FIELD_SLOT = LOG_FIELDS.map((f) => (f.type === 'number' ? BatchNumber[f.name as NumberField] : BatchField[f.name as StringField]));
/** Every field null, in the table's order: each entry starts as a copy (one shape for all). */
const EMPTY: Record<string, unknown> = Object.fromEntries(FIELD_NAMES.map((name) => [name, null]));

/** Records per joined string (the encoder's CHUNK). */
const CHUNK_BITS = 8;

/**
 * A number read from a Float64Array is a double; V8 keeps a double in an object field as a
 * separate heap number (16 bytes, and work for the garbage collector). Integers that fit in 31
 * bits become small integers, stored in the field itself.
 */
const small = (v: number): number => ((v | 0) === v ? v | 0 : v);

/**
 * One page's records as columns, in page order: what LogBuffer.insertBatch stores without building
 * an object per record. `entry(i)` builds the LogEntry (equal to what JSON.parse + readLogEntry
 * give) for whoever needs objects: `entries()` builds them all once.
 */
export class RecordBatch {
  readonly times: Float64Array;
  /** One per number field a record (BatchNumber order; NaN = null). */
  readonly nums: Float64Array;
  /** One per string field a record (BatchField order): see EncodedPage.codes. */
  readonly codes: Int32Array;
  /** The request ids (16 bytes a record, where the code says so) as four 32-bit words each. */
  readonly ridWords: Uint32Array;
  readonly ip4: Uint32Array;
  /** 16 bytes a record: the IPv6 address where the remote IP's code is 1. */
  readonly ip6: Uint8Array;
  private readonly rid: Buffer;
  private objects: LogEntry[] | null = null;

  /**
   * `dicts`: the decoder's dictionaries (by field, values by id; they only grow), also the key
   * under which a store remembers its own ids for them.
   */
  constructor(
    private readonly cols: BatchColumns,
    readonly dicts: readonly string[][],
    readonly length: number,
  ) {
    this.times = cols.times.subarray(0, length);
    this.nums = cols.nums;
    this.codes = cols.codes;
    this.ip4 = cols.ip4;
    this.ip6 = cols.ip6;
    const r = cols.rid;
    this.rid = Buffer.from(r.buffer, r.byteOffset, r.byteLength);
    this.ridWords = new Uint32Array(r.buffer, r.byteOffset, r.byteLength >>> 2);
  }

  /** The first `n` records (the same memory). */
  head(n: number): RecordBatch {
    return n >= this.length ? this : new RecordBatch(this.cols, this.dicts, Math.max(0, n));
  }

  /** Whether record i's request id is in `ridWords` (32 lower-case hex digits). */
  hasBinaryId(i: number): boolean {
    return this.codes[i * STRINGS + BatchField.requestId] === 0;
  }

  /** A field's value as text: null when null. */
  text(k: number, i: number): string | null {
    const code = this.codes[i * STRINGS + k]!;
    if (code === -1) return null;
    if (code >= 0) {
      if (HAS_DICT[k]) return this.dicts[k]![code]!;
      return this.columnText(k, i, code);
    }
    const u = -code - 2;
    const chunk = i >> CHUNK_BITS;
    const { joined, ends, firstValue } = this.cols;
    return joined[chunk]!.slice(u === firstValue[chunk] ? 0 : ends[u - 1]!, ends[u]!);
  }

  /** The value of a field without a dictionary kept in its column (COLUMN_CODE). */
  private columnText(k: number, i: number, code: number): string {
    switch (COLUMN_STORAGE[k]) {
      case 'time':
        return isoOf(this.times[i]!);
      case 'id':
        return this.rid.toString('hex', i * 16, i * 16 + 16);
      case 'address':
        return code === 1 ? formatIpv6(this.ip6, i * 16) : formatIpv4(this.ip4[i]!);
      default:
        return `${this.text(BatchField.scheme, i)}://${this.text(BatchField.host, i)}${this.text(BatchField.path, i)}`;
    }
  }

  /** The key that identifies record i: its request id, or the stand-in entryKey builds. */
  key(i: number): string {
    return this.text(BatchField.requestId, i) ?? entryKey(this.entry(i));
  }

  /** A number field (its BatchNumber index); null when null. */
  num(n: number, i: number): number | null {
    const v = this.nums[i * NUMBERS + n]!;
    return v === v ? small(v) : null;
  }

  entry(i: number): LogEntry {
    if (this.objects) return this.objects[i]!;
    const out = { ...EMPTY };
    for (let f = 0; f < FIELD_NAMES.length; f++) out[FIELD_NAMES[f]!] = FIELD_NUMERIC[f] ? this.num(FIELD_SLOT[f]!, i) : this.text(FIELD_SLOT[f]!, i);
    return out as LogEntry;
  }

  /** Every record as a LogEntry (built on the first call). */
  entries(): LogEntry[] {
    if (this.objects) return this.objects;
    const out: LogEntry[] = new Array<LogEntry>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.entry(i);
    this.objects = out;
    return out;
  }
}
