import type { LogEntry } from '../api/logs/entry';

/**
 * The local regex filter of a log view: a pattern compiled once (smart case: case-insensitive
 * unless it has an upper-case letter), tested on the fields a person reads, kept incrementally
 * over a ring buffer (MatchIndex), and shown with context lines like grep -C (contextRows).
 */

export type CompiledPattern =
  | { ok: true; source: string; test: RegExp; all: RegExp; ignoreCase: boolean }
  | { ok: false; source: string; message: string };

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

/** Compiles a user's pattern; an invalid one comes back as a message saying what is wrong. */
export function compilePattern(source: string): CompiledPattern {
  if (source.trim() === '') return { ok: false, source, message: 'empty pattern' };
  const ignoreCase = !hasUpper(source);
  const flags = ignoreCase ? 'i' : '';
  try {
    const test = new RegExp(source, flags);
    const all = new RegExp(source, `${flags}g`);
    if (test.test('')) return { ok: false, source, message: `"${source}" matches an empty text, so it would match every record; make it more specific` };
    return { ok: true, source, test, all, ignoreCase };
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
    return { ok: false, source, message: `invalid regular expression "${source}": ${why} (JavaScript syntax, e.g. 5\\d\\d|timeout)` };
  }
}

/**
 * The texts of a record the pattern is tried on, in this order: time, status, cache status,
 * host + path, country, edge, IP, user agent, referer, request id.
 */
export function searchFields(e: LogEntry): (string | null)[] {
  return [
    e.timestamp,
    String(e.statusCode),
    e.cacheStatus,
    e.host !== null && e.path !== null ? e.host + e.path : e.url ?? e.path,
    e.countryCode,
    e.edgeLocation,
    e.remoteIp,
    e.userAgent,
    e.referer,
    e.requestId,
  ];
}

