import type { LogEntry } from '../api/logs/entry';
import { formatIpv4 } from '../log-engine/columns/codecs';
import type { DictField, RecordColumns } from '../log-engine/columns/record-columns';
import { fieldGetter, LOG_FIELDS } from '../log-fields/fields';
import { lineOf, matchesLine, mayCrossFields } from './record-line';
import { LinearRegExp, UnsupportedPatternError } from './linear-regexp';

/**
 * The local regex filter of a log view: a pattern compiled once (smart case: case-insensitive
 * unless it has an upper-case letter), tested on the fields a person reads and on the record's
 * whole line (record-line.ts), kept incrementally
 * over a ring buffer (MatchIndex), and shown with context lines like grep -C (contextRows).
 * Matching is linear in the text (LinearRegExp, RE2): the texts are chosen by strangers.
 */

export type CompiledPattern = { ok: true; source: string; test: RegExp; all: RegExp; ignoreCase: boolean } | { ok: false; source: string; message: string };

/** Upper-case letters outside escapes (\S, \W, \D, \B... do not count) make the pattern case-sensitive. */
function hasUpper(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== c.toLowerCase()) return true;
  }
  return false;
}

/** The longest pattern taken (`/`, and a rule's `~` value): a longer one is refused, not compiled. */
export const MAX_PATTERN_LENGTH = 1_000;

/** Compiles a user's pattern; an invalid one comes back as a message saying what is wrong. */
export function compilePattern(source: string): CompiledPattern {
  if (source.trim() === '') return { ok: false, source, message: 'empty pattern' };
  if (source.length > MAX_PATTERN_LENGTH) {
    return {
      ok: false,
      source,
      message: `a pattern is at most ${MAX_PATTERN_LENGTH.toLocaleString('en-US')} characters, this one has ${source.length.toLocaleString('en-US')}`,
    };
  }
  const ignoreCase = !hasUpper(source);
  const flags = ignoreCase ? 'i' : '';
  try {
    const test = new LinearRegExp(source, flags);
    const all = new LinearRegExp(source, `${flags}g`);
    if (test.test('')) return { ok: false, source, message: `"${source}" matches an empty text, so it would match every record; make it more specific` };
    return { ok: true, source, test, all, ignoreCase };
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return { ok: false, source, message: `"${source}": ${error.message}` };
    const why = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
    return { ok: false, source, message: `invalid regular expression "${source}": ${why} (JavaScript syntax, e.g. 5\\d\\d|timeout)` };
  }
}

type LineField = Extract<(typeof LOG_FIELDS)[number], { line: number }>;

/** The fields the pattern is tried on, in the order of the record's line (the field table's `line`). */
const LINE_FIELDS: readonly LineField[] = LOG_FIELDS.filter((f): f is LineField => f.line !== null).sort((a, b) => a.line - b.line);

/** The url as the pattern sees it: host + path when the record has both. */
export const urlText = (e: LogEntry): string | null => (e.host !== null && e.path !== null ? e.host + e.path : (e.url ?? e.path));

const TEXTS: readonly ((e: LogEntry) => string | null)[] = LINE_FIELDS.map((f) => {
  if (f.storage === 'derived') return urlText;
  const read = fieldGetter(f.name);
  return (e) => {
    const v = read(e);
    return v === null ? null : String(v);
  };
});

/**
 * The texts of a record the pattern is tried on, in the line's order (status, cache status,
 * host + path, country, edge, IP, user agent, referer, request id; the time is not one of them).
 * Joined by lineOf they are the record's whole line.
 */
export function searchFields(e: LogEntry): (string | null)[] {
  return TEXTS.map((text) => text(e));
}

/** A record test for a compiled pattern: any field matches, or the record's whole line does. */
export function recordTest(p: Extract<CompiledPattern, { ok: true }>): (e: LogEntry) => boolean {
  const byField = fieldTest(p);
  if (!mayCrossFields(p.source)) return byField;
  return (e) => byField(e) || matchesLine(p.test, lineOf(searchFields(e)));
}

function fieldTest(p: Extract<CompiledPattern, { ok: true }>): (e: LogEntry) => boolean {
  const re = p.test;
  return (e) => {
    for (let i = 0; i < TEXTS.length; i++) {
      const v = TEXTS[i]!(e);
      if (v !== null && re.test(v)) return true;
    }
    return false;
  };
}

