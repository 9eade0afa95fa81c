import { LogBuffer } from '../../log-engine/buffer';
import type { LogEntry } from '../../api/logs/entry';
import { columnTest, contextRows, locate, MatchIndex, SEPARATOR, type CompiledPattern } from '../../log-records/filter';
import { sharedScanWorkers } from '../../log-records/scan-worker';
import { LogStats } from '../../log-records/stats';
import { MatchScan } from './match-scan';

/** A buffer this small is matched at once; a bigger one in slices (MatchScan). */
const SCAN_AT_ONCE = 4000;
/** From this many records a pattern's scan runs in a worker thread (starting one costs tens of ms). */
const SCAN_IN_WORKER = 50_000;
/** Main-thread time per slice of a scan, and the most a frame spends filling the screen. */
const SLICE_MS = 4;
const FILL_MS = 6;

/**
 * What the log stream shows, outside React: the columnar store, the incremental statistics and
 * local-filter index over it, and the mapping from view positions (rows on screen, counting
 * filtered rows and context separators) to stored records. Records are known by sequence number;
 * only the visible window is ever built as objects, so a frame costs the same with 100 or
 * 2,000,000 records.
 */

export type LocalMode = 'filter' | 'highlight';
type Pattern = Extract<CompiledPattern, { ok: true }>;

export interface ViewRow {
  /** Position in the view. */
  pos: number;
  /** Null for a separator between groups of context lines. */
  entry: LogEntry | null;
  /** The record's sequence number in the store (0 for a separator). */
  seq: number;
  /** Matches the local pattern (false when there is none). */
  match: boolean;
  /** Terminal lines the row takes. */
  lines: number;
}

export interface WindowRequest {
  following: boolean;
  /** The selected record while not following (kept in place as records come and go). */
  anchor: { seq: number; time: number } | null;
  /** Where the anchor was, in rows from the top of the window. */
  anchorRow: number;
  /** Selected position to use when there is no anchor. */
  fallback: number;
  height: number;
  lines: (e: LogEntry) => number;
}

/** What an export writes: `records()` builds them as they are written (again for a second try). */
export interface ExportSnapshot {
  count: number;
  records: () => Iterable<LogEntry>;
  /** Records evicted before the writer reached them (in the last run of `records()`). */
  missed: number;
}

export interface RecordTap {
  /** Records stored: `entries` builds them (only called by a tap that needs them), `times` theirs. */
  add(entries: () => readonly LogEntry[], times: ArrayLike<number>): void;
  reset(): void;
}

export interface ViewWindow {
  rows: ViewRow[];
  total: number;
  selected: number;
  offset: number;
}

export class LogsViewModel {
  buffer: LogBuffer;
  readonly stats = new LogStats();
  private pattern: Pattern | null = null;
  private test: ((slot: number) => boolean) | null = null;
  private newMatches = 0;
  private index: MatchIndex | null = null;
  private modeValue: LocalMode = 'filter';
  private contextValue = 0;
  private rows: Int32Array | null = null;
  private rowsKey = '';
  private scan: MatchScan | null = null;
  private detach: () => void = () => {};
  /** Records the buffers let go, ever (the store counts them while paused). */
  evicted = 0;
  /** Called when a slice of a pattern's scan found more (the view and the count change). */
  onScanProgress: (() => void) | null = null;
  /** Told of every record stored and of every reset (the alert rules count from it). */
  tap: RecordTap | null = null;

  constructor(capacity: number) {
    this.buffer = new LogBuffer(capacity);
    this.watch();
  }

  /** A fresh, empty buffer (a new query): statistics and matches start over. */
  reset(capacity = this.buffer.capacity): void {
    this.detach();
    this.buffer = new LogBuffer(capacity);
    if (this.pattern) {
      this.test = columnTest(this.pattern, this.buffer.columns);
      this.index = new MatchIndex(this.test);
    }
    this.stats.clear();
    this.tap?.reset();
    this.stopScan();
    this.index?.clear();
    this.rows = null;
    this.watch();
  }

