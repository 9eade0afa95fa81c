import { LOG_FIELDS } from '../log-fields/fields';
import type { ByteRecordReader, CodecField } from './page-bytes';
import { RecordBatch, STRING_FIELDS } from './record-batch';

/*
 * Moving a v2 page from a worker thread to the main thread cheaply, as columns the log store
 * copies without reading a string.
 *
 * The encoder (worker side) reads the records (one sticky regular expression per record as the
 * platform writes it, JSON.parse for anything else) with the checks of readLogEntry and
 * parseTimestamp, then writes them as numbers: the time, the numeric fields, the request id as 16
 * bytes and an IPv4 address as 32 bits when they have those forms, and for each string field a
 * code: a dictionary id for the fields whose values repeat (cache status, country, edge, scheme,
 * host, path, user agent, referer, JA4, ASN organization), "in its column" for a value in its
 * usual form (see EncodedPage.codes), or an index into one joined string for the rest. New
 * dictionary entries travel with the page.
 *
 * The decoder (main side) keeps its copy of the dictionaries and wraps each page in a
 * RecordBatch: the store inserts from its columns (a dictionary id maps to the store's own id
 * once per value), and LogEntry objects are built only when someone asks for them.
 */

export interface EncodedPage {
  /** Set when the text is not JSON: the message of JSON.parse. */
  syntaxError?: string;
  /** LogEntry records kept; -1 when the body has no `data` array (the envelope then keeps `data`). */
  count: number;
  /** Elements of `data` that were not LogEntry objects. */
  skipped: number;
  /** One per number field a record (the table's order: NUMBER_FIELDS; NaN = null). */
  nums: Float64Array;
  /** Epoch ms of each record (a record whose timestamp is not a date-time is not kept). */
  times: Float64Array;
  /** 16 bytes per record: the request id when its code says it is here (COLUMN_CODE). */
  rid: Uint8Array;
  /** The IPv4 address as a number when the remote IP's code says it is here (COLUMN_CODE). */
  ip4: Uint32Array;
  /** 16 bytes per record: the IPv6 address when the remote IP's code is IPV6_CODE, else zeros. */
  ip6: Uint8Array;
  /**
   * One per string field a record (STRING_FIELDS): >= 0 dictionary id, -1 null, <= -2 value -code-2 of
   * `joined`. Fields without a dictionary use COLUMN_CODE (0) for a value in its usual form:
   * the timestamp is what toISOString writes for its time, the request id 32 lower-case hex
   * digits (in `rid`), the IP an IPv4 address (in `ip4`), the URL `${scheme}://${host}${path}`;
   * and IPV6_CODE (1) for an IP that is an IPv6 address in canonical form (in `ip6`).
   */
  codes: Int32Array;
  /**
   * The non-dictionary string values, end to end, one string per 256 records (a record kept
   * from a page of mostly known records keeps only its chunk alive); `ends` is where each value
   * ends in its chunk, `firstValue` the first value of each chunk.
   */
  joined: string[];
  ends: Int32Array;
  firstValue: Int32Array;
  /** Dictionary entries added by this page, in id order: field index and value. */
  newFields: Uint8Array;
  newValues: string[];
  /** The body without `data` (or the whole body when it is not an object with a data array). */
  envelope: unknown;
}

/** The code of a field without a dictionary whose value is kept in its usual form (see EncodedPage.codes). */
export const COLUMN_CODE = 0;
/** The remote IP's code for an IPv6 address in canonical form (16 bytes in `ip6`). */
export const IPV6_CODE = 1;

export interface PageEncoder {
  encode(text: string): EncodedPage;
  /** The same for the body's bytes (UTF-8; what `encode` gives for their text, a BOM dropped). */
  encodeBytes(bytes: Uint8Array): EncodedPage;
  /** Records already read (a v1 day's lines), as a page whose envelope is `envelope`. */
  encodeRecords(records: readonly unknown[], envelope: unknown): EncodedPage;
  /**
   * Records as they are read: `fill` gets the function that adds one (each record may die at
   * once: no array of them lives through the page) and returns the page's envelope.
   */
  encodeEach(sizeHint: number, fill: (add: (record: unknown) => void) => unknown): EncodedPage;
}

/** The fields the codec reads, in the table's order (what the worker is given as JSON). */
export const CODEC_FIELDS: readonly CodecField[] = LOG_FIELDS.map(({ name, type, required, storage }) => ({ name, type, required, storage }));

/**
 * The encoder. Self-contained on purpose (it refers to nothing outside its body): the worker
 * thread runs this function's source text. Dictionaries hold at most `dictionaryLimit` values per
 * field; beyond that, values travel in the joined string. With `byteReader` (a self-contained
 * factory too), `encodeBytes` reads records in the platform's layout from the bytes without a
 * string per value; without it, it decodes the text and encodes that.
 *
 * `shared`: a page's columns are written in a SharedArrayBuffer (one per page). A worker thread
 * posts them without a transfer list: its memory is then shared, not moved, so no ArrayBuffer
 * of the worker is ever detached. The first detach in a thread invalidates V8's "no ArrayBuffer
 * was detached" protector: every optimized function that reads a typed array is thrown away,
 * compiled again, and from then on checks for a detached buffer at each access (the encoder
 * measured ~8% slower).
 */