/** [start, end) ranges of the pattern's matches in a text (empty matches skipped). */
export function matchRanges(all: RegExp, text: string): [number, number][] {
  const out: [number, number][] = [];
  all.lastIndex = 0;
  for (let m = all.exec(text); m !== null; m = all.exec(text)) {
    if (m[0].length === 0) {
      all.lastIndex++;
      continue;
    }
    out.push([m.index, m.index + m[0].length]);
    if (out.length > 64) break;
  }
  all.lastIndex = 0;
  return out;
}

/** What MatchIndex and MatchScan need from the ordered store (LogBuffer has it). */
export interface OrderedSource {
  readonly length: number;
  time(index: number): number;
  lowerBound(t: number): number;
  slotAt(index: number): number;
  seqAt(index: number): number;
  indexOfSeq(seq: number, t: number): number;
}

/** The position of the record with sequence number `seq` (time `t`) in an ordered source, or -1 when it is gone. */
export function locate(source: OrderedSource, seq: number, t: number): number {
  return source.indexOfSeq(seq, t);
}

/**
 * A compiled pattern as a test on a stored record (by slot), with the semantics of recordTest:
 * any of the same fields matches, or the record's whole line does. A field held in a dictionary is tried once per distinct value
 * (remembered by id, re-tried when the id is given to another value), so only the per-record
 * texts (time, host + path, IP, request id) cost a regular-expression run per record.
 */
export function columnTest(p: Extract<CompiledPattern, { ok: true }>, cols: RecordColumns): (slot: number) => boolean {
  const byField = columnFieldTest(p, cols);
  if (!mayCrossFields(p.source)) return byField;
  return (slot) => byField(slot) || matchesLine(p.test, columnLine(cols, slot));
}

/** Line fields read from the store by a method of their own name (a number, an address, an id). */
type SlotRead = Extract<LineField, { storage: 'number' | 'address' | 'id' }>['name'];

/** A stored record's url as the pattern sees it (urlText). */
function slotUrlText(cols: RecordColumns, slot: number): string | null {
  const host = cols.value('host', slot);
  const path = cols.path(slot);
  return host !== null && path !== null ? host + path : (cols.url(slot) ?? path);
}

const SLOT_TEXTS: readonly ((cols: RecordColumns, slot: number) => string | null)[] = LINE_FIELDS.map((f) => {
  if (f.storage === 'derived') return slotUrlText;
  if (f.storage === 'dictionary') {
    const name = f.name;
    return (cols, slot) => cols.value(name, slot);
  }
  const name: SlotRead = f.name;
  if (f.storage === 'address') {
    return (cols, slot) => {
      const v4 = cols.ipv4(slot);
      return v4 >= 0 ? formatIpv4(v4) : (cols[name](slot) as string | null);
    };
  }
  return (cols, slot) => {
    const v = cols[name](slot);
    return v === null ? null : String(v);
  };
});

/** A stored record's whole line (see record-line.ts). */
export function columnLine(cols: RecordColumns, slot: number): string {
  return lineOf(SLOT_TEXTS.map((text) => text(cols, slot)));
}

/** The order the fields are tried in on a stored record: the cheapest first (a remembered answer per value). */
const TRY_ORDER: Record<LineField['storage'], number> = { number: 0, dictionary: 1, derived: 2, address: 3, id: 4 };

function columnFieldTest(p: Extract<CompiledPattern, { ok: true }>, cols: RecordColumns): (slot: number) => boolean {
  const re = p.test;
  const tests = [...LINE_FIELDS]
    .sort((a, b) => TRY_ORDER[a.storage] - TRY_ORDER[b.storage])
    .map((f): ((slot: number) => boolean) => {
      if (f.storage === 'dictionary') return dictionaryTest(re, cols, f.name);
      if (f.storage === 'derived') return urlTest(re, cols);
      const name: SlotRead = f.name;
      if (f.storage === 'address') return addressTest(re, cols, name);
      if (f.storage === 'number') {
        // few distinct values (status codes): each tried once
        const hits = new Map<number, boolean>();
        return (slot) => {
          const v = cols[name](slot) as number;
          let hit = hits.get(v);
          if (hit === undefined) {
            hit = re.test(String(v));
            hits.set(v, hit);
          }
          return hit;
        };
      }
      return (slot) => {
        const v = cols[name](slot);
        return v !== null && re.test(String(v));
      };
    });
  return (slot) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(slot)) return true;
    return false;
  };
}

/** A field held in a dictionary: tried once per distinct value (remembered by id, compared by value). */
function dictionaryTest(re: RegExp, cols: RecordColumns, f: DictField): (slot: number) => boolean {
  const dict = cols.dicts[f];
  const ids = cols.idCols[f];
  const tried: (string | undefined)[] = [];
  const hit: boolean[] = [];
  return (slot) => {
    const id = ids.get(slot);
    if (id === 0) return false;
    const v = dict.value(id)!;
    if (tried[id] !== v) {
      tried[id] = v;
      hit[id] = re.test(v);
    }
    return hit[id]!;
  };
}