  private watch(): void {
    const buffer = this.buffer;
    const cols = buffer.columns;
    const one = [0];
    const offEvicted = buffer.onEvicted((slot, time) => {
      one[0] = slot;
      this.stats.applySlots(cols, one, -1);
      this.evicted++;
      this.index?.remove(cols.seq(slot), time);
    });
    const offAdded = buffer.onAdded((slots, times) => {
      this.stats.applySlots(cols, slots, 1);
      this.tap?.add(() => slots.map((slot) => cols.entry(slot)), times);
      if (this.index) this.newMatches += this.index.add(slots, cols);
    });
    this.detach = () => {
      offEvicted();
      offAdded();
    };
  }

  /** The records held from time `from` on, oldest first: at most the newest `max` of them. */
  recordsFrom(from: number, max: number): { entries: LogEntry[]; times: number[] } {
    const b = this.buffer;
    const start = Math.max(b.lowerBound(from), b.length - max, 0);
    const entries: LogEntry[] = [];
    const times: number[] = [];
    for (let i = start; i < b.length; i++) {
      entries.push(b.get(i)!);
      times.push(b.time(i));
    }
    return { entries, times };
  }

  /** Matches among the records stored since the last call (the store counts them while paused). */
  takeNewMatches(): number {
    const n = this.newMatches;
    this.newMatches = 0;
    return n;
  }

  /** Inserts records into the store (v1 files); statistics and matches follow through its listeners. */
  load(entries: readonly LogEntry[], times: ArrayLike<number>): number {
    return this.buffer.insert(entries, times);
  }

  get mode(): LocalMode {
    return this.modeValue;
  }

  get context(): number {
    return this.contextValue;
  }

  get patternSource(): string | null {
    return this.pattern?.source ?? null;
  }

  get highlight(): RegExp | null {
    return this.pattern?.all ?? null;
  }

  /** Matches known so far (all of them unless counting). */
  get matches(): number {
    return this.index?.length ?? 0;
  }

  /** How far the pattern's scan is, 0..1 (1 when there is none). */
  get progress(): number {
    const scan = this.scan;
    if (!scan || scan.done) return 1;
    return scan.total === 0 ? 1 : Math.min(1, scan.tested / scan.total);
  }

  /** The pattern's scan of the records held when it was set is still going. */
  get counting(): boolean {
    return this.scan !== null && !this.scan.done;
  }

  /**
   * A new pattern (or none). A small buffer is matched at once; a big one from `start` (the time
   * of the record on screen; null: the newest end) outward, a slice at a time, so the frame for
   * the key that set it costs what the screen needs.
   */
  setPattern(p: Pattern | null, start: number | null = null): void {
    this.stopScan();
    this.pattern = p;
    this.rows = null;
    if (!p) {
      this.test = null;
      this.index = null;
      return;
    }
    this.test = columnTest(p, this.buffer.columns);
    this.index = new MatchIndex(this.test);
    if (this.buffer.length <= SCAN_AT_ONCE) {
      this.index.rebuild(this.buffer);
      return;
    }
    const scan = new MatchScan(this.buffer, this.index, start);
    this.scan = scan;
    const progress = () => {
      if (this.scan !== scan) return;
      if (scan.done) this.scan = null;
      this.onScanProgress?.();
    };
    // a big buffer is scanned by a worker thread over the shared columns; the screen's matches here
    const workers = this.buffer.length >= SCAN_IN_WORKER ? sharedScanWorkers().filter((w) => w.available) : [];
    if (workers.length > 0) scan.runInWorker(workers, this.buffer, p.test, SLICE_MS, progress);
    else scan.run(SLICE_MS, progress);
  }

  /** Ends a pattern's scan now (an export, a count that must be whole). */
  finishScan(): void {
    if (!this.scan) return;
    this.scan.finish();
    this.stopScan();
  }

  private stopScan(): void {
    this.scan?.cancel();
    this.scan = null;
  }

  /** Index positions of the matches the filtered view shows: all, or while counting the final ones. */
  private range(): { from: number; to: number } {
    if (this.scan && !this.scan.done) return this.scan.region();
    return { from: 0, to: this.index!.length };
  }

