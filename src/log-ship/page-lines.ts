import { LOG_FIELDS } from '../log-fields/fields';
import type { TableForm } from './schema';

/**
 * A v2 page's records as JSONEachRow lines for the table, made from the page's bytes: a record
 * in the platform's layout (`{"timestamp":"2026-08-08T14:32:11.265Z",...`) keeps its bytes, only
 * the timestamp is rewritten (ClickHouse 18.16 reads neither the T nor the Z); anything else is
 * parsed and written again. ClickHouse takes raw JSONEachRow several times faster than rows
 * Node builds as objects, and so does this side.
 */
export interface PageLines {
  /** The lines, each ending in \n. */
  bytes: Buffer;
  /** Start of line i in `bytes`; starts[count] = bytes.length. */
  starts: Int32Array;
  /** Epoch ms of record i. */
  times: Float64Array;
  /** Request id of record i ('' when the record has none); made on first use (most pages never need them). */
  readonly ids: readonly string[];
  /** The request id of record i alone. */
  idAt(i: number): string;
  count: number;
  returned: number;
  hasMore: boolean;
}

const Q = 0x22;
const BS = 0x5c;
const PREFIX = Buffer.from('{"timestamp":"');
const ID_KEY = Buffer.from('"requestId":"');

/**
 * Buffers of pages that were stored, written again by the next pages: memory written for the
 * first time costs a page fault per 4 KiB and new large buffers bring on garbage collections.
 */
const pool: Buffer[] = [];
const POOL_MAX = 4;

function takeBuffer(size: number): Buffer {
  for (let i = 0; i < pool.length; i++) if (pool[i]!.length >= size) return pool.splice(i, 1)[0]!;
  return Buffer.allocUnsafe(size);
}

/** The page's bytes will not be read again (its records are stored): its buffer is reused. */
export function releaseLines(page: PageLines): void {
  const backing = (page as Partial<Lines>).backing;
  if (!backing || pool.length >= POOL_MAX || pool.includes(backing)) return;
  (page as Lines).backing = null;
  pool.push(backing);
}

class LineWriter {
  buf: Buffer;
  len = 0;
  starts: number[] = [];
  times: number[] = [];
  constructor(size: number) {
    this.buf = takeBuffer(Math.max(1024, size));
  }
  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  ascii(s: string): void {
    this.ensure(s.length);
    this.len += this.buf.write(s, this.len, 'latin1');
  }
  utf8(s: string): void {
    this.ensure(Buffer.byteLength(s));
    this.len += this.buf.write(s, this.len, 'utf8');
  }
  copy(src: Buffer, a: number, b: number): void {
    this.ensure(b - a + 1);
    this.buf.set(src.subarray(a, b), this.len);
    this.len += b - a;
  }
}

const digit = (b: Buffer, i: number) => b[i]! - 48;
const isDigit = (b: Buffer, i: number) => b[i]! >= 48 && b[i]! <= 57;

const TIME_DIGITS = Int8Array.from([0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]);

