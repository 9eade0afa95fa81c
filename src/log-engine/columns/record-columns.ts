import { LOG_FIELDS } from '../../log-fields/fields';
import type { LogEntry } from '../../api/logs/entry';
import { Arena } from './arena';
import { formatIpv4, formatIpv6, isIsoOf, isoOf, parseIpv4, readHexId, writeHexId, writeIpv6 } from './codecs';
import { Dictionary } from './dictionary';
import { IdColumn } from './id-column';
import { NumberDictionary } from './number-dictionary';
import { BatchField, BatchNumber, NUMBER_FIELDS, STRING_FIELDS, type RecordBatch } from '../record-batch';

/** The fields kept in a dictionary (a number one, the zone, as its text). */
type DictDef = Extract<(typeof LOG_FIELDS)[number], { storage: 'dictionary' }>;
export type DictField = DictDef['name'];
export const DICT_FIELDS: readonly DictField[] = LOG_FIELDS.filter((f): f is DictDef => f.storage === 'dictionary').map((f) => f.name);
/** The text fields with a dictionary: a batch's (and the store's) dictionaries of each, same order. */
type TextDictField = Extract<DictDef, { type: 'string' }>['name'];
const TEXT_DICT_FIELDS = LOG_FIELDS.filter((f): f is Extract<DictDef, { type: 'string' }> => f.storage === 'dictionary' && f.type === 'string').map(
  (f): TextDictField => f.name,
);
const BATCH_DICTS = TEXT_DICT_FIELDS.map((f) => BatchField[f]);
const STRINGS = STRING_FIELDS.length;
const NUMBERS = NUMBER_FIELDS.length;

/** What a record's flags say about the fields that have more than one form. */
const TS_TEXT = 1;
const RID_BIN = 2;
const RID_TEXT = 4;
const IP_V4 = 8;
const IP_V6 = 16;
const IP_TEXT = 32;
const URL_BUILT = 128;
const URL_TEXT = 256;
const RANGE = 512;
const AUTH = 1024;
/** The flags, for code that reads the columns outside this class (a scan in a worker thread). */
export const RECORD_FLAGS = { TS_TEXT, RID_BIN, RID_TEXT, IP_V4, IP_V6, IP_TEXT, URL_BUILT, URL_TEXT, RANGE, AUTH } as const;
/** The status column's value for a code kept aside (not in 16 bits). */
export const STATUS_ASIDE = 0xffff;

/** A time offset that says the record's time is kept aside (not a whole ms within 2^31 ms of the base). */
export const TIME_ASIDE = -0x80000000;

/** The columns a pattern's scan reads, over shared memory (a worker thread reads them without a copy). */
export interface SharedScanColumns {
  /** Epoch ms minus `timeBase`, or TIME_ASIDE. */
  timeOffsets: Int32Array;
  timeBase: number;
  seqs: Uint32Array;
  flags: Uint16Array;
  status: Uint16Array;
  ip4: Uint32Array;
  /** Request ids, 16 bytes a slot. */
  rid: Uint8Array;
  ids: Record<DictField, Uint8Array | Uint16Array | Uint32Array>;
}

function fitsOffset(offset: number): boolean {
  return offset > TIME_ASIDE && offset <= 0x7fffffff;
}

function shared<T>(make: new (buffer: SharedArrayBuffer) => T, bytes: number): T {
  return new make(new SharedArrayBuffer(bytes));
}

/** Number columns: a 32-bit value, or one of these with the real value kept aside. */
const NULL_NUM = 0xffffffff;
const BIG_NUM = 0xfffffffe;
const STATUS_BIG = 0xffff;
const NULL_DIFF = 0xffff;
const BIG_DIFF = 0xfffe;
/** No blob: an arena reference never takes this value (a blob never starts in a chunk's last bytes). */
const NO_BLOB = 0xffffffff;

const enum Num {
  Bytes = 0,
  Body = 1,
  Status = 3,
}

/** Writes a text with its length in front; returns where the next one goes. */
function putText(bytes: Buffer, at: number, text: string): number {
  const n = Buffer.byteLength(text, 'utf8');
  const start = writeVarint(bytes, at, n);
  return start + bytes.write(text, start, n, 'utf8');
}