/** host + path, tried once per distinct path (again when it comes with another host); else the url as stored. */
function urlTest(re: RegExp, cols: RecordColumns): (slot: number) => boolean {
  const pathIds = cols.idCols.path;
  const hostIds = cols.idCols.host;
  const pathTried: (string | undefined)[] = [];
  const pathHost: (string | undefined)[] = [];
  const pathHit: boolean[] = [];
  return (slot) => {
    const pid = pathIds.get(slot);
    const hid = hostIds.get(slot);
    if (pid !== 0 && hid !== 0) {
      const path = cols.dicts.path.value(pid)!;
      const host = cols.dicts.host.value(hid)!;
      // compared by value: an evicted host's dictionary id can come back holding another host
      if (pathTried[pid] !== path || pathHost[pid] !== host) {
        pathTried[pid] = path;
        pathHost[pid] = host;
        pathHit[pid] = re.test(host + path);
      }
      return pathHit[pid]!;
    }
    const where = cols.url(slot) ?? cols.path(slot);
    return where !== null && re.test(where);
  };
}

/** An address: an IPv4 one tried once (clients come back; the memo starts over past a million). */
function addressTest(re: RegExp, cols: RecordColumns, name: SlotRead): (slot: number) => boolean {
  const ipHit = new Map<number, boolean>();
  return (slot) => {
    const v4 = cols.ipv4(slot);
    if (v4 >= 0) {
      let hit = ipHit.get(v4);
      if (hit === undefined) {
        if (ipHit.size >= 1_000_000) ipHit.clear();
        hit = re.test(formatIpv4(v4));
        ipHit.set(v4, hit);
      }
      return hit;
    }
    const ip = cols[name](slot) as string | null;
    return ip !== null && re.test(ip);
  };
}

/**
 * The records of the store that pass a test, in the store's order, by sequence number and time,
 * kept incrementally: add() gets each batch of new records, remove() each record the store lets
 * go (always its oldest). rebuild() scans the whole store once (a new pattern).
 */
export class MatchIndex {
  private seqs: number[] = [];
  private times: number[] = [];
  private start = 0;
  /** Evicted matches before `start` (the rest of the space before it is room to prepend). */
  private dead = 0;
  private versionCounter = 0;

  constructor(readonly test: (slot: number) => boolean) {}

  get length(): number {
    return this.seqs.length - this.start;
  }

  get version(): number {
    return this.versionCounter;
  }

  /** Sequence number of match i (0 when out of range). */
  seq(i: number): number {
    return this.seqs[this.start + i] ?? 0;
  }

  time(i: number): number {
    const t = this.times[this.start + i];
    return t === undefined ? Number.NaN : t;
  }

  /** First match whose time is >= t. */
  lowerBound(t: number): number {
    let lo = this.start;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.start;
  }

  /** First match whose time is > t. */
  upperBound(t: number): number {
    let lo = this.start;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.start;
  }

  /** Position of a record among the matches, or -1. */
  indexOf(seq: number, t: number): number {
    for (let i = this.lowerBound(t); i < this.length && this.time(i) === t; i++) if (this.seq(i) === seq) return i;
    return -1;
  }

  rebuild(source: OrderedSource): void {
    this.seqs = [];
    this.times = [];
    this.start = 0;
    this.dead = 0;
    for (let i = 0; i < source.length; i++) {
      if (this.test(source.slotAt(i))) {
        this.seqs.push(source.seqAt(i));
        this.times.push(source.time(i));
      }
    }
    this.versionCounter++;
  }