/** `2026-08-08T14:32:11.265Z"` at p: its epoch ms, or NaN when not exactly that form. */
function platformTime(b: Buffer, p: number): number {
  if (p + 25 > b.length) return NaN;
  for (let k = 0; k < TIME_DIGITS.length; k++) if (!isDigit(b, p + TIME_DIGITS[k]!)) return NaN;
  if (b[p + 4] !== 0x2d || b[p + 7] !== 0x2d || b[p + 10] !== 0x54 || b[p + 13] !== 0x3a || b[p + 16] !== 0x3a || b[p + 19] !== 0x2e) return NaN;
  if (b[p + 23] !== 0x5a || b[p + 24] !== Q) return NaN;
  const n2 = (i: number) => digit(b, p + i) * 10 + digit(b, p + i + 1);
  return Date.UTC(n2(0) * 100 + n2(2), n2(5) - 1, n2(8), n2(11), n2(14), n2(17), digit(b, p + 20) * 100 + n2(21));
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

/** The timestamp as the table's form takes it in JSONEachRow (with its leading `{`). */
export function timestampHead(ms: number, form: TableForm): string {
  const d = new Date(ms);
  const text = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  const frac = d.getUTCMilliseconds();
  return form === 'current' ? `{"timestamp":"${text}.${pad(frac, 3)}"` : `{"timestamp":"${text}","timestampMs":${frac}`;
}

/** End of the JSON string whose content starts at p (the index of its closing quote), or -1. */
function stringEnd(b: Buffer, p: number): number {
  for (;;) {
    const qi = b.indexOf(Q, p);
    if (qi < 0) return -1;
    let k = qi - 1;
    while (k >= p && b[k] === BS) k--;
    if ((qi - 1 - k) % 2 === 0) return qi;
    p = qi + 1;
  }
}

/** End (after its `}`) of the JSON object starting at p, or -1. */
function objectEnd(b: Buffer, p: number): number {
  let depth = 0;
  for (let i = p; i < b.length; i++) {
    const c = b[i];
    if (c === Q) {
      const e = stringEnd(b, i + 1);
      if (e < 0) return -1;
      i = e;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Whether `what` is at p (a loop: cheaper than a native call for the few bytes of a key). */
function bytesAt(b: Buffer, what: Buffer, p: number): boolean {
  if (p + what.length > b.length) return false;
  for (let i = 0; i < what.length; i++) if (b[p + i] !== what[i]) return false;
  return true;
}

const skipWs = (b: Buffer, p: number) => {
  while (p < b.length && (b[p] === 0x20 || b[p] === 0x0a || b[p] === 0x0d || b[p] === 0x09)) p++;
  return p;
};

/** A record written again from its parsed value (fields in the table's order, unknown ones dropped). */
function writeParsed(w: LineWriter, rec: unknown, zoneId: number, form: TableForm): void {
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return;
  const r = rec as Record<string, unknown>;
  const t = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : NaN;
  if (!Number.isFinite(t)) return;
  const id = typeof r.requestId === 'string' ? r.requestId : '';
  w.starts.push(w.len);
  w.times.push(t);
  let line = timestampHead(t, form);
  for (const f of LOG_FIELDS) {
    if (f.storeKey === 'time') continue;
    let v = r[f.name];
    if (f.storeKey === 'id') v = id;
    else if (f.storeKey === 'zone') v = typeof v === 'number' ? v : zoneId;
    else if (v === undefined || (f.type === 'number' ? typeof v !== 'number' : typeof v !== 'string')) v = null;
    if (v === null && f.required) v = f.type === 'number' ? 0 : '';
    line += `,${JSON.stringify(f.name)}:${JSON.stringify(v)}`;
  }
  w.utf8(`${line}}\n`);
}

const SEP = Buffer.from('},{"timestamp":"');

/**
 * Reads a v2 200 body. Throws a SyntaxError when it is not a page (the caller retries it as a
 * garbled answer).
 *
 * The platform writes a page's records compact, each starting with its timestamp, so the records
 * are cut at `},{"timestamp":"` (found by the native search, not byte by byte): those bytes cannot
 * be inside a string (a quote there is escaped), and the count is checked against the page's
 * `returned`; a page that does not fit is cut again record by record.
 */
export function pageLines(body: Buffer, zoneId: number, form: TableForm): PageLines {
  const p = skipWs(body, 0);
  const head = Buffer.from('{"data":[');
  if (bytesAt(body, head, p)) {
    const start = skipWs(body, p + head.length);
    const fast = cutRecords(body, start, zoneId, form, true);
    if (fast) return fast;
    return cutRecords(body, start, zoneId, form, false)!;
  }
  const parsed = JSON.parse(body.toString('utf8')) as { data?: unknown } & Envelope;
  if (!Array.isArray(parsed.data)) throw new SyntaxError('the page has no data array');
  const w = new LineWriter(body.length + (body.length >> 4));
  for (const rec of parsed.data) writeParsed(w, rec, zoneId, form);
  return finish(w, parsed);
}

type Envelope = { pagination?: { returned?: unknown; hasMore?: unknown } };

/** The records of `{"data":[` from p on; with `bySeparator`, null when the page is not cut that way. */
function cutRecords(body: Buffer, p: number, zoneId: number, form: TableForm, bySeparator: boolean): PageLines | null {
  const w = new LineWriter(body.length + (body.length >> 5));
  while (p < body.length && body[p] !== 0x5d) {
    let end = bySeparator ? body.indexOf(SEP, p) + 1 : 0;
    if (end <= 0) {
      end = objectEnd(body, p);
      if (end < 0) throw new SyntaxError('a record of the page does not end');
    }
    if (!writeRecord(w, body, p, end, zoneId, form, !bySeparator)) return null;
    p = skipWs(body, end);
    if (body[p] === 0x2c) p = skipWs(body, p + 1);
  }
  const envelope = JSON.parse(`{"data":0${body.toString('utf8', p + 1)}`) as Envelope;
  if (bySeparator && envelope.pagination?.returned !== w.starts.length) return null;
  return finish(w, envelope);
}

function finish(w: LineWriter, envelope: Envelope): PageLines {
  const pag = envelope.pagination;
  if (!pag || typeof pag.hasMore !== 'boolean' || typeof pag.returned !== 'number') throw new SyntaxError('the page has no pagination');
  const count = w.starts.length;
  const starts = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) starts[i] = w.starts[i]!;
  starts[count] = w.len;
  const lines = new Lines(w.buf.subarray(0, w.len), starts, Float64Array.from(w.times), count, pag.returned, pag.hasMore);
  lines.backing = w.buf;
  return lines;
}

class Lines implements PageLines {
  private idList: string[] | null = null;
  /** The whole buffer `bytes` is in, when this page owns it (see releaseLines). */
  backing: Buffer | null = null;
  constructor(
    readonly bytes: Buffer,
    readonly starts: Int32Array,
    readonly times: Float64Array,
    readonly count: number,
    readonly returned: number,
    readonly hasMore: boolean,
  ) {}
  get ids(): readonly string[] {
    if (!this.idList) {
      const ids: string[] = new Array<string>(this.count);
      for (let i = 0; i < this.count; i++) ids[i] = this.idAt(i);
      this.idList = ids;
    }
    return this.idList;
  }
  idAt(i: number): string {
    if (this.idList) return this.idList[i]!;
    return lineId(this.bytes, this.starts[i]!, this.starts[i + 1]!);
  }
}

/** A page made of some lines of others (a page without the records it repeats, the missing ones of a segment). */
export function linesOf(bytes: Buffer, starts: Int32Array, times: Float64Array, returned: number, hasMore: boolean): PageLines {
  return new Lines(bytes, starts, times, times.length, returned, hasMore);
}

/** The request id of the line [a, e) ('' for none). */
function lineId(b: Buffer, a: number, e: number): string {
  const k = b.indexOf(ID_KEY, a);
  if (k >= 0 && k < e) {
    const idStart = k + ID_KEY.length;
    const idEnd = b.indexOf(Q, idStart);
    if (idEnd > 0 && idEnd < e && noBackslash(b, idStart, idEnd)) return b.toString('latin1', idStart, idEnd);
  }
  const rec = JSON.parse(b.toString('utf8', a, e)) as { requestId?: unknown };
  return typeof rec.requestId === 'string' ? rec.requestId : '';
}

/** Writes the record [start, end); false when it is not in the platform's layout and `parse` is not allowed. */
function writeRecord(w: LineWriter, b: Buffer, start: number, end: number, zoneId: number, form: TableForm, parse: boolean): boolean {
  if (bytesAt(b, PREFIX, start)) {
    const tp = start + PREFIX.length;
    const t = platformTime(b, tp);
    const after = tp + 25;
    if (t === t && b[after] === 0x2c && b[end - 1] === 0x7d) {
      const k = b.indexOf(ID_KEY, after);
      if (k > 0 && k < end) {
        w.starts.push(w.len);
        w.times.push(t);
        writeHead(w, b, tp, t, form);
        w.copy(b, after, end);
        w.buf[w.len++] = 0x0a;
        return true;
      }
    }
  }
  if (!parse) return false;
  let rec: unknown;
  try {
    rec = JSON.parse(b.toString('utf8', start, end));
  } catch {
    throw new SyntaxError('a record of the page is not JSON');
  }
  writeParsed(w, rec, zoneId, form);
  return true;
}

function noBackslash(b: Buffer, a: number, e: number): boolean {
  for (let i = a; i < e; i++) if (b[i] === BS || b[i]! >= 0x80) return false;
  return true;
}

const HEAD = Buffer.from('{"timestamp":"');
const MS_KEY = Buffer.from('","timestampMs":');

/** The timestamp at tp (platform form, checked) written as the table's form takes it, from its bytes. */
function writeHead(w: LineWriter, b: Buffer, tp: number, t: number, form: TableForm): void {
  w.ensure(48);
  const o = w.buf;
  let n = w.len;
  // byte loops: a native copy costs more than these few bytes
  for (let i = 0; i < HEAD.length; i++) o[n++] = HEAD[i]!;
  for (let i = tp; i < tp + 19; i++) o[n++] = b[i]!;
  o[n - 9] = 0x20; // the T
  if (form === 'current') {
    for (let i = tp + 19; i < tp + 23; i++) o[n++] = b[i]!; // .mmm
    o[n++] = Q;
  } else {
    for (let i = 0; i < MS_KEY.length; i++) o[n++] = MS_KEY[i]!;
    // the milliseconds as a JSON number: no leading zeros
    const ms = t % 1000;
    if (ms >= 100) o[n++] = 48 + Math.floor(ms / 100);
    if (ms >= 10) o[n++] = 48 + (Math.floor(ms / 10) % 10);
    o[n++] = 48 + (ms % 10);
  }
  w.len = n;
}