  /**
   * While counting, makes the matches around the view known first: around `t` (the selected
   * record) or, following, the newest. Bounded in time; later slices fill in the rest.
   */
  private prepare(req: WindowRequest): void {
    const scan = this.scan;
    if (!scan || scan.done || !this.filtering) return;
    const want = Math.max(1, req.height) + 1;
    if (req.following) {
      while (scan.newer());
      scan.fill(Number.POSITIVE_INFINITY, -1, want, FILL_MS);
    } else if (req.anchor) {
      scan.reachTime(req.anchor.time);
      scan.fill(req.anchor.time, 1, want + Math.max(0, req.height - req.anchorRow), FILL_MS);
      scan.fill(req.anchor.time, -1, want, FILL_MS);
    }
  }

  /**
   * While counting in filter mode: makes at least `n` rows known after (dir 1) or before (-1) the
   * row at `pos` (or that side whole), scanning on demand. Returns where that row is now.
   */
  reach(pos: number, dir: 1 | -1, n: number): number {
    const scan = this.scan;
    if (!scan || scan.done || !this.filtering) return pos;
    const seq = this.seqAt(pos);
    const t = this.timeAt(pos);
    const end = performance.now() + FILL_MS * 4;
    for (;;) {
      const p = seq ? this.positionOf(seq, t) : pos;
      const room = dir === 1 ? this.total - 1 - p : p;
      if (room >= n || performance.now() >= end) return p;
      if (!(dir === 1 ? scan.newer() : scan.older())) return p;
    }
  }

  /** Every match found at once (the `top` key while counting). */
  reachEnd(dir: 1 | -1): void {
    const scan = this.scan;
    if (!scan || !this.filtering) return;
    if (dir === 1) while (scan.newer());
    else while (scan.older());
  }

  setMode(mode: LocalMode): void {
    this.modeValue = mode;
  }

  setContext(n: number): void {
    this.contextValue = Math.max(0, Math.min(50, Math.floor(n)));
  }

  /** Whether the record in `slot` matches the pattern. */
  isMatch(slot: number): boolean {
    return this.test !== null && slot >= 0 ? this.test(slot) : false;
  }

  /** Rows are only the matches (with context), not every record. */
  get filtering(): boolean {
    return this.index !== null && this.modeValue === 'filter';
  }

  private contextTable(): Int32Array {
    const index = this.index!;
    const key = `${this.buffer.version}:${index.version}:${this.scan?.version ?? -1}:${this.contextValue}`;
    if (this.rows && this.rowsKey === key) return this.rows;
    const { from, to } = this.range();
    const positions = new Int32Array(to - from);
    let n = 0;
    for (let i = from; i < to; i++) {
      const p = locate(this.buffer, index.seq(i), index.time(i));
      if (p >= 0) positions[n++] = p;
    }
    this.rows = contextRows(positions.subarray(0, n), this.buffer.length, this.contextValue);
    this.rowsKey = key;
    return this.rows;
  }

  get total(): number {
    if (!this.filtering) return this.buffer.length;
    if (this.contextValue === 0) {
      const { from, to } = this.range();
      return to - from;
    }
    return this.contextTable().length;
  }

  /** Buffer index of a view position, SEPARATOR for a separator, -1 when out of range too. */
  bufferIndexAt(pos: number): number {
    if (pos < 0 || pos >= this.total) return SEPARATOR;
    if (!this.filtering) return pos;
    if (this.contextValue === 0) {
      const index = this.index!;
      const i = this.range().from + pos;
      return locate(this.buffer, index.seq(i), index.time(i));
    }
    return this.contextTable()[pos]!;
  }

  /** The record at a view position, built from the store (null for a separator or out of range). */
  entryAt(pos: number): LogEntry | null {
    const b = this.bufferIndexAt(pos);
    return b < 0 ? null : (this.buffer.get(b) ?? null);
  }

  /** The sequence number of the record at a view position (0 for a separator or out of range). */
  seqAt(pos: number): number {
    if (this.filtering && this.contextValue === 0) {
      if (pos < 0 || pos >= this.total) return 0;
      return this.index!.seq(this.range().from + pos);
    }
    const b = this.bufferIndexAt(pos);
    return b < 0 ? 0 : this.buffer.seqAt(b);
  }

  timeAt(pos: number): number {
    if (this.filtering && this.contextValue === 0) {
      if (pos < 0 || pos >= this.total) return Number.NaN;
      return this.index!.time(this.range().from + pos);
    }
    const b = this.bufferIndexAt(pos);
    return b < 0 ? Number.NaN : this.buffer.time(b);
  }