export function createPageEncoder(
  fields: readonly CodecField[],
  dictionaryLimit = 20_000,
  byteReader?: (fields: readonly CodecField[]) => ByteRecordReader,
  shared = false,
): PageEncoder {
  // The fields by position (the table's order); each number field has a slot in a record's nums,
  // each string field one in its codes (and the dictionary of that number, when it has one).
  const FIELDS = fields.map((f) => f.name);
  const FIELD_COUNT = FIELDS.length;
  const NUMERIC = fields.map((f) => f.type === 'number');
  const K_NUMBER = 0;
  const K_TIME = 1;
  const K_ID = 2;
  const K_ADDRESS = 3;
  const K_DICT = 4;
  const K_TEXT = 5;
  const K_URL = 6;
  /** Per field, how it is written (by its storage). */
  const KIND = Int8Array.from(fields, (f) =>
    f.type === 'number'
      ? K_NUMBER
      : f.storage === 'time'
        ? K_TIME
        : f.storage === 'id'
          ? K_ID
          : f.storage === 'address'
            ? K_ADDRESS
            : f.storage === 'dictionary'
              ? K_DICT
              : f.storage === 'derived'
                ? K_URL
                : K_TEXT,
  );
  const SLOT = Int32Array.from(fields, (f, i) => fields.slice(0, i).filter((g) => (g.type === 'number') === (f.type === 'number')).length);
  const NUM_COUNT = NUMERIC.filter(Boolean).length;
  const STR_COUNT = FIELD_COUNT - NUM_COUNT;
  const REQUIRED_AT = Int32Array.from(FIELDS.keys()).filter((i) => fields[i]!.required);
  const TIME = KIND.indexOf(K_TIME);
  // the URL is derived from these three when it is `${scheme}://${host}${path}`
  const SCHEME = FIELDS.indexOf('scheme');
  const HOST = FIELDS.indexOf('host');
  const PATH = FIELDS.indexOf('path');
  /** Which string fields use a dictionary (by slot). */
  const DICT = Array.from({ length: STR_COUNT }, (_, k) => KIND[SLOT.findIndex((slot, i) => slot === k && !NUMERIC[i])] === K_DICT);
  // paths repeat less than the other fields (assets, pages, probes, and query strings): more of them
  const LIMIT = DICT.map((_, k) => (k === SLOT[PATH] ? dictionaryLimit * 4 : dictionaryLimit));
  const dicts: Map<string, number>[] = DICT.map(() => new Map<string, number>());
  /** Each dictionary's values by id (its own copies). */
  const owned: string[][] = DICT.map(() => []);
  const CHUNK = 256;
  // In front of each dictionary, a direct-mapped cache keyed by a few characters: a Map lookup of a
  // fresh string hashes all of it (a user agent is 100+ characters), the cache compares once.
  // 4,096 entries a field: paths have tens of thousands of values, the popular ones stay cached
  const CACHE = 4096;
  const cacheKeys: (string | undefined)[] = new Array<string | undefined>(DICT.length * CACHE);
  const cacheIds = new Int32Array(DICT.length * CACHE);

  // One record as the platform writes it: compact, every field in the table's order, strings
  // without escapes or control characters, integers of up to 15 digits. Anything else takes the
  // JSON.parse path, element by element.
  const STR = '"([^"\\\\\\x00-\\x1f]*)"';
  const INT = '(0|[1-9][0-9]{0,14})(?![0-9.eE])';
  /** Per field, the group of its value in RECORD (the URL's: as built; the next group: as any string). */
  const GROUP = new Int32Array(FIELD_COUNT);
  let groups = 0;
  const members = FIELDS.map((f, i) => {
    GROUP[i] = ++groups;
    let value = NUMERIC[i] ? INT : STR;
    if (KIND[i] === K_URL) {
      // The URL first as scheme://host + path (backreferences to those three groups: no
      // comparison in JavaScript when it is), then as any string.
      value = `"(\\${GROUP[SCHEME]}://\\${GROUP[HOST]}\\${GROUP[PATH]})"|${STR}`;
      groups++;
    }
    return `${i === 0 ? '\\{' : ','}"${f}":(?:${value}|null)`;
  });
  const RECORD = new RegExp(`${members.join('')}\\}`, 'y');
  /** The record being added: its string values (undefined: null) and numbers (NaN: null), by field. */
  const strs: (string | undefined)[] = new Array<string | undefined>(FIELD_COUNT).fill(undefined);
  const numbers = new Float64Array(FIELD_COUNT);

  let cap = 0;
  let nums: Float64Array = new Float64Array(0);
  let codes: Int32Array = new Int32Array(0);
  let times: Float64Array = new Float64Array(0);
  let rid: Uint8Array = new Uint8Array(0);
  let ip4: Uint32Array = new Uint32Array(0);
  let ip6: Uint8Array = new Uint8Array(0);
  let firstValue: number[] = [];
  let newFields: number[] = [];
  let newValues: string[] = [];
  let kept = 0;
  let skipped = 0;

  // The joined strings, built chunk by chunk: value ends (in characters from the chunk's start),
  // and the chunk's values so far.
  // (kept from page to page: a page takes a copy of its part)
  let valueEnds = new Int32Array(1024);
  let valueCount = 0;
  let joined: string[] = [];
  let parts: string[] = [];
  let chunkLength = 0;

  /** Bytes of each column per record, in the order they lie in a page's one buffer (8-byte columns first: every column starts aligned). */
  const COLUMN_BYTES = [NUM_COUNT * 8, 8, STR_COUNT * 4, 16, 16, 4];
  const RECORD_BYTES = COLUMN_BYTES.reduce((sum, n) => sum + n, 0);
  /** The columns of `capacity` records, in one new buffer (shared or not). */
  function allocate(capacity: number): void {
    const bytes = RECORD_BYTES * capacity;
    const buffer = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    let at = 0;
    nums = new Float64Array(buffer, at, capacity * NUM_COUNT);
    at += capacity * COLUMN_BYTES[0]!;
    times = new Float64Array(buffer, at, capacity);
    at += capacity * COLUMN_BYTES[1]!;
    codes = new Int32Array(buffer, at, capacity * STR_COUNT);
    at += capacity * COLUMN_BYTES[2]!;
    rid = new Uint8Array(buffer, at, capacity * 16);
    at += capacity * COLUMN_BYTES[3]!;
    ip6 = new Uint8Array(buffer, at, capacity * 16);
    at += capacity * COLUMN_BYTES[4]!;
    ip4 = new Uint32Array(buffer, at, capacity);
  }

  function reset(capacity: number): void {
    cap = capacity;
    allocate(capacity);
    firstValue = [];
    kept = 0;
    skipped = 0;
    valueCount = 0;
    joined = [];
    parts = [];
    chunkLength = 0;
  }

  function closeChunk(): void {
    joined.push(parts.length === 1 ? parts[0]! : parts.join(''));
    parts = [];
    chunkLength = 0;
  }

  /** Called before a record's values are written. */
  function startRecord(): void {
    room();
    if ((kept & (CHUNK - 1)) !== 0) return;
    if (kept > 0) closeChunk();
    firstValue.push(valueCount);
  }

  function endValue(at: number): void {
    if (valueCount === valueEnds.length) {
      const e2 = new Int32Array(Math.max(64, valueCount * 2));
      e2.set(valueEnds);
      valueEnds = e2;
    }
    codes[at] = -2 - valueCount;
    valueEnds[valueCount++] = chunkLength;
  }

  function room(): void {
    if (kept < cap) return;
    cap = Math.max(64, cap * 2);
    const [n1, t1, c1, r1, s1, i1] = [nums, times, codes, rid, ip6, ip4];
    allocate(cap);
    nums.set(n1);
    times.set(t1);
    codes.set(c1);
    rid.set(r1);
    ip6.set(s1);
    ip4.set(i1);
  }

  /** A value of a dictionary field: its id, or (dictionary full) the value itself. */
  function putDict(k: number, at: number, v: string | null | undefined): void {
    if (v == null) {
      codes[at] = -1;
      return;
    }
    const len = v.length;
    const mix =
      len * 31 +
      v.charCodeAt(len - 1) * 7 +
      v.charCodeAt(len - 2) * 131 +
      v.charCodeAt(len >> 1) * 3 +
      v.charCodeAt(len >> 2) * 17 +
      v.charCodeAt((len * 3) >> 2);
    const slot = k * CACHE + ((mix ^ (mix >>> 12)) & (CACHE - 1));
    if (cacheKeys[slot] === v) {
      codes[at] = cacheIds[slot]!;
      return;
    }
    const dict = dicts[k]!;
    let id = dict.get(v);
    if (id === undefined && dict.size < LIMIT[k]!) {
      id = dict.size;
      // a copy: the value may be a slice of the whole page, which the dictionary must not keep
      const own = (' ' + v).slice(1);
      dict.set(own, id);
      owned[k]!.push(own);
      newFields.push(k);
      newValues.push(own);
    }
    if (id === undefined) {
      putValue(at, v);
      return;
    }
    // the dictionary's copy, not `v`: a slice of the page would keep the whole page text alive
    cacheKeys[slot] = owned[k]![id]!;
    cacheIds[slot] = id;
    codes[at] = id;
  }

  /** A value of the other fields: it goes in the joined string. */
  function putValue(at: number, v: string | null | undefined): void {
    if (v == null) {
      codes[at] = -1;
      return;
    }
    parts.push(v);
    chunkLength += v.length;
    endValue(at);
  }

  /** A record RECORD matched; false when it is not a LogEntry. */
  function addMatch(m: RegExpExecArray): boolean {
    let built = false;
    for (let i = 0; i < FIELD_COUNT; i++) {
      const v = m[GROUP[i]!];
      if (NUMERIC[i]) numbers[i] = v === undefined ? Number.NaN : +v;
      else if (KIND[i] === K_URL) {
        // matched as scheme://host + path (a group that did not take part matches empty)
        built = v !== undefined && strs[SCHEME] !== undefined && strs[HOST] !== undefined && strs[PATH] !== undefined;
        strs[i] = v ?? m[GROUP[i]! + 1];
      } else strs[i] = v;
    }
    return add(built);
  }

  // Times: the platform's own form read by hand (as parseTimestamp does), quicker still for
  // records of the same minute as the one before (a page's are); anything else through Date.parse.
  let minute = '';
  let minuteStart = 0;
  // the minute's first 16 characters as four little-endian words and its 17th (compared with bytes)
  const minuteWords = new Int32Array(4);
  let minuteLast = -1;
  /** Whether the last timestamp read is exactly what toISOString writes for its time. */
  let canonical = false;
  const d2 = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
  const DIGIT_AT = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
  function platformForm(text: string): boolean {
    if (text.length !== 24 || text.charCodeAt(23) !== 90 || text.charCodeAt(10) !== 84 || text.charCodeAt(19) !== 46) return false;
    if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
    for (let i = 0; i < DIGIT_AT.length; i++) {
      const c = text.charCodeAt(DIGIT_AT[i]!);
      if (c < 48 || c > 57) return false;
    }
    const month = d2(text, 5);
    const day = d2(text, 8);
    return month >= 1 && month <= 12 && day >= 1 && day <= 31 && d2(text, 11) <= 23 && d2(text, 14) <= 59 && d2(text, 17) <= 59;
  }
  function timeOf(ts: string): number {
    if (ts.length === 24 && minute !== '' && ts.startsWith(minute) && ts.charCodeAt(23) === 90 && ts.charCodeAt(19) === 46) {
      const s1 = ts.charCodeAt(17) - 48;
      const s2 = ts.charCodeAt(18) - 48;
      const m1 = ts.charCodeAt(20) - 48;
      const m2 = ts.charCodeAt(21) - 48;
      const m3 = ts.charCodeAt(22) - 48;
      if (s1 >= 0 && s1 <= 5 && s2 >= 0 && s2 <= 9 && m1 >= 0 && m1 <= 9 && m2 >= 0 && m2 <= 9 && m3 >= 0 && m3 <= 9) {
        canonical = true;
        return minuteStart + (s1 * 10 + s2) * 1000 + m1 * 100 + m2 * 10 + m3;
      }
    }
    const pf = platformForm(ts);
    const t = pf
      ? Date.UTC(d2(ts, 0) * 100 + d2(ts, 2), d2(ts, 5) - 1, d2(ts, 8), d2(ts, 11), d2(ts, 14), d2(ts, 17), (ts.charCodeAt(20) - 48) * 100 + d2(ts, 21))
      : Date.parse(ts);
    canonical = t === t && ts.length === 24 && new Date(t).toISOString() === ts;
    if (pf && canonical) {
      minute = (' ' + ts.slice(0, 17)).slice(1);
      for (let j = 0; j < 4; j++) {
        minuteWords[j] = ts.charCodeAt(4 * j) | (ts.charCodeAt(4 * j + 1) << 8) | (ts.charCodeAt(4 * j + 2) << 16) | (ts.charCodeAt(4 * j + 3) << 24);
      }
      minuteLast = ts.charCodeAt(16);
      minuteStart = t - d2(ts, 17) * 1000 - (ts.charCodeAt(20) - 48) * 100 - d2(ts, 21);
    }
    return t;
  }

  // the value of each lower-case hex digit by character code, -1 for any other character below 128
  const HEX = new Int8Array(128).fill(-1);
  for (let d = 0; d < 16; d++) HEX['0123456789abcdef'.charCodeAt(d)] = d;
  /** A request id of 32 lower-case hex digits written as 16 bytes at `at`; false when it is not one. */
  function hexId(text: string, at: number): boolean {
    if (text.length !== 32) return false;
    for (let i = 0; i < 16; i++) {
      const a = text.charCodeAt(2 * i);
      const b = text.charCodeAt(2 * i + 1);
      const hi = a < 128 ? HEX[a]! : -1;
      const lo = b < 128 ? HEX[b]! : -1;
      if ((hi | lo) < 0) return false;
      rid[at + i] = (hi << 4) | lo;
    }
    return true;
  }

  /** "a.b.c.d" without leading zeros as an unsigned 32-bit number; -1 when the text is not one. */
  function ipv4(text: string): number {
    const n = text.length;
    if (n < 7 || n > 15) return -1;
    let value = 0;
    let part = 0;
    let digits = 0;
    let parts = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 46;
      if (c === 46) {
        if (digits === 0 || part > 255 || parts === 4) return -1;
        value = value * 256 + part;
        parts++;
        part = 0;
        digits = 0;
      } else if (c >= 48 && c <= 57) {
        if (digits > 0 && part === 0) return -1;
        part = part * 10 + c - 48;
        if (++digits > 3) return -1;
      } else return -1;
    }
    return parts === 4 ? value : -1;
  }

  // An IPv6 address in canonical form (what the store keeps as 16 bytes): the rules of the
  // store's writeIpv6 and formatIpv6 (columns/codecs.ts), repeated here because this function
  // runs on its own in the worker; the page reader's tests compare the records both ways.
  const V6_GROUPS = [0, 0, 0, 0, 0, 0, 0, 0];
  function v6Hex(c: number): number {
    if (c >= 48 && c <= 57) return c - 48;
    if (c >= 97 && c <= 102) return c - 87;
    return -1;
  }
  function formatV6(at: number): string {
    let bestAt = -1;
    let bestLen = 1;
    let runAt = -1;
    for (let g = 0; g <= 8; g++) {
      const zero = g < 8 && ip6[at + 2 * g] === 0 && ip6[at + 2 * g + 1] === 0;
      if (zero) {
        if (runAt < 0) runAt = g;
      } else if (runAt >= 0) {
        if (g - runAt > bestLen) {
          bestAt = runAt;
          bestLen = g - runAt;
        }
        runAt = -1;
      }
    }
    let out = '';
    let colon = false;
    for (let g = 0; g < 8; g++) {
      if (g === bestAt) {
        out += '::';
        g += bestLen - 1;
        colon = false;
        continue;
      }
      if (colon) out += ':';
      out += ((ip6[at + 2 * g]! << 8) | ip6[at + 2 * g + 1]!).toString(16);
      colon = true;
    }
    return out;
  }
  /** Writes an IPv6 address in canonical form as 16 bytes of `ip6` at `at`; false otherwise. */
  function ipv6(text: string, at: number): boolean {
    const n = text.length;
    if (n < 2 || n > 39) return false;
    const groups = V6_GROUPS;
    let count = 0;
    let gap = -1;
    let value = 0;
    let digits = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 58;
      if (c === 58) {
        if (i < n && i + 1 < n && text.charCodeAt(i + 1) === 58) {
          if (gap >= 0) return false;
          if (digits > 0) groups[count++] = value;
          else if (i !== 0) return false;
          gap = count;
          i++;
          value = 0;
          digits = 0;
          if (i + 1 === n) break;
          continue;
        }
        if (digits === 0) return false;
        if (count === 8) return false;
        groups[count++] = value;
        value = 0;
        digits = 0;
      } else {
        const d = v6Hex(c);
        if (d < 0 || ++digits > 4) return false;
        value = value * 16 + d;
      }
    }
    if (gap < 0 ? count !== 8 : count > 6) return false;
    const fill = 8 - count;
    for (let g = 0, src = 0; g < 8; g++) {
      const v = gap >= 0 && g >= gap && g < gap + fill ? 0 : groups[src++]!;
      ip6[at + 2 * g] = v >> 8;
      ip6[at + 2 * g + 1] = v & 255;
    }
    if (formatV6(at) === text) return true;
    // not canonical: no bytes left behind (ip6 holds an address only where the code says so)
    ip6.fill(0, at, at + 16);
    return false;
  }

  /**
   * ipv6 over the bytes at s..e, without a string: the canonical form is checked by its rules
   * (what formatV6 writes): each group in lower-case hex without leading zeros, and `::` exactly
   * where formatV6 puts it (the first longest run of two or more zero groups), or nowhere.
   */
  function ipv6B(s: number, e: number, at: number): boolean {
    const n = e - s;
    if (n < 2 || n > 39) return false;
    const groups = V6_GROUPS;
    let count = 0;
    let gap = -1;
    let value = 0;
    let digits = 0;
    for (let i = s; i <= e; i++) {
      const c = i < e ? bin[i]! : 58;
      if (c === 58) {
        if (i + 1 < e && bin[i + 1] === 58) {
          if (gap >= 0) return false;
          if (digits > 0) {
            if (!shortest(value, digits)) return false;
            groups[count++] = value;
          } else if (i !== s) return false;
          gap = count;
          i++;
          value = 0;
          digits = 0;
          if (i + 1 === e) break;
          continue;
        }
        if (digits === 0 || count === 8 || !shortest(value, digits)) return false;
        groups[count++] = value;
        value = 0;
        digits = 0;
      } else {
        const d = v6Hex(c);
        if (d < 0 || ++digits > 4) return false;
        value = value * 16 + d;
      }
    }
    if (gap < 0 ? count !== 8 : count > 6) return false;
    const fill = 8 - count;
    let bestAt = -1;
    let bestLen = 1;
    let runAt = -1;
    for (let g = 0, src = 0; g <= 8; g++) {
      let zero = false;
      if (g < 8) {
        const v = gap >= 0 && g >= gap && g < gap + fill ? 0 : groups[src++]!;
        ip6[at + 2 * g] = v >> 8;
        ip6[at + 2 * g + 1] = v & 255;
        zero = v === 0;
      }
      if (zero) {
        if (runAt < 0) runAt = g;
      } else if (runAt >= 0) {
        if (g - runAt > bestLen) {
          bestAt = runAt;
          bestLen = g - runAt;
        }
        runAt = -1;
      }
    }
    if (gap < 0 ? bestAt < 0 : bestAt === gap && bestLen === fill) return true;
    ip6.fill(0, at, at + 16);
    return false;
  }
  /** Whether a group of `digits` hex digits has no leading zero (0 is written "0"). */
  function shortest(value: number, digits: number): boolean {
    return digits === (value < 0x10 ? 1 : value < 0x100 ? 2 : value < 0x1000 ? 3 : 4);
  }

  /** Whether the URL is `${scheme}://${host}${path}` (then it is rebuilt instead of sent). */
  function builtUrl(url: string, scheme: string, host: string, path: string): boolean {
    return (
      url.length === scheme.length + 3 + host.length + path.length &&
      url.startsWith(scheme) &&
      url.startsWith('://', scheme.length) &&
      url.startsWith(host, scheme.length + 3) &&
      url.endsWith(path)
    );
  }

  /**
   * Adds the record in `strs` and `numbers`; false when it is not a LogEntry. `urlBuilt`: the URL
   * is known to be `${scheme}://${host}${path}`.
   */
  function add(urlBuilt: boolean): boolean {
    for (let j = 0; j < REQUIRED_AT.length; j++) {
      const i = REQUIRED_AT[j]!;
      if (NUMERIC[i] ? numbers[i] !== numbers[i] : strs[i] === undefined) return false;
    }
    const t = timeOf(strs[TIME]!);
    if (t !== t) return false;
    startRecord();
    times[kept] = t;
    const m = kept * NUM_COUNT;
    const c = kept * STR_COUNT;
    for (let i = 0; i < FIELD_COUNT; i++) {
      const at = c + SLOT[i]!;
      const v = strs[i];
      switch (KIND[i]) {
        case K_NUMBER:
          nums[m + SLOT[i]!] = numbers[i]!;
          break;
        case K_TIME:
          if (canonical) codes[at] = 0;
          else putValue(at, v);
          break;
        case K_ID:
          if (v == null) codes[at] = -1;
          else if (hexId(v, kept * 16)) codes[at] = 0;
          else putValue(at, v);
          break;
        case K_ADDRESS: {
          const v4 = v == null ? -1 : ipv4(v);
          if (v4 >= 0) {
            ip4[kept] = v4;
            codes[at] = 0;
          } else if (v != null && ipv6(v, kept * 16)) codes[at] = 1;
          else putValue(at, v);
          break;
        }
        case K_DICT:
          putDict(SLOT[i]!, at, v);
          break;
        case K_URL: {
          const scheme = strs[SCHEME];
          const host = strs[HOST];
          const path = strs[PATH];
          if (urlBuilt || (v != null && scheme != null && host != null && path != null && builtUrl(v, scheme, host, path))) codes[at] = 0;
          else putValue(at, v);
          break;
        }
        default:
          putValue(at, v);
      }
    }
    kept++;
    return true;
  }

  /** A parsed element, with the checks of readLogEntry. */
  function addValue(value: unknown): void {
    const r = value as Record<string, unknown> | null;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      skipped++;
      return;
    }
    for (let i = 0; i < FIELD_COUNT; i++) {
      const v = r[FIELDS[i]!];
      if (v === undefined || v === null) {
        if (NUMERIC[i]) numbers[i] = Number.NaN;
        else strs[i] = undefined;
      } else if (NUMERIC[i] ? typeof v !== 'number' : typeof v !== 'string') {
        skipped++;
        return;
      } else if (NUMERIC[i]) numbers[i] = v as number;
      else strs[i] = v as string;
    }
    if (!add(false)) skipped++;
  }

  let src = '';
  class Unreadable extends Error {}
  const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
  function skipSpace(p: number): number {
    while (isSpace(src.charCodeAt(p))) p++;
    return p;
  }
  /** End (exclusive) of the JSON value at p, or -1. Structure only: JSON.parse validates. */
  function skipValue(p: number): number {
    const len = src.length;
    let depth = 0;
    for (let i = p; i < len; i++) {
      const c = src.charCodeAt(i);
      if (c === 34) {
        for (i++; i < len; i++) {
          const d = src.charCodeAt(i);
          if (d === 92) i++;
          else if (d === 34) break;
        }
        if (i >= len) return -1;
        if (depth === 0) return i + 1;
      } else if (c === 123 || c === 91) {
        depth++;
      } else if (c === 125 || c === 93) {
        if (depth === 0) return i;
        if (--depth === 0) return i + 1;
      } else if (depth === 0 && (c === 44 || isSpace(c))) {
        return i;
      }
    }
    return depth === 0 ? len : -1;
  }

  /** The data array at p; returns the position after it. */
  function readArray(p: number): number {
    p = skipSpace(p + 1);
    if (src.charCodeAt(p) === 93) return p + 1;
    let slow = 0;
    for (let i = 0; ; i++) {
      RECORD.lastIndex = p;
      const m = src.charCodeAt(p) === 123 ? RECORD.exec(src) : null;
      if (m !== null) {
        if (!addMatch(m)) skipped++;
        p = RECORD.lastIndex;
      } else {
        const end = skipValue(p);
        if (end < 0) throw new Unreadable();
        let value: unknown;
        try {
          value = JSON.parse(src.slice(p, end));
        } catch {
          throw new Unreadable();
        }
        addValue(value);
        p = end;
        // not the platform's layout: one JSON.parse of the whole body is quicker
        if (++slow > 16 && slow * 2 > i) throw new Unreadable();
      }
      let c = src.charCodeAt(p);
      if (isSpace(c)) {
        p = skipSpace(p);
        c = src.charCodeAt(p);
      }
      if (c === 44) p = skipSpace(p + 1);
      else if (c === 93) return p + 1;
      else throw new Unreadable();
    }
  }

  /** The body read member by member; null when it must go through JSON.parse as a whole. */
  function readObject(text: string): { envelope: unknown; hasData: boolean } | null {
    src = text;
    try {
      let p = skipSpace(0);
      if (src.charCodeAt(p) !== 123) return null;
      p = skipSpace(p + 1);
      const members: string[] = [];
      let hasData = false;
      if (src.charCodeAt(p) !== 125) {
        for (;;) {
          if (src.charCodeAt(p) !== 34) return null;
          const keyEnd = skipValue(p);
          if (keyEnd < 0) return null;
          const name = src.slice(p, keyEnd);
          p = skipSpace(keyEnd);
          if (src.charCodeAt(p) !== 58) return null;
          p = skipSpace(p + 1);
          if (name === '"data"' && src.charCodeAt(p) === 91 && !hasData) {
            hasData = true;
            p = readArray(p);
          } else {
            const end = skipValue(p);
            if (end <= p) return null;
            members.push(`${name}:${src.slice(p, end)}`);
            p = end;
          }
          p = skipSpace(p);
          const c = src.charCodeAt(p);
          if (c === 44) p = skipSpace(p + 1);
          else if (c === 125) break;
          else return null;
        }
      }
      if (skipSpace(p + 1) !== src.length) return null;
      let envelope: Record<string, unknown>;
      try {
        envelope = JSON.parse(`{${members.join(',')}}`) as Record<string, unknown>;
      } catch {
        return null;
      }
      // another member that JSON.parse would also call "data" (escapes, repeats): its rules apply
      if (hasData && Object.prototype.hasOwnProperty.call(envelope, 'data')) return null;
      return { envelope, hasData };
    } catch (error) {
      if (error instanceof Unreadable) return null;
      throw error;
    } finally {
      src = '';
    }
  }

  function result(envelope: unknown, hasData: boolean): EncodedPage {
    if (joined.length < firstValue.length) closeChunk();
    const page: EncodedPage = {
      count: hasData ? kept : -1,
      skipped,
      nums: nums.subarray(0, kept * NUM_COUNT),
      times: times.subarray(0, kept),
      rid: rid.subarray(0, kept * 16),
      ip4: ip4.subarray(0, kept),
      ip6: ip6.subarray(0, kept * 16),
      codes: codes.subarray(0, kept * STR_COUNT),
      joined,
      ends: valueEnds.slice(0, valueCount),
      firstValue: Int32Array.from(firstValue),
      newFields: Uint8Array.from(newFields),
      newValues,
      envelope,
    };
    reset(0);
    newFields = [];
    newValues = [];
    return page;
  }

  function encode(text: string): EncodedPage {
    // a platform record is at least 300 characters long
    reset(Math.ceil(text.length / 300) + 16);
    const fast = readObject(text);
    if (fast) return result(fast.envelope, fast.hasData);
    // Dictionary entries learnt by the attempt stay in newFields/newValues: they go with this page.
    reset(0);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const page = result(null, false);
      page.syntaxError = String((error as Error).message);
      return page;
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json) || !Array.isArray((json as { data?: unknown }).data)) {
      return result(json, false);
    }
    const { data, ...envelope } = json as { data: unknown[] };
    reset(data.length);
    for (let i = 0; i < data.length; i++) addValue(data[i]);
    return result(envelope, true);
  }

  // Reading from the bytes. Records in the platform's layout (ByteRecordReader.scan) are read from
  // the bytes: numbers, times, request ids and IPv4 addresses from their digits, dictionary values
  // by the hash of their bytes (a string only for a value not seen before). Any other record is cut
  // out, decoded and read as above; a body whose structure is not an object with members goes
  // through `encode` whole. Cutting at ASCII bytes is safe: every byte of a multi-byte UTF-8
  // character is >= 0x80, and the decoder replaces an invalid sequence up to the next ASCII byte.
  const whole = new TextDecoder();
  const piece = new TextDecoder('utf-8', { ignoreBOM: true });
  const br = byteReader ? byteReader(fields) : null;
  let bin: Uint8Array = new Uint8Array(0);
  let binView = new DataView(bin.buffer);
  const ascii = (s: number, e: number): string =>
    e - s < 64 ? String.fromCharCode.apply(null, bin.subarray(s, e) as unknown as number[]) : piece.decode(bin.subarray(s, e));
  const text = (s: number, e: number): string => piece.decode(bin.subarray(s, e));
  const isSpaceAt = (p: number) => {
    const c = bin[p];
    return c === 32 || c === 10 || c === 13 || c === 9;
  };
  function skipSpaceB(p: number): number {
    while (isSpaceAt(p)) p++;
    return p;
  }
  /** skipValue over the bytes. */
  function skipValueB(p: number): number {
    const len = bin.length;
    let depth = 0;
    for (let i = p; i < len; i++) {
      const c = bin[i]!;
      if (c === 34) {
        for (i++; i < len; i++) {
          const d = bin[i]!;
          if (d === 92) i++;
          else if (d === 34) break;
        }
        if (i >= len) return -1;
        if (depth === 0) return i + 1;
      } else if (c === 123 || c === 91) {
        depth++;
      } else if (c === 125 || c === 93) {
        if (depth === 0) return i;
        if (--depth === 0) return i + 1;
      } else if (depth === 0 && (c === 44 || c === 32 || c === 10 || c === 13 || c === 9)) {
        return i;
      }
    }
    return depth === 0 ? len : -1;
  }

  /** A number field's digits (start -1: null). */
  function digits(s: number, e: number): number {
    if (s < 0) return Number.NaN;
    let v = 0;
    for (let i = s; i < e; i++) v = v * 10 + bin[i]! - 48;
    return v;
  }

  /** The time of the ISO digits at s..e when they are in the minute read last (then canonical), else NaN. */
  function minuteTime(s: number, e: number): number {
    if (e - s !== 24 || minute === '' || bin[s + 23] !== 90 || bin[s + 19] !== 46) return Number.NaN;
    const v = binView;
    if (
      v.getInt32(s, true) !== minuteWords[0] ||
      v.getInt32(s + 4, true) !== minuteWords[1] ||
      v.getInt32(s + 8, true) !== minuteWords[2] ||
      v.getInt32(s + 12, true) !== minuteWords[3] ||
      bin[s + 16] !== minuteLast
    ) {
      return Number.NaN;
    }
    const s1 = bin[s + 17]! - 48;
    const s2 = bin[s + 18]! - 48;
    const m1 = bin[s + 20]! - 48;
    const m2 = bin[s + 21]! - 48;
    const m3 = bin[s + 22]! - 48;
    if (s1 >= 0 && s1 <= 5 && s2 >= 0 && s2 <= 9 && m1 >= 0 && m1 <= 9 && m2 >= 0 && m2 <= 9 && m3 >= 0 && m3 <= 9) {
      return minuteStart + (s1 * 10 + s2) * 1000 + m1 * 100 + m2 * 10 + m3;
    }
    return Number.NaN;
  }

  /** hexId over the bytes. */
  function hexIdB(s: number, e: number, at: number): boolean {
    if (e - s !== 32) return false;
    for (let i = 0; i < 16; i++) {
      const a = bin[s + 2 * i]!;
      const b = bin[s + 2 * i + 1]!;
      const hi = a < 128 ? HEX[a]! : -1;
      const lo = b < 128 ? HEX[b]! : -1;
      if ((hi | lo) < 0) return false;
      rid[at + i] = (hi << 4) | lo;
    }
    return true;
  }

  /** ipv4 over the bytes. */
  function ipv4B(s: number, e: number): number {
    const n = e - s;
    if (n < 7 || n > 15) return -1;
    let value = 0;
    let part = 0;
    let count = 0;
    let parts = 0;
    for (let i = s; i <= e; i++) {
      const c = i < e ? bin[i]! : 46;
      if (c === 46) {
        if (count === 0 || part > 255 || parts === 4) return -1;
        value = value * 256 + part;
        parts++;
        part = 0;
        count = 0;
      } else if (c >= 48 && c <= 57) {
        if (count > 0 && part === 0) return -1;
        part = part * 10 + c - 48;
        if (++count > 3) return -1;
      } else return -1;
    }
    return parts === 4 ? value : -1;
  }

  /** A dictionary field's value from the bytes (field f of the record, dictionary k). */
  function dictB(reader: ByteRecordReader, k: number, at: number, f: number): void {
    const s = reader.starts[f]!;
    if (s < 0) {
      codes[at] = -1;
      return;
    }
    const guessed = reader.found[f]!;
    if (guessed >= 0) {
      codes[at] = guessed;
      return;
    }
    const e = reader.ends[f]!;
    const h = reader.hashes[f]!;
    const id = reader.lookup(k, bin, s, e, h);
    if (id >= 0) {
      codes[at] = id;
      reader.learn(f, id);
      return;
    }
    putDict(k, at, ascii(s, e));
    const got = codes[at]!;
    if (got >= 0) {
      reader.remember(k, bin, s, e, h, got);
      reader.learn(f, got);
    }
  }

  /** A field without a dictionary from the bytes, as a string in the joined text. */
  function valueB(reader: ByteRecordReader, at: number, f: number): void {
    const s = reader.starts[f]!;
    if (s < 0) codes[at] = -1;
    else putValue(at, ascii(s, reader.ends[f]!));
  }

  /** The record at p in the platform's layout; returns its end, or -1 (nothing written). */
  function addBytes(reader: ByteRecordReader, p: number): number {
    const end = reader.scan(bin, p);
    if (end < 0) return -1;
    const st = reader.starts;
    const en = reader.ends;
    // a required field null: the general path says what that is
    for (let j = 0; j < REQUIRED_AT.length; j++) if (st[REQUIRED_AT[j]!]! < 0) return -1;
    let t = minuteTime(st[TIME]!, en[TIME]!);
    if (t !== t) {
      t = timeOf(ascii(st[TIME]!, en[TIME]!));
      if (t !== t || !canonical) return -1;
    }
    startRecord();
    times[kept] = t;
    const m = kept * NUM_COUNT;
    const c = kept * STR_COUNT;
    for (let i = 0; i < FIELD_COUNT; i++) {
      const at = c + SLOT[i]!;
      const s = st[i]!;
      switch (KIND[i]) {
        case K_NUMBER:
          nums[m + SLOT[i]!] = digits(s, en[i]!);
          break;
        case K_TIME:
          codes[at] = 0;
          break;
        case K_ID:
          if (s < 0) codes[at] = -1;
          else if (hexIdB(s, en[i]!, kept * 16)) codes[at] = 0;
          else valueB(reader, at, i);
          break;
        case K_ADDRESS: {
          const v4 = s < 0 ? -1 : ipv4B(s, en[i]!);
          if (v4 >= 0) {
            ip4[kept] = v4;
            codes[at] = 0;
          } else if (s >= 0) {
            if (ipv6B(s, en[i]!, kept * 16)) codes[at] = 1;
            else putValue(at, ascii(s, en[i]!));
          } else codes[at] = -1;
          break;
        }
        case K_DICT:
          dictB(reader, SLOT[i]!, at, i);
          break;
        case K_URL:
          // scheme://host + path is rebuilt, not sent
          if (reader.built[i] === 1) codes[at] = 0;
          else valueB(reader, at, i);
          break;
        default:
          valueB(reader, at, i);
      }
    }
    kept++;
    return end;
  }

  /** readArray over the bytes. */
  function readArrayB(reader: ByteRecordReader, p: number): number {
    p = skipSpaceB(p + 1);
    if (bin[p] === 93) return p + 1;
    let slow = 0;
    for (let i = 0; ; i++) {
      const fastEnd = bin[p] === 123 ? addBytes(reader, p) : -1;
      if (fastEnd >= 0) p = fastEnd;
      else {
        const end = skipValueB(p);
        if (end < 0) throw new Unreadable();
        const t = text(p, end);
        RECORD.lastIndex = 0;
        const m = t.charCodeAt(0) === 123 ? RECORD.exec(t) : null;
        if (m !== null && RECORD.lastIndex === t.length) {
          if (!addMatch(m)) skipped++;
        } else {
          let value: unknown;
          try {
            value = JSON.parse(t);
          } catch {
            throw new Unreadable();
          }
          addValue(value);
          if (++slow > 16 && slow * 2 > i) throw new Unreadable();
        }
        p = end;
      }
      let c = bin[p];
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        p = skipSpaceB(p);
        c = bin[p];
      }
      if (c === 44) p = skipSpaceB(p + 1);
      else if (c === 93) return p + 1;
      else throw new Unreadable();
    }
  }

  /** readObject over the bytes. */
  function readObjectB(reader: ByteRecordReader): { envelope: unknown; hasData: boolean } | null {
    try {
      let p = skipSpaceB(0);
      if (bin[p] !== 123) return null;
      p = skipSpaceB(p + 1);
      const members: string[] = [];
      let hasData = false;
      if (bin[p] !== 125) {
        for (;;) {
          if (bin[p] !== 34) return null;
          const keyEnd = skipValueB(p);
          if (keyEnd < 0) return null;
          const name = text(p, keyEnd);
          p = skipSpaceB(keyEnd);
          if (bin[p] !== 58) return null;
          p = skipSpaceB(p + 1);
          if (name === '"data"' && bin[p] === 91 && !hasData) {
            hasData = true;
            p = readArrayB(reader, p);
          } else {
            const end = skipValueB(p);
            if (end <= p) return null;
            members.push(`${name}:${text(p, end)}`);
            p = end;
          }
          p = skipSpaceB(p);
          const c = bin[p];
          if (c === 44) p = skipSpaceB(p + 1);
          else if (c === 125) break;
          else return null;
        }
      }
      if (skipSpaceB(p + 1) !== bin.length) return null;
      let envelope: Record<string, unknown>;
      try {
        envelope = JSON.parse(`{${members.join(',')}}`) as Record<string, unknown>;
      } catch {
        return null;
      }
      if (hasData && Object.prototype.hasOwnProperty.call(envelope, 'data')) return null;
      return { envelope, hasData };
    } catch (error) {
      if (error instanceof Unreadable) return null;
      throw error;
    }
  }

  function encodeBytes(bytes: Uint8Array): EncodedPage {
    if (br === null) return encode(whole.decode(bytes));
    // records of the platform are 300-800 bytes: room() grows the columns when they are shorter
    reset(Math.ceil(bytes.length / 600) + 16);
    // a plain Uint8Array (not a Buffer): the byte loops see one kind of array
    bin = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    binView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let fast: { envelope: unknown; hasData: boolean } | null;
    try {
      fast = readObjectB(br);
    } finally {
      bin = new Uint8Array(0);
      binView = new DataView(bin.buffer);
    }
    if (fast) return result(fast.envelope, fast.hasData);
    return encode(whole.decode(bytes));
  }

  function encodeRecords(records: readonly unknown[], envelope: unknown): EncodedPage {
    reset(records.length);
    for (let i = 0; i < records.length; i++) addValue(records[i]);
    return result(envelope, true);
  }

  function encodeEach(sizeHint: number, fill: (add: (record: unknown) => void) => unknown): EncodedPage {
    reset(Math.max(16, sizeHint));
    const envelope = fill(addValue);
    return result(envelope, true);
  }

  return { encode, encodeBytes, encodeRecords, encodeEach };
}

/** The main-thread side: a copy of one encoder's dictionaries, and the record batches of its pages. */
export class PageDecoder {
  /** The values of each string field's dictionary, by id (they only grow: an id keeps its value). */
  private readonly dicts: string[][] = STRING_FIELDS.map(() => []);

  /** A page's records as columns (pages must be decoded in the order the encoder encoded them: the dictionaries grow with each). */
  decode(p: EncodedPage): RecordBatch {
    const dicts = this.dicts;
    for (let i = 0; i < p.newValues.length; i++) dicts[p.newFields[i]!]!.push(p.newValues[i]!);
    return new RecordBatch(p, dicts, Math.max(0, p.count));
  }
}