/** A record test for a compiled pattern: any field matches. */
export function recordTest(p: Extract<CompiledPattern, { ok: true }>): (e: LogEntry) => boolean {
  const re = p.test;
  return (e) => {
    if (re.test(e.timestamp) || re.test(String(e.statusCode))) return true;
    if (e.cacheStatus !== null && re.test(e.cacheStatus)) return true;
    if (e.host !== null && e.path !== null) {
      if (re.test(e.host + e.path)) return true;
    } else if ((e.url ?? e.path) !== null && re.test((e.url ?? e.path)!)) return true;
    return (
      (e.countryCode !== null && re.test(e.countryCode)) ||
      (e.edgeLocation !== null && re.test(e.edgeLocation)) ||
      (e.remoteIp !== null && re.test(e.remoteIp)) ||
      (e.userAgent !== null && re.test(e.userAgent)) ||
      (e.referer !== null && re.test(e.referer)) ||
      (e.requestId !== null && re.test(e.requestId))
    );
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

/** What MatchIndex needs from the ring buffer (LogBuffer has it). */
export interface OrderedSource {
  readonly length: number;
  get(index: number): LogEntry | undefined;
  time(index: number): number;
  lowerBound(t: number): number;
}

/** The position of `entry` (with time `t`) in an ordered source, or -1 when it is not there. */
export function locate(source: OrderedSource, entry: LogEntry, t: number): number {
  for (let i = source.lowerBound(t); i < source.length && source.time(i) === t; i++) {
    if (source.get(i) === entry) return i;
  }
  return -1;
}

/**
 * The records of a ring buffer that pass a test, in the buffer's order, kept incrementally:
 * add() gets each batch of new records, remove() the records the buffer let go (always its
 * oldest). rebuild() scans the whole buffer once (a new pattern).
 */
export class MatchIndex {
  private entries: LogEntry[] = [];
  private times: number[] = [];
  private start = 0;
  /** Evicted matches before `start` (the rest of the space before it is room to prepend). */
  private dead = 0;
  private versionCounter = 0;

  constructor(readonly test: (e: LogEntry) => boolean) {}

  get length(): number {
    return this.entries.length - this.start;
  }

  get version(): number {
    return this.versionCounter;
  }

  entry(i: number): LogEntry | undefined {
    return this.entries[this.start + i];
  }

  time(i: number): number {
    const t = this.times[this.start + i];
    return t === undefined ? Number.NaN : t;
  }

  /** First match whose time is >= t. */
  lowerBound(t: number): number {
    let lo = this.start;
    let hi = this.entries.length;
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
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.start;
  }

  /** Position of a record among the matches, or -1. */
  indexOf(entry: LogEntry, t: number): number {
    for (let i = this.lowerBound(t); i < this.length && this.time(i) === t; i++) if (this.entry(i) === entry) return i;
    return -1;
  }

  rebuild(source: OrderedSource): void {
    this.entries = [];
    this.times = [];
    this.start = 0;
    this.dead = 0;
    for (let i = 0; i < source.length; i++) {
      const e = source.get(i)!;
      if (this.test(e)) {
        this.entries.push(e);
        this.times.push(source.time(i));
      }
    }
    this.versionCounter++;
  }

  /**
   * Matches found by scanning a stretch of the buffer (in the buffer's order), put among the
   * ones held. Held matches at the same times (records that arrived meanwhile) keep the buffer's
   * order: ties are settled by the records' positions in `source`.
   */
  merge(batch: readonly LogEntry[], times: ArrayLike<number>, source: OrderedSource): void {
    const k = batch.length;
    if (k === 0) return;
    const from = this.start + this.lowerBound(times[0]!);
    const to = this.start + this.upperBound(times[k - 1]!);
    if (to === this.start) {
      // older than every match held (a scan going back): into the room before them, made
      // twice as big as needed when short, so a scan's chunks do not copy the index each time
      if (this.start < k) {
        const len = this.entries.length - this.start;
        const room = k + Math.max(1024, len);
        const entries: LogEntry[] = new Array<LogEntry>(room + len);
        const held: number[] = new Array<number>(room + len);
        for (let x = 0; x < len; x++) {
          entries[room + x] = this.entries[this.start + x]!;
          held[room + x] = this.times[this.start + x]!;
        }
        this.entries = entries;
        this.times = held;
        this.start = room;
        this.dead = 0;
      }
      this.start -= k;
      for (let x = 0; x < k; x++) {
        this.entries[this.start + x] = batch[x]!;
        this.times[this.start + x] = times[x]!;
      }
      this.versionCounter++;
      return;
    }
    const outE: LogEntry[] = [];
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
        held = ti < tj || (ti === tj && locate(source, this.entries[i]!, ti) < locate(source, batch[j]!, tj));
      }
      if (held) {
        outE.push(this.entries[i]!);
        outT.push(this.times[i++]!);
      } else {
        outE.push(batch[j]!);
        outT.push(times[j++]!);
      }
    }
    if (from === this.entries.length) {
      for (let x = 0; x < outE.length; x++) {
        this.entries.push(outE[x]!);
        this.times.push(outT[x]!);
      }
    } else if (outE.length < 20_000) {
      // in place: only what follows moves (a scan going forward meets a few new records there)
      this.entries.splice(from, to - from, ...outE);
      this.times.splice(from, to - from, ...outT);
    } else {
      this.entries = this.entries.slice(0, from).concat(outE, this.entries.slice(to));
      this.times = this.times.slice(0, from).concat(outT, this.times.slice(to));
    }
    this.versionCounter++;
  }

  /**
   * New records, oldest first (as the follow engine hands them). A record at the same time as
   * held ones goes after them, as the buffer puts it.
   */
  add(batch: readonly LogEntry[], times: ArrayLike<number>): number {
    let added = 0;
    for (let i = 0; i < batch.length; i++) {
      const e = batch[i]!;
      if (!this.test(e)) continue;
      const t = times[i]!;
      const n = this.entries.length;
      if (n === this.start || this.times[n - 1]! <= t) {
        this.entries.push(e);
        this.times.push(t);
      } else {
        const at = this.start + this.upperBound(t);
        this.entries.splice(at, 0, e);
        this.times.splice(at, 0, t);
      }
      added++;
    }
    if (added) this.versionCounter++;
    return added;
  }

  /** Records the buffer let go. They are its oldest, so they sit at the front here. */
  remove(gone: ReadonlySet<LogEntry>): number {
    let removed = 0;
    while (this.start < this.entries.length && gone.has(this.entries[this.start]!)) {
      this.start++;
      this.dead++;
      removed++;
    }
    // Equal-time neighbours can interleave: look a little further for stragglers.
    if (gone.size > removed) {
      for (let i = this.start; i < this.entries.length && i < this.start + gone.size; i++) {
        if (gone.has(this.entries[i]!)) {
          this.entries.splice(i, 1);
          this.times.splice(i, 1);
          i--;
          removed++;
        }
      }
    }
    if (this.dead > 4096 && this.dead * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.times = this.times.slice(this.start);
      this.start = 0;
      this.dead = 0;
    }
    if (removed) this.versionCounter++;
    return removed;
  }

  clear(): void {
    this.entries = [];
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