  /**
   * Matches found by scanning a stretch of the store (in its order), put among the ones held.
   * Held matches at the same times (records that arrived meanwhile) keep the store's order: ties
   * are settled by the records' positions in `source`.
   */
  merge(batch: readonly number[], times: ArrayLike<number>, source: OrderedSource): void {
    const k = batch.length;
    if (k === 0) return;
    const from = this.start + this.lowerBound(times[0]!);
    const to = this.start + this.upperBound(times[k - 1]!);
    if (to === this.start) {
      // older than every match held (a scan going back): into the room before them, made
      // twice as big as needed when short, so a scan's chunks do not copy the index each time
      if (this.start < k) {
        const len = this.seqs.length - this.start;
        const room = k + Math.max(1024, len);
        const seqs: number[] = new Array<number>(room + len);
        const held: number[] = new Array<number>(room + len);
        for (let x = 0; x < len; x++) {
          seqs[room + x] = this.seqs[this.start + x]!;
          held[room + x] = this.times[this.start + x]!;
        }
        this.seqs = seqs;
        this.times = held;
        this.start = room;
        this.dead = 0;
      }
      this.start -= k;
      for (let x = 0; x < k; x++) {
        this.seqs[this.start + x] = batch[x]!;
        this.times[this.start + x] = times[x]!;
      }
      this.versionCounter++;
      return;
    }
    const outS: number[] = [];
    const outT: number[] = [];
    let i = from;
    let j = 0;
    while (i < to || j < k) {
      let held: boolean;
      if (j >= k) held = true;
      else if (i >= to) held = false;
      else {
        const ti = this.times[i]!;
        const tj = times[j]!;
        held = ti < tj || (ti === tj && source.indexOfSeq(this.seqs[i]!, ti) < source.indexOfSeq(batch[j]!, tj));
      }
      if (held) {
        outS.push(this.seqs[i]!);
        outT.push(this.times[i++]!);
      } else {
        outS.push(batch[j]!);
        outT.push(times[j++]!);
      }
    }
    if (from === this.seqs.length) {
      for (let x = 0; x < outS.length; x++) {
        this.seqs.push(outS[x]!);
        this.times.push(outT[x]!);
      }
    } else if (outS.length < 20_000) {
      // in place: only what follows moves (a scan going forward meets a few new records there)
      this.seqs.splice(from, to - from, ...outS);
      this.times.splice(from, to - from, ...outT);
    } else {
      this.seqs = this.seqs.slice(0, from).concat(outS, this.seqs.slice(to));
      this.times = this.times.slice(0, from).concat(outT, this.times.slice(to));
    }
    this.versionCounter++;
  }

  /**
   * New records (slots of `cols`), oldest first, as the store reports them. A record at the same
   * time as held ones goes after them, as the store puts it.
   */
  add(slots: readonly number[], cols: RecordColumns): number {
    let added = 0;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (!this.test(slot)) continue;
      const t = cols.time(slot);
      const seq = cols.seq(slot);
      const n = this.seqs.length;
      if (n === this.start || this.times[n - 1]! <= t) {
        this.seqs.push(seq);
        this.times.push(t);
      } else {
        const at = this.start + this.upperBound(t);
        this.seqs.splice(at, 0, seq);
        this.times.splice(at, 0, t);
      }
      added++;
    }
    if (added) this.versionCounter++;
    return added;
  }

  /** A record the store let go. It is among its oldest, so it sits at (or near) the front here. */
  remove(seq: number, t: number): boolean {
    let removed = false;
    if (this.start < this.seqs.length && this.seqs[this.start] === seq) {
      this.start++;
      this.dead++;
      removed = true;
    } else {
      // equal-time neighbours can interleave: look among the matches up to its time
      for (let i = this.start; i < this.seqs.length && this.times[i]! <= t; i++) {
        if (this.seqs[i] === seq) {
          this.seqs.splice(i, 1);
          this.times.splice(i, 1);
          removed = true;
          break;
        }
      }
    }
    if (this.dead > 4096 && this.dead * 2 > this.seqs.length) {
      this.seqs = this.seqs.slice(this.start);
      this.times = this.times.slice(this.start);
      this.start = 0;
      this.dead = 0;
    }
    if (removed) this.versionCounter++;
    return removed;
  }

  clear(): void {
    this.seqs = [];
    this.times = [];
    this.start = 0;
    this.dead = 0;
    this.versionCounter++;
  }
}

/** A separator between groups of context lines (like grep's "--"). */
export const SEPARATOR = -1;

/**
 * The rows to show for matches at sorted buffer positions `matches` with `context` records
 * before and after each (grep -C): buffer positions, overlapping groups merged, SEPARATOR
 * between groups that do not touch. O(rows), never O(buffer).
 */
export function contextRows(matches: ArrayLike<number>, total: number, context: number): Int32Array {
  const c = Math.max(0, Math.floor(context));
  const out: number[] = [];
  let end = -1; // last position written
  for (let k = 0; k < matches.length; k++) {
    const p = matches[k]!;
    if (p < 0 || p >= total) continue;
    const from = Math.max(0, p - c, end + 1);
    const to = Math.min(total - 1, p + c);
    if (from > to) continue;
    if (end >= 0 && from > end + 1) out.push(SEPARATOR);
    for (let i = from; i <= to; i++) out.push(i);
    end = to;
  }
  return Int32Array.from(out);
}