function writeVarint(bytes: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    bytes[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  bytes[at++] = n;
  return at;
}

/** The fields a store keeps other than in a dictionary, each its own way: entry() gives them to makeEntry in this order. */
const OWN_FIELDS = ['timestamp', 'requestId', 'statusCode', 'bytesSent', 'remoteIp', 'url', 'bodyBytesSent', 'contentRange', 'authorizationHeader', 'asn'];

/**
 * A LogEntry from a store's slot, its fields in the table's order: a dictionary field read by its
 * name (a number one, the zone, as a number), the others as given. Written out once from the
 * table (as readLogEntry is): one object literal, as by hand. A field the table adds that is not
 * in a dictionary must be in OWN_FIELDS (checked here, when the module loads).
 */
const makeEntry = ((): ((c: RecordColumns, slot: number, ...own: unknown[]) => LogEntry) => {
  const own = LOG_FIELDS.filter((f) => f.storage !== 'dictionary').map((f) => f.name);
  if (own.join() !== OWN_FIELDS.join()) throw new Error(`the store's own fields are ${OWN_FIELDS.join()}, the table's ${own.join()}`);
  const props = LOG_FIELDS.map((f) => {
    const key = JSON.stringify(f.name);
    if (f.storage !== 'dictionary') return `${key}: v${OWN_FIELDS.indexOf(f.name)}`;
    return `${key}: ${f.type === 'number' ? `Number(c.value(${key}, slot))` : `c.value(${key}, slot)`}`;
  });
  const params = ['c', 'slot', ...OWN_FIELDS.map((_, i) => `v${i}`)];
  return new Function(...params, `return { ${props.join(', ')} };`) as (c: RecordColumns, slot: number, ...own: unknown[]) => LogEntry;
})();

/**
 * Log records stored by slot in columns: no object and no string per record. Times are doubles,
 * numbers 32-bit (with the rare larger value kept aside), repeated strings and the autonomous
 * system number dictionary ids of 1-4 bytes, a request id of 32 hex digits 16 bytes, an IPv4 address 4 bytes, the URL rebuilt from
 * scheme, host and path when it is exactly that. The rest (any field in an
 * unusual form) is one blob per record in a byte arena. `entry(slot)` builds the LogEntry back,
 * equal field for field to the one stored.
 */
export class RecordColumns {
  /**
   * Times as whole ms from `timeBase`: 4 bytes a record, not 8. The base is the first record's
   * time, taken again whenever the store is empty, and moved when a record is 2^31 ms (24 days)
   * or more away from it (a console left following for weeks): see `rebase`. A time not a whole
   * ms, or still out of reach, is kept aside. Read a time with `time(slot)`.
   */
  private timeOffsets: Int32Array;
  private timeBase = 0;
  private readonly timesAside = new Map<number, number>();
  /** Records held (to take a new time base when there are none). */
  private held = 0;
  /** Records written since the base last moved: it moves again only after as many as are held. */
  private sinceRebase = 0;
  /**
   * A number given to each record stored (its identity while its slot is reused later), 1..2^32-1
   * and round again: two records held at once never share one (the store holds far fewer).
   */
  readonly seqs: Uint32Array;
  readonly flags: Uint16Array;
  private readonly status: Uint16Array;
  private readonly bytesSent: Uint32Array;
  /**
   * Body bytes as what the headers took (bytes sent minus body bytes: a few hundred), 2 bytes a
   * record; NULL_DIFF for null, BIG_DIFF with the value kept aside for anything else.
   */
  private readonly bodyDiff: Uint16Array;
  /** Autonomous system numbers repeat (a few dozen per zone): an id of 1-4 bytes each. */
  private readonly asnIds: IdColumn;
  private readonly asns = new NumberDictionary();
  /** Request ids: 16 bytes a slot, and the same memory as four 32-bit words for hashing. */
  readonly ridBytes: Uint8Array;
  readonly ridWords: Uint32Array;
  private readonly ip4: Uint32Array;
  /** Where the record's blob is in the arena (NO_BLOB: it has none). */
  private readonly blob: Uint32Array;
  private readonly big = new Map<number, number>();
  private readonly arena = new Arena();
  readonly dicts: Record<DictField, Dictionary>;
  readonly idCols: Record<DictField, IdColumn>;
  private nextSeq = 1;
  private readonly texts: string[] = [];
  private readonly v6 = new Uint8Array(16);
  /** For each page decoder's dictionaries: this store's id of each of their values (see writeFrom). */
  private readonly batchIds = new WeakMap<readonly string[][], Int32Array[]>();
  private lastDicts: readonly string[][] | null = null;
  private lastKnown: Int32Array[] = [];
  private lastZone = Number.NaN;
  private lastZoneId = 0;
  private lastZoneText: string | null = null;

  constructor(readonly capacity: number) {
    // what a scan reads is in shared memory (a worker thread scans it in place); the rest is not
    this.timeOffsets = shared(Int32Array, capacity * 4);
    this.seqs = shared(Uint32Array, capacity * 4);
    this.flags = shared(Uint16Array, capacity * 2);
    this.status = shared(Uint16Array, capacity * 2);
    this.bytesSent = new Uint32Array(capacity);
    this.bodyDiff = new Uint16Array(capacity);
    this.asnIds = new IdColumn(capacity);
    this.ridWords = shared(Uint32Array, capacity * 16);
    // a Buffer over the same memory: hex text of an id natively
    this.ridBytes = Buffer.from(this.ridWords.buffer);
    this.ip4 = shared(Uint32Array, capacity * 4);
    this.blob = new Uint32Array(capacity);
    const dicts = {} as Record<DictField, Dictionary>;
    const cols = {} as Record<DictField, IdColumn>;
    for (const f of DICT_FIELDS) {
      dicts[f] = new Dictionary();
      cols[f] = new IdColumn(capacity);
    }
    this.dicts = dicts;
    this.idCols = cols;
  }

  private setNum(which: Num, column: Uint32Array, slot: number, v: number | null): void {
    if (v === null) column[slot] = NULL_NUM;
    else if (Number.isInteger(v) && v >= 0 && v < BIG_NUM) column[slot] = v;
    else {
      column[slot] = BIG_NUM;
      this.big.set(slot * 4 + which, v);
    }
  }

  /** Body bytes of the record being written in `slot` (after its bytes sent). */
  private setBody(slot: number, bytesSent: number, body: number | null): void {
    if (body === null) {
      this.bodyDiff[slot] = NULL_DIFF;
      return;
    }
    const diff = bytesSent - body;
    // the diff must give the body back exactly: bytes sent as stored, a whole number in range
    if (
      this.bytesSent[slot] !== BIG_NUM &&
      this.bytesSent[slot] !== NULL_NUM &&
      Number.isInteger(diff) &&
      diff >= 0 &&
      diff < BIG_DIFF &&
      !Object.is(body, -0)
    ) {
      this.bodyDiff[slot] = diff;
    } else {
      this.bodyDiff[slot] = BIG_DIFF;
      this.big.set(slot * 4 + Num.Body, body);
    }
  }

  /** Body bytes sent (extended logging), null when the record has none. */
  bodyBytesOf(slot: number): number | null {
    const d = this.bodyDiff[slot]!;
    if (d === NULL_DIFF) return null;
    return d === BIG_DIFF ? this.big.get(slot * 4 + Num.Body)! : this.bytesSent[slot]! - d;
  }

  private num(which: Num, column: Uint32Array, slot: number): number | null {
    const v = column[slot]!;
    if (v === NULL_NUM) return null;
    return v === BIG_NUM ? this.big.get(slot * 4 + which)! : v;
  }

  private dict(f: DictField, slot: number, value: string | null): void {
    this.idCols[f].set(slot, this.dicts[f].intern(value));
  }

  /** Stores `e` (at epoch ms `time`) in `slot`; returns its sequence number. */
  write(slot: number, e: LogEntry, time: number): number {
    const seq = this.nextSeq;
    this.nextSeq = seq === 0xffffffff ? 1 : seq + 1;
    this.seqs[slot] = seq;
    this.putTime(slot, time);
    const s = e.statusCode;
    if (Number.isInteger(s) && s >= 0 && s < STATUS_BIG) this.status[slot] = s;
    else {
      this.status[slot] = STATUS_BIG;
      this.big.set(slot * 4 + Num.Status, s);
    }
    this.setNum(Num.Bytes, this.bytesSent, slot, e.bytesSent);
    this.setBody(slot, e.bytesSent, e.bodyBytesSent);
    this.putAsn(slot, e.asn);
    this.dict('pullZoneId', slot, String(e.pullZoneId));
    for (let d = 0; d < TEXT_DICT_FIELDS.length; d++) {
      const f = TEXT_DICT_FIELDS[d]!;
      this.dict(f, slot, e[f]);
    }

    let flags = 0;
    const texts = this.texts;
    // most records have no text aside: setting the length of an empty array is a builtin call each time
    if (texts.length !== 0) texts.length = 0;
    if (!isIsoOf(e.timestamp, time)) {
      flags |= TS_TEXT;
      texts.push(e.timestamp);
    }
    if (e.requestId !== null) {
      if (writeHexId(e.requestId, this.ridBytes, slot * 16)) flags |= RID_BIN;
      else {
        flags |= RID_TEXT;
        texts.push(e.requestId);
      }
    }
    if (e.remoteIp !== null) {
      const v4 = parseIpv4(e.remoteIp);
      if (v4 >= 0) {
        flags |= IP_V4;
        this.ip4[slot] = v4;
      } else flags |= this.otherIp(e.remoteIp);
    }
    if (e.url !== null) {
      if (e.scheme !== null && e.host !== null && e.path !== null && e.url === `${e.scheme}://${e.host}${e.path}`) flags |= URL_BUILT;
      else {
        flags |= URL_TEXT;
        texts.push(e.url);
      }
    }
    if (e.contentRange !== null) {
      flags |= RANGE;
      texts.push(e.contentRange);
    }
    if (e.authorizationHeader !== null) {
      flags |= AUTH;
      texts.push(e.authorizationHeader);
    }
    this.storeBlob(slot, flags);
    return seq;
  }

  /** An IP that is not an IPv4 address: 16 bytes (this.v6) when IPv6 in canonical form, else text (this.texts); its flag. */
  private otherIp(ip: string): number {
    if (writeIpv6(ip, this.v6, 0)) return IP_V6;
    this.texts.push(ip);
    return IP_TEXT;
  }

  /** Sets the record's flags and writes its blob: this.texts in flag order, and this.v6 when IP_V6. */
  private storeBlob(slot: number, flags: number): void {
    const texts = this.texts;
    const v6 = (flags & IP_V6) !== 0;
    this.flags[slot] = flags;
    if (texts.length === 0 && !v6) {
      this.blob[slot] = NO_BLOB;
      return;
    }
    let max = v6 ? 16 : 0;
    for (let i = 0; i < texts.length; i++) max += texts[i]!.length * 3 + 5;
    const r = this.arena.reserve(max);
    const bytes = r.bytes;
    let at = r.at;
    // order: timestamp, request id, IP (text or 16 bytes), URL, content range, authorization
    let k = 0;
    if (flags & TS_TEXT) at = putText(bytes, at, texts[k++]!);
    if (flags & RID_TEXT) at = putText(bytes, at, texts[k++]!);
    if (v6) {
      bytes.set(this.v6, at);
      at += 16;
    } else if (flags & IP_TEXT) at = putText(bytes, at, texts[k++]!);
    if (flags & URL_TEXT) at = putText(bytes, at, texts[k++]!);
    if (flags & RANGE) at = putText(bytes, at, texts[k++]!);
    if (flags & AUTH) at = putText(bytes, at, texts[k++]!);
    this.arena.commit(at - r.at);
    this.blob[slot] = r.ref;
  }

  /**
   * Stores records of a page's batch, record rows[q] in slots[q] for q < n (sequence numbers given
   * in that order), as write() would store batch.entry(rows[q]), from its columns. The dictionary
   * fields are written a column at a time: a value of the page's dictionaries maps to this store's
   * id once (then checked by identity), so no string is hashed per record.
   */
  writeBatch(batch: RecordBatch, rows: Int32Array, slots: Int32Array, n: number): void {
    for (let q = 0; q < n; q++) this.writeScalarsFrom(slots[q]!, batch, rows[q]!);
    const known = this.knownIds(batch.dicts);
    for (let d = 0; d < BATCH_DICTS.length; d++) this.dictColumnFrom(BATCH_DICTS[d]!, TEXT_DICT_FIELDS[d]!, batch, rows, slots, n, known);
  }

  /** Record i of a batch in `slot`: everything but its dictionary fields. */
  private writeScalarsFrom(slot: number, batch: RecordBatch, i: number): void {
    const seq = this.nextSeq;
    this.nextSeq = seq === 0xffffffff ? 1 : seq + 1;
    this.seqs[slot] = seq;
    this.putTime(slot, batch.times[i]!);
    const nums = batch.nums;
    const m = i * NUMBERS;
    const s = nums[m + BatchNumber.statusCode]!;
    if (Number.isInteger(s) && s >= 0 && s < STATUS_BIG) this.status[slot] = s;
    else {
      this.status[slot] = STATUS_BIG;
      this.big.set(slot * 4 + Num.Status, s);
    }
    const bytes = nums[m + BatchNumber.bytesSent]!;
    this.setNum(Num.Bytes, this.bytesSent, slot, bytes);
    const body = nums[m + BatchNumber.bodyBytesSent]!;
    this.setBody(slot, bytes, body === body ? body : null);
    const asn = nums[m + BatchNumber.asn]!;
    this.putAsn(slot, asn === asn ? asn : null);
    this.zoneFrom(slot, nums[m + BatchNumber.pullZoneId]!);

    const codes = batch.codes;
    const c = i * STRINGS;
    let flags = 0;
    const texts = this.texts;
    // most records have no text aside: setting the length of an empty array is a builtin call each time
    if (texts.length !== 0) texts.length = 0;
    if (codes[c + BatchField.timestamp] !== 0) {
      flags |= TS_TEXT;
      texts.push(batch.text(BatchField.timestamp, i)!);
    }
    const rid = codes[c + BatchField.requestId]!;
    if (rid === 0) {
      flags |= RID_BIN;
      const from = batch.ridWords;
      const w = this.ridWords;
      w[slot * 4] = from[i * 4]!;
      w[slot * 4 + 1] = from[i * 4 + 1]!;
      w[slot * 4 + 2] = from[i * 4 + 2]!;
      w[slot * 4 + 3] = from[i * 4 + 3]!;
    } else if (rid !== -1) {
      flags |= RID_TEXT;
      texts.push(batch.text(BatchField.requestId, i)!);
    }
    const ip = codes[c + BatchField.remoteIp]!;
    if (ip === 0) {
      flags |= IP_V4;
      this.ip4[slot] = batch.ip4[i]!;
    } else if (ip === 1) {
      // an IPv6 address the page reader already wrote as 16 bytes (copied by hand: a subarray is an object each time)
      const v6 = this.v6;
      const from = batch.ip6;
      for (let b = 0, o = i * 16; b < 16; b++) v6[b] = from[o + b]!;
      flags |= IP_V6;
    } else if (ip !== -1) flags |= this.otherIp(batch.text(BatchField.remoteIp, i)!);
    const url = codes[c + BatchField.url]!;
    if (url === 0) flags |= URL_BUILT;
    else if (url !== -1) {
      flags |= URL_TEXT;
      texts.push(batch.text(BatchField.url, i)!);
    }
    if (codes[c + BatchField.contentRange] !== -1) {
      flags |= RANGE;
      texts.push(batch.text(BatchField.contentRange, i)!);
    }
    if (codes[c + BatchField.authorizationHeader] !== -1) {
      flags |= AUTH;
      texts.push(batch.text(BatchField.authorizationHeader, i)!);
    }
    this.storeBlob(slot, flags);
  }

  /** This store's ids for a page decoder's dictionary ids, by batch field (0: not known yet). */
  private knownIds(dicts: readonly string[][]): Int32Array[] {
    if (dicts === this.lastDicts) return this.lastKnown;
    let known = this.batchIds.get(dicts);
    if (known === undefined) {
      known = dicts.map(() => new Int32Array(0));
      this.batchIds.set(dicts, known);
    }
    this.lastDicts = dicts;
    this.lastKnown = known;
    return known;
  }

  /** One dictionary field of records rows[q] of a batch into slots[q]. */
  private dictColumnFrom(k: number, f: DictField, batch: RecordBatch, rows: Int32Array, slots: Int32Array, n: number, known: Int32Array[]): void {
    const codes = batch.codes;
    const values = batch.dicts[k]!;
    const dict = this.dicts[f];
    const column = this.idCols[f];
    let ids = known[k]!;
    if (ids.length < values.length) {
      const grown = new Int32Array(Math.max(64, values.length * 2));
      grown.set(ids);
      ids = known[k] = grown;
    }
    for (let q = 0; q < n; q++) {
      const i = rows[q]!;
      const code = codes[i * STRINGS + k]!;
      let id = 0;
      if (code >= 0) {
        id = ids[code]!;
        // an id given back and reused holds another value: then the value is interned again
        if (id !== 0 && dict.value(id) === values[code]) dict.retain(id);
        else {
          id = dict.intern(values[code]!);
          ids[code] = id;
          // the store's own string from now on: the check above is then a comparison of references
          values[code] = dict.value(id)!;
        }
      } else if (code !== -1) id = dict.intern(batch.text(k, i));
      column.set(slots[q]!, id);
    }
  }

  /** The zone id column from a page's number (records of one page are mostly of one zone). */
  private zoneFrom(slot: number, zone: number): void {
    const dict = this.dicts.pullZoneId;
    let id = this.lastZoneId;
    if (zone === this.lastZone && id !== 0 && dict.value(id) === this.lastZoneText) dict.retain(id);
    else {
      id = dict.intern(String(zone));
      this.lastZone = zone;
      this.lastZoneId = id;
      this.lastZoneText = dict.value(id);
    }
    this.idCols.pullZoneId.set(slot, id);
  }

  /** The time of the record being written in `slot` (after its sequence number): one more record held. */
  private putTime(slot: number, time: number): void {
    if (this.held++ === 0 && Number.isFinite(time)) this.timeBase = Math.floor(time);
    this.sinceRebase++;
    if (Number.isInteger(time) && !fitsOffset(time - this.timeBase) && this.sinceRebase >= this.held) this.rebase(time, slot);
    this.setTime(slot, time);
  }

  private putAsn(slot: number, asn: number | null): void {
    this.asnIds.set(slot, this.asns.intern(asn));
  }

  private setTime(slot: number, time: number): void {
    const offset = time - this.timeBase;
    if (Number.isInteger(offset) && fitsOffset(offset)) this.timeOffsets[slot] = offset;
    else {
      this.timeOffsets[slot] = TIME_ASIDE;
      this.timesAside.set(slot, time);
    }
  }

  /**
   * A new base 2^30 ms (12 days) short of `time`, on the side of the records held: every time
   * is written again into a new array (a scan running in a worker keeps reading the old one with
   * the old base, consistent for the records it was given).
   */
  private rebase(time: number, writing: number): void {
    const old = this.timeOffsets;
    const oldBase = this.timeBase;
    const aside = new Map(this.timesAside);
    this.timeBase = time > oldBase ? time - 0x40000000 : time + 0x40000000;
    this.timeOffsets = shared(Int32Array, this.capacity * 4);
    this.timesAside.clear();
    const seqs = this.seqs;
    for (let slot = 0; slot < this.capacity; slot++) {
      if (seqs[slot] === 0 || slot === writing) continue;
      const offset = old[slot]!;
      this.setTime(slot, offset === TIME_ASIDE ? aside.get(slot)! : oldBase + offset);
    }
    this.sinceRebase = 0;
  }

  /** Forgets the record in `slot` (its dictionary values and blob). */
  release(slot: number): void {
    for (const f of DICT_FIELDS) this.dicts[f].release(this.idCols[f].get(slot));
    const ref = this.blob[slot]!;
    if (ref !== NO_BLOB) this.arena.release(ref);
    if (this.bytesSent[slot] === BIG_NUM) this.big.delete(slot * 4 + Num.Bytes);
    if (this.bodyDiff[slot] === BIG_DIFF) this.big.delete(slot * 4 + Num.Body);
    this.asns.release(this.asnIds.get(slot));
    if (this.status[slot] === STATUS_BIG) this.big.delete(slot * 4 + Num.Status);
    if (this.timeOffsets[slot] === TIME_ASIDE) this.timesAside.delete(slot);
    this.held--;
    this.seqs[slot] = 0;
  }

  clear(): void {
    for (const f of DICT_FIELDS) this.dicts[f].clear();
    this.arena.clear();
    this.asns.clear();
    this.big.clear();
    this.timesAside.clear();
    this.held = 0;
    this.seqs.fill(0);
  }

  /** The texts of the blob in order, `upTo` of them at most. */
  private blobTexts(slot: number, upTo: number): { texts: string[]; v6: string | null } {
    const flags = this.flags[slot]!;
    const texts: string[] = [];
    let v6: string | null = null;
    const ref = this.blob[slot]!;
    if (ref === NO_BLOB) return { texts, v6 };
    const { bytes, at: start } = this.arena.locate(ref);
    let at = start;
    const read = () => {
      let n = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++]!;
        n |= (b & 0x7f) << shift;
        if (b < 0x80) break;
        shift += 7;
      }
      texts.push(bytes.toString('utf8', at, at + n));
      at += n;
    };
    const order = [TS_TEXT, RID_TEXT, IP_V6 | IP_TEXT, URL_TEXT, RANGE, AUTH];
    for (const bit of order) {
      if (texts.length >= upTo) break;
      if (!(flags & bit)) continue;
      if (bit === (IP_V6 | IP_TEXT) && flags & IP_V6) {
        v6 = formatIpv6(bytes, at);
        at += 16;
        texts.push(v6);
      } else read();
    }
    return { texts, v6 };
  }

  /** Epoch ms of the record in `slot`. */
  time(slot: number): number {
    const offset = this.timeOffsets[slot]!;
    return offset === TIME_ASIDE ? this.timesAside.get(slot)! : this.timeBase + offset;
  }

  seq(slot: number): number {
    return this.seqs[slot]!;
  }

  statusCode(slot: number): number {
    const s = this.status[slot]!;
    return s === STATUS_BIG ? this.big.get(slot * 4 + Num.Status)! : s;
  }

  bytesSentOf(slot: number): number {
    return this.num(Num.Bytes, this.bytesSent, slot)!;
  }

  /** The autonomous system number (extended logging), null when the record has none. */
  asnOf(slot: number): number | null {
    return this.asns.value(this.asnIds.get(slot));
  }

  value(f: DictField, slot: number): string | null {
    return this.dicts[f].value(this.idCols[f].get(slot));
  }

  path(slot: number): string | null {
    return this.value('path', slot);
  }

  url(slot: number): string | null {
    const flags = this.flags[slot]!;
    if (flags & URL_BUILT) return `${this.value('scheme', slot)}://${this.value('host', slot)}${this.path(slot)}`;
    return flags & URL_TEXT ? this.field(slot, URL_TEXT) : null;
  }

  timestamp(slot: number): string {
    if (!(this.flags[slot]! & TS_TEXT)) return isoOf(this.time(slot));
    return this.field(slot, TS_TEXT)!;
  }

  requestId(slot: number): string | null {
    const flags = this.flags[slot]!;
    if (flags & RID_BIN) return readHexId(this.ridBytes, slot * 16);
    return flags & RID_TEXT ? this.field(slot, RID_TEXT) : null;
  }

  /** Whether the request id is stored as 16 bytes (then ridWords holds it). */
  hasBinaryId(slot: number): boolean {
    return (this.flags[slot]! & RID_BIN) !== 0;
  }

  /** The IPv4 address as a number, or -1 when the IP is not one (or null). */
  ipv4(slot: number): number {
    return this.flags[slot]! & IP_V4 ? this.ip4[slot]! : -1;
  }

  /** An IPv6 address kept as 16 bytes, as a 16-character latin1 string (a compact key); null for any other IP. */
  ipv6Key(slot: number): string | null {
    const flags = this.flags[slot]!;
    if (!(flags & IP_V6)) return null;
    const { bytes, at: start } = this.arena.locate(this.blob[slot]!);
    let at = start;
    // past the texts stored before it (a timestamp, a request id)
    for (let k = (flags & TS_TEXT ? 1 : 0) + (flags & RID_TEXT ? 1 : 0); k > 0; k--) {
      let n = 0;
      let shift = 0;
      for (;;) {
        const b = bytes[at++]!;
        n |= (b & 0x7f) << shift;
        if (b < 0x80) break;
        shift += 7;
      }
      at += n;
    }
    return bytes.toString('latin1', at, at + 16);
  }

  remoteIp(slot: number): string | null {
    const flags = this.flags[slot]!;
    if (flags & IP_V4) return formatIpv4(this.ip4[slot]!);
    if (flags & IP_V6) return this.field(slot, IP_V6);
    return flags & IP_TEXT ? this.field(slot, IP_TEXT) : null;
  }

  /** One text of the blob (by its flag). */
  private field(slot: number, bit: number): string | null {
    const flags = this.flags[slot]!;
    if (!(flags & bit)) return null;
    const order = [TS_TEXT, RID_TEXT, IP_V6 | IP_TEXT, URL_TEXT, RANGE, AUTH];
    let index = 0;
    for (const b of order) {
      if (b & bit) break;
      if (flags & b) index++;
    }
    return this.blobTexts(slot, index + 1).texts[index] ?? null;
  }

  /** The LogEntry stored in `slot`. */
  entry(slot: number): LogEntry {
    const flags = this.flags[slot]!;
    const { texts } = this.blobTexts(slot, 8);
    let k = 0;
    // the fields kept other than in a dictionary, read in the order their texts were stored (store())
    const timestamp = flags & TS_TEXT ? texts[k++]! : isoOf(this.time(slot));
    const requestId = flags & RID_BIN ? readHexId(this.ridBytes, slot * 16) : flags & RID_TEXT ? texts[k++]! : null;
    const remoteIp = flags & IP_V4 ? formatIpv4(this.ip4[slot]!) : flags & (IP_V6 | IP_TEXT) ? texts[k++]! : null;
    const url = flags & URL_BUILT ? `${this.value('scheme', slot)}://${this.value('host', slot)}${this.path(slot)}` : flags & URL_TEXT ? texts[k++]! : null;
    const contentRange = flags & RANGE ? texts[k++]! : null;
    const authorizationHeader = flags & AUTH ? texts[k++]! : null;
    // in OWN_FIELDS' order
    return makeEntry(
      this,
      slot,
      timestamp,
      requestId,
      this.statusCode(slot),
      this.bytesSentOf(slot),
      remoteIp,
      url,
      this.bodyBytesOf(slot),
      contentRange,
      authorizationHeader,
      this.asnOf(slot),
    );
  }

  /** The columns a pattern's scan reads, as they are now (an id column is replaced when it widens). */
  scanColumns(): SharedScanColumns {
    const ids = {} as Record<DictField, Uint8Array | Uint16Array | Uint32Array>;
    for (const f of DICT_FIELDS) ids[f] = this.idCols[f].array;
    return {
      timeOffsets: this.timeOffsets,
      timeBase: this.timeBase,
      seqs: this.seqs,
      flags: this.flags,
      status: this.status,
      ip4: this.ip4,
      rid: this.ridBytes,
      ids,
    };
  }

  /** Bytes held per column (typed arrays at their capacity, the arena's chunks, dictionary texts roughly): for the memory benchmark. */
  memoryBreakdown(): Record<string, number> {
    const out: Record<string, number> = {
      times: this.timeOffsets.byteLength,
      // a slot number and a time in a map entry (about 40 bytes)
      'times kept aside': this.timesAside.size * 40,
      'sequence numbers': this.seqs.byteLength,
      flags: this.flags.byteLength,
      status: this.status.byteLength,
      'bytes sent': this.bytesSent.byteLength,
      'body bytes': this.bodyDiff.byteLength,
      'asn ids': this.capacity * this.asnIds.bytesPerRecord,
      'request ids': this.ridWords.byteLength,
      ipv4: this.ip4.byteLength,
      'arena references': this.blob.byteLength,
      arena: this.arena.bytes,
    };
    // a number and a map entry each
    if (this.asns.size > 0) out[`asn dictionary (${this.asns.size} values)`] = this.asns.size * 40;
    for (const f of DICT_FIELDS) {
      const d = this.dicts[f];
      let text = 0;
      for (const v of d.valuesSnapshot()) if (v !== undefined) text += 2 * v.length + 48;
      out[`${f} ids`] = this.capacity * this.idCols[f].bytesPerRecord;
      // a value is a string and a map entry (about 48 bytes beyond its characters)
      if (d.size > 0) out[`${f} dictionary (${d.size} values)`] = text;
    }
    return out;
  }

  /** The sequence number the next record stored will get. */
  get nextSequence(): number {
    return this.nextSeq;
  }

  /** Bytes held for the records: columns, dictionaries not counted (see memory benchmark). */
  get arenaBytes(): number {
    return this.arena.bytes;
  }
}