  /** The view position of a record, or the nearest position at its time when it is gone. */
  positionOf(seq: number, time: number): number {
    const total = this.total;
    if (total === 0) return 0;
    let p: number;
    if (!this.filtering) p = this.buffer.lowerBound(time);
    else if (this.contextValue === 0) {
      const { from, to } = this.range();
      p = Math.max(0, Math.min(to, this.index!.lowerBound(time)) - from);
    } else {
      const rows = this.contextTable();
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const b = rows[mid] === SEPARATOR ? rows[mid - 1]! : rows[mid]!;
        if (this.buffer.time(b) < time) lo = mid + 1;
        else hi = mid;
      }
      p = lo;
    }
    for (let i = p; i < total; i++) {
      const t = this.timeAt(i);
      if (!Number.isNaN(t) && t > time) break;
      if (this.seqAt(i) === seq) return i;
    }
    return Math.min(p, total - 1);
  }

  /** Nearest real row from `pos` going `dir` (skips separators). */
  realRow(pos: number, dir: 1 | -1): number {
    const total = this.total;
    let p = Math.max(0, Math.min(total - 1, pos));
    while (p >= 0 && p < total && this.bufferIndexAt(p) === SEPARATOR) p += dir;
    if (p < 0 || p >= total) {
      p = Math.max(0, Math.min(total - 1, pos));
      while (p >= 0 && p < total && this.bufferIndexAt(p) === SEPARATOR) p -= dir;
    }
    return Math.max(0, Math.min(Math.max(0, total - 1), p));
  }

  /** The next position after (dir 1) or before (-1) `pos` whose record matches the pattern; -1 when none. */
  nextMatch(pos: number, dir: 1 | -1): number {
    const index = this.index;
    if (!index) return -1;
    if (this.filtering) {
      // while counting, the side being searched is scanned on demand until a match turns up
      const start = this.seqAt(pos);
      let from = start ? pos : dir === 1 ? -1 : this.total;
      for (;;) {
        const total = this.total;
        for (let p = from + dir; p >= 0 && p < total; p += dir) {
          const b = this.bufferIndexAt(p);
          if (b >= 0 && this.isMatch(this.buffer.slotAt(b))) return p;
        }
        const scan = this.scan;
        if (!scan || scan.done) return -1;
        const seq = this.seqAt(from);
        const t = this.timeAt(from);
        if (!(dir === 1 ? scan.newer() : scan.older())) return -1;
        from = seq ? this.positionOf(seq, t) : dir === 1 ? -1 : this.total;
      }
    }
    if (this.counting) {
      // every record is a row: test them from here on (no wait for the index)
      const test = this.test!;
      for (let p = pos + dir; p >= 0 && p < this.buffer.length; p += dir) if (test(this.buffer.slotAt(p))) return p;
      return -1;
    }
    if (index.length === 0) return -1;
    // All records are rows: walk the matches from the current time, compare buffer positions.
    const t = this.buffer.time(pos);
    if (dir === 1) {
      for (let i = Number.isNaN(t) ? 0 : index.lowerBound(t); i < index.length; i++) {
        const b = locate(this.buffer, index.seq(i), index.time(i));
        if (b > pos) return b;
      }
    } else {
      for (let i = (Number.isNaN(t) ? index.length : index.upperBound(t)) - 1; i >= 0; i--) {
        const b = locate(this.buffer, index.seq(i), index.time(i));
        if (b >= 0 && b < pos) return b;
      }
    }
    return -1;
  }

  /**
   * Calls `fn` with the slot of each match held with a time after `after`, oldest first, stopping
   * at the end of a run of equal times once `limit` were given (the final matches: call it when
   * not counting). Walks the store and the match index together: no pattern tested. Returns the
   * time of the last match given, and whether every match after `after` was.
   */
  forEachMatchSlot(fn: (slot: number) => void, after = Number.NEGATIVE_INFINITY, limit = Number.POSITIVE_INFINITY): { upTo: number; done: boolean } {
    const index = this.index;
    if (!index) return { upTo: after, done: true };
    const b = this.buffer;
    let p = 0;
    let given = 0;
    let upTo = after;
    let i = index.upperBound(after);
    while (i < index.length) {
      if (given >= limit) return { upTo, done: false };
      const t = index.time(i);
      // the next match is usually a few records on: step there, else search
      for (let steps = 0; p < b.length && b.time(p) < t && steps < 16; steps++) p++;
      if (p < b.length && b.time(p) < t) p = b.lowerBound(t);
      // the matches at this time, then the records at this time (both in store order)
      let j = i + 1;
      while (j < index.length && index.time(j) === t) j++;
      if (j === i + 1) {
        const seq = index.seq(i);
        for (; p < b.length && b.time(p) === t; p++) {
          if (b.seqAt(p) === seq) {
            fn(b.slotAt(p++));
            break;
          }
        }
      } else {
        const seqs = new Set<number>();
        for (let k = i; k < j; k++) seqs.add(index.seq(k));
        for (; p < b.length && b.time(p) === t; p++) if (seqs.has(b.seqAt(p))) fn(b.slotAt(p));
      }
      given += j - i;
      upTo = t;
      i = j;
    }
    return { upTo, done: true };
  }

  /** The records an export writes: the matches in filter mode, else every record held. */
  /**
   * The records an export writes, built one at a time as they are written: the matches in filter
   * mode, else every record held, as they are now (sequence numbers are taken at once; a record
   * evicted before the writer reaches it is left out and counted in `missed`).
   */
  exportRecords(): ExportSnapshot {
    this.finishScan();
    const buffer = this.buffer;
    const n = this.filtering ? this.index!.length : buffer.length;
    const seqs = new Float64Array(n);
    const times = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      seqs[i] = this.filtering ? this.index!.seq(i) : buffer.seqAt(i);
      times[i] = this.filtering ? this.index!.time(i) : buffer.time(i);
    }
    const snapshot: ExportSnapshot = { count: n, missed: 0, records };
    function* records(): Generator<LogEntry> {
      snapshot.missed = 0;
      let at = 0;
      for (let i = 0; i < n; i++) {
        // usually the next position: look there before searching
        let b = buffer.seqAt(at) === seqs[i] ? at : locate(buffer, seqs[i]!, times[i]!);
        if (b < 0) {
          snapshot.missed++;
          continue;
        }
        yield buffer.columns.entry(buffer.slotAt(b));
        at = b + 1;
      }
    }
    return snapshot;
  }

  private row(pos: number, lines: (e: LogEntry) => number): ViewRow {
    const b = this.bufferIndexAt(pos);
    if (b < 0) return { pos, entry: null, seq: 0, match: false, lines: 1 };
    const slot = this.buffer.slotAt(b);
    const entry = this.buffer.entryOfSlot(slot);
    return { pos, entry, seq: this.buffer.columns.seq(slot), match: this.isMatch(slot), lines: lines(entry) };
  }

  /** The rows that fit in `height` lines around the selection. Touches only those rows. */
  window(req: WindowRequest): ViewWindow {
    this.prepare(req);
    const total = this.total;
    const height = Math.max(1, req.height);
    if (total === 0) return { rows: [], total: 0, selected: 0, offset: 0 };
    let selected: number;
    if (req.following) selected = this.realRow(total - 1, -1);
    else if (req.anchor) selected = this.realRow(this.positionOf(req.anchor.seq, req.anchor.time), 1);
    else selected = this.realRow(req.fallback, 1);

    const rows = new Map<number, ViewRow>();
    const get = (p: number) => {
      let r = rows.get(p);
      if (!r) {
        r = this.row(p, req.lines);
        rows.set(p, r);
      }
      return r;
    };
    // Rows above the selection: as many as before (anchorRow), or as fit when following.
    let offset = selected;
    let used = get(selected).lines;
    const above = req.following ? Number.POSITIVE_INFINITY : Math.max(0, req.anchorRow);
    while (offset > 0 && selected - offset < above && used + get(offset - 1).lines <= height) {
      offset--;
      used += get(offset).lines;
    }
    // Rows below until the height is used; then fill upwards if the end came first.
    let end = selected + 1;
    while (end < total && used + get(end).lines <= height) {
      used += get(end).lines;
      end++;
    }
    while (offset > 0 && used + get(offset - 1).lines <= height) {
      offset--;
      used += get(offset).lines;
    }
    const out: ViewRow[] = [];
    for (let p = offset; p < end; p++) out.push(get(p));
    return { rows: out, total, selected, offset };
  }
}
