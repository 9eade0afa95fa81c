import { Buffer } from 'node:buffer';
import { entryKey, type LogEntry } from './entry';
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

/** Index of each string field in a record's 16 codes (STRING_FIELDS order). */
export const enum BatchField {
  Timestamp = 0,
  RequestId = 1,
  CacheStatus = 2,
  RemoteIp = 3,
  CountryCode = 4,
  EdgeLocation = 5,
  Scheme = 6,
  Host = 7,
  Path = 8,
  Url = 9,
  UserAgent = 10,
  Referer = 11,
  ContentRange = 12,
  AuthorizationHeader = 13,
  Ja4Fingerprint = 14,
  AsnOrganization = 15,
}

/** The string fields that have a dictionary (their codes >= 0 are ids into `dicts`). */
const HAS_DICT = [false, false, true, false, true, true, true, true, true, false, true, true, false, false, true, true];

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
  /** 5 per record: pullZoneId, statusCode, bytesSent, bodyBytesSent, asn (NaN = null). */
  readonly nums: Float64Array;
  /** 16 per record (BatchField order): see EncodedPage.codes. */
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
    return this.codes[i * 16 + BatchField.RequestId] === 0;
  }

  /** A field's value as text: null when null. */
  text(k: BatchField, i: number): string | null {
    const code = this.codes[i * 16 + k]!;
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
  private columnText(k: BatchField, i: number, code: number): string {
    switch (k) {
      case BatchField.Timestamp:
        return isoOf(this.times[i]!);
      case BatchField.RequestId:
        return this.rid.toString('hex', i * 16, i * 16 + 16);
      case BatchField.RemoteIp:
        return code === 1 ? formatIpv6(this.ip6, i * 16) : formatIpv4(this.ip4[i]!);
      default:
        return `${this.text(BatchField.Scheme, i)}://${this.text(BatchField.Host, i)}${this.text(BatchField.Path, i)}`;
    }
  }

  /** The key that identifies record i: its request id, or the stand-in entryKey builds. */
  key(i: number): string {
    return this.text(BatchField.RequestId, i) ?? entryKey(this.entry(i));
  }

  /** A number field (0 pullZoneId, 1 statusCode, 2 bytesSent, 3 bodyBytesSent, 4 asn); null when null. */
  num(n: number, i: number): number | null {
    const v = this.nums[i * 5 + n]!;
    return v === v ? small(v) : null;
  }

  entry(i: number): LogEntry {
    if (this.objects) return this.objects[i]!;
    const t = (k: BatchField) => this.text(k, i);
    return {
      timestamp: t(BatchField.Timestamp)!,
      pullZoneId: this.num(0, i)!,
      requestId: t(BatchField.RequestId),
      cacheStatus: t(BatchField.CacheStatus),
      statusCode: this.num(1, i)!,
      bytesSent: this.num(2, i)!,
      remoteIp: t(BatchField.RemoteIp),
      countryCode: t(BatchField.CountryCode),
      edgeLocation: t(BatchField.EdgeLocation),
      scheme: t(BatchField.Scheme),
      host: t(BatchField.Host),
      path: t(BatchField.Path),
      url: t(BatchField.Url),
      userAgent: t(BatchField.UserAgent),
      referer: t(BatchField.Referer),
      bodyBytesSent: this.num(3, i),
      contentRange: t(BatchField.ContentRange),
      authorizationHeader: t(BatchField.AuthorizationHeader),
      ja4Fingerprint: t(BatchField.Ja4Fingerprint),
      asn: this.num(4, i),
      asnOrganization: t(BatchField.AsnOrganization),
    };
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
