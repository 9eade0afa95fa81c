import { entryKey, parseTimestamp, type LogEntry } from '../api/logs/entry';
import { KeySet } from './key-set';
import { writeHexId } from './columns/codecs';
import { IdTable } from './columns/id-table';
import { RecordColumns } from './columns/record-columns';
import { SlotPool } from './columns/slot-pool';
import type { RecordBatch } from './record-batch';

/** Records coming in (a batch of columns, or LogEntry objects), as the insert reads them. */
interface Incoming {
  readonly length: number;
  /** Epoch ms (NaN: not kept). */
  time(i: number): number;
  /** Writes record i's request id as four words into `w` when it is 32 lower-case hex digits; false otherwise. */
  binaryId(i: number, w: Uint32Array, bytes: Uint8Array): boolean;
  /** The key of a record without such an id (its request id text, or entryKey's stand-in). */
  key(i: number): string;
  /** Stores record rows[q] in slots[q], q < n, in that order. */
  write(columns: RecordColumns, rows: Int32Array, slots: Int32Array, n: number): void;
}

function entriesIn(batch: readonly LogEntry[], times: ArrayLike<number> | undefined): Incoming {
  return {
    length: batch.length,
    time: (i) => (times ? times[i]! : parseTimestamp(batch[i]!.timestamp)),
    binaryId: (i, _w, bytes) => {
      const id = batch[i]!.requestId;
      return id !== null && writeHexId(id, bytes, 0);
    },
    key: (i) => entryKey(batch[i]!),
    write: (columns, rows, slots, n) => {
      for (let q = 0; q < n; q++) {
        const i = rows[q]!;
        columns.write(slots[q]!, batch[i]!, times ? times[i]! : parseTimestamp(batch[i]!.timestamp));
      }
    },
  };
}

function batchIn(batch: RecordBatch): Incoming {
  const words = batch.ridWords;
  return {
    length: batch.length,
    time: (i) => batch.times[i]!,
    binaryId: (i, w) => {
      if (!batch.hasBinaryId(i)) return false;
      w[0] = words[i * 4]!;
      w[1] = words[i * 4 + 1]!;
      w[2] = words[i * 4 + 2]!;
      w[3] = words[i * 4 + 3]!;
      return true;
    },
    key: (i) => batch.key(i),
    write: (columns, rows, slots, n) => columns.writeBatch(batch, rows, slots, n),
  };
}

export const DEFAULT_BUFFER_CAPACITY = 2_000_000;

export type BufferListener = (version: number) => void;
/** A record about to leave (its slot still holds it). */
export type EvictionListener = (slot: number, time: number) => void;
/** Records an insert kept, by slot, oldest first, and their times (same order): read them from `columns`. */
export type AddedListener = (slots: readonly number[], times: readonly number[]) => void;

/** Materialised records kept for the rows drawn again next frame. */
const ENTRY_CACHE = 2048;

/**
 * Log records in timestamp order, outside React, stored in columns (RecordColumns: no object per
 * record) with a fixed capacity.
 *
 * - Records live in slots; `order` is a circular array of slots in time order (index 0 = the
 *   oldest). A record keeps its slot until it leaves, and has a sequence number (`seqAt`) that
 *   identifies it while indexes move.
 * - insert() dedupes by request id (a 32-hex-digit id through IdTable over the 16-byte id column;
 *   any other key through a KeySet), sorts the batch and merges it: appending newer records and
 *   prepending older ones cost O(batch); a late record lands in place at O(records after it).
 * - When full, the oldest records go first; every record that could not be kept (evicted, or
 *   older than everything in a full buffer) counts in `dropped`.
 * - Indexes move when records are inserted or evicted: read `version` (bumped on every change)
 *   and re-read what you show when it changes. Equal timestamps keep their arrival order.
 * - get(i) builds the LogEntry (kept in a small cache by sequence number): only for the rows
 *   drawn or exported. Filters and statistics read the columns (`columns`, `slotAt`).
 */
export class LogBuffer {
  readonly capacity: number;
  readonly columns: RecordColumns;
  private readonly order: Int32Array;
  private readonly freeSlots: SlotPool;
  private head = 0;
  private size = 0;
  private readonly ids: IdTable;
  private readonly otherKeys = new KeySet(1024);
  private readonly listeners = new Set<BufferListener>();
  private readonly evictionListeners = new Set<EvictionListener>();
  private readonly addedListeners = new Set<AddedListener>();
  private readonly cache = new Map<number, LogEntry>();
  private readonly scratch = new Uint32Array(4);
  private readonly scratchBytes = new Uint8Array(this.scratch.buffer);
  /** Arrays an insert works in, kept for the next one (no garbage per page). */
  private readonly work = new InsertWork();
  /** How many batch positions the running merge gave slots to (work.placed, in that order). */
  private placedCount = 0;
  /** While a merge runs on a batch whose records took their slots early (work.rowSlots): its sorted record order. */
  private earlyOrder: Int32Array | null = null;
  private versionCounter = 0;
  /** Records that could not be kept for lack of room. */
  dropped = 0;
  /** Records refused because the buffer already held the same request id. */
  duplicates = 0;
  /** Timestamp of the newest record evicted so far (-Infinity while nothing was evicted). */
  evictedUpTo = Number.NEGATIVE_INFINITY;

  constructor(capacity = DEFAULT_BUFFER_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`buffer capacity must be a whole number of at least 1, got ${capacity}`);
    this.capacity = capacity;
    this.columns = new RecordColumns(capacity);
    this.order = new Int32Array(capacity);
    this.freeSlots = new SlotPool(capacity);
    this.ids = new IdTable(capacity, this.columns.ridWords);
  }

  get length(): number {
    return this.size;
  }

  /** Bumped on every change; subscribers get it too. */
  get version(): number {
    return this.versionCounter;
  }

  /** The slot of the record at `index` (0 = oldest); -1 out of range. */
  slotAt(index: number): number {
    if (index < 0 || index >= this.size) return -1;
    return this.order[this.phys(index)]!;
  }

  /** The sequence number of the record at `index` (0 out of range). */
  seqAt(index: number): number {
    if (index < 0 || index >= this.size) return 0;
    return this.columns.seqs[this.order[this.phys(index)]!]!;
  }

  /** The record at `index` (0 = oldest), built from the columns. */
  get(index: number): LogEntry | undefined {
    if (index < 0 || index >= this.size) return undefined;
    return this.entryOfSlot(this.order[this.phys(index)]!);
  }

  /** The record in `slot` (cached by sequence number, so a row drawn twice is the same object). */
  entryOfSlot(slot: number): LogEntry {
    const seq = this.columns.seqs[slot]!;
    let e = this.cache.get(seq);
    if (e === undefined) {
      if (this.cache.size >= ENTRY_CACHE) this.cache.clear();
      e = this.columns.entry(slot);
      this.cache.set(seq, e);
    }
    return e;
  }

  /** Epoch ms of the record at `index`, NaN when out of range. */
  time(index: number): number {
    if (index < 0 || index >= this.size) return Number.NaN;
    return this.columns.time(this.order[this.phys(index)]!);
  }

  get oldestTime(): number | null {
    return this.size ? this.time(0) : null;
  }

  get newestTime(): number | null {
    return this.size ? this.time(this.size - 1) : null;
  }

  /** Whether a record with this request id (or stand-in key) is held. */
  has(key: string): boolean {
    const w = this.scratch;
    if (writeHexId(key, this.scratchBytes, 0)) return this.ids.find(w[0]!, w[1]!, w[2]!, w[3]!) >= 0;
    return this.otherKeys.has(key);
  }

  /** First index whose time is >= t (binary search). */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose time is > t. */
  upperBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index of the record with sequence number `seq` and time `t`, or -1 when it is gone. */
  indexOfSeq(seq: number, t: number): number {
    const seqs = this.columns.seqs;
    for (let i = this.lowerBound(t); i < this.size && this.time(i) === t; i++) if (seqs[this.order[this.phys(i)]!] === seq) return i;
    return -1;
  }

  /** Records [start, end) as a new array (for the rows a screen shows). */
  slice(start = 0, end = this.size): LogEntry[] {
    const s = Math.max(0, start);
    const e = Math.min(this.size, end);
    const out: LogEntry[] = [];
    for (let i = s; i < e; i++) out.push(this.get(i)!);
    return out;
  }

  /** Every record as objects: for tests and small buffers only (a screen reads `slice`). */
  toArray(): LogEntry[] {
    return this.slice();
  }

  /** Records [start, end) one at a time, built as they are read (an export of any size). */
  *records(start = 0, end = this.size): Generator<LogEntry> {
    for (let i = Math.max(0, start); i < Math.min(this.size, end); i++) yield this.columns.entry(this.order[this.phys(i)]!);
  }

  /**
   * The slots of every record held, oldest first, as they are now, in shared memory (a worker
   * thread reads it without a copy): two copies of the ring's halves, not a loop.
   */
  orderSnapshot(): Int32Array {
    const out = new Int32Array(new SharedArrayBuffer(Math.max(1, this.size) * 4), 0, this.size);
    const first = Math.min(this.size, this.capacity - this.head);
    out.set(this.order.subarray(this.head, this.head + first), 0);
    if (first < this.size) out.set(this.order.subarray(0, this.size - first), first);
    return out;
  }

  /** Bytes held per column and index (for the memory benchmark). */
  memoryBreakdown(): Record<string, number> {
    return { ...this.columns.memoryBreakdown(), 'time order': this.order.byteLength, 'free slots': this.freeSlots.bytes, 'request id table': this.ids.bytes };
  }

  /** Indexes of the records that pass `test` (given the slot), oldest first, written into `out` (cleared first). */
  scan(test: (slot: number) => boolean, out: number[] = [], start = 0, end = this.size): number[] {
    out.length = 0;
    const stop = Math.min(this.size, end);
    for (let i = Math.max(0, start); i < stop; i++) if (test(this.order[this.phys(i)]!)) out.push(i);
    return out;
  }

  subscribe(listener: BufferListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told about each record just before it leaves (evicted, or the buffer cleared). */
  onEvicted(listener: EvictionListener): () => void {
    this.evictionListeners.add(listener);
    return () => this.evictionListeners.delete(listener);
  }

  /** Told about the records each insert kept, after it. */
  onAdded(listener: AddedListener): () => void {
    this.addedListeners.add(listener);
    return () => this.addedListeners.delete(listener);
  }

  clear(): void {
    while (this.size > 0) {
      const slot = this.order[this.head]!;
      this.release(slot);
      if (++this.head === this.capacity) this.head = 0;
      this.size--;
    }
    this.head = 0;
    this.freeSlots.reset();
    this.evictedUpTo = Number.NEGATIVE_INFINITY;
    this.bump();
  }

  /**
   * Adds records (any order, duplicates allowed). Returns how many were new and kept; when `added`
   * is given, the new records are appended to it in timestamp order (and their times to
   * `addedTimes`). `times` (epoch ms, same order as `batch`) saves parsing the timestamps again.
   */
  insert(batch: readonly LogEntry[], times?: ArrayLike<number>, added?: LogEntry[], addedTimes?: number[]): number {
    const keptAt: number[] | undefined = added ? [] : undefined;
    const n = this.insertFrom(entriesIn(batch, times), keptAt, addedTimes);
    if (added && keptAt) for (const i of keptAt) added.push(batch[i]!);
    return n;
  }

  /**
   * Adds a page's records from its columns (no LogEntry built), as insert() does. Returns how many
   * were new and kept; `addedAt` gets their indexes in the batch and `addedTimes` their times, in
   * timestamp order.
   */
  insertBatch(batch: RecordBatch, addedAt?: number[], addedTimes?: number[]): number {
    return this.insertFrom(batchIn(batch), addedAt, addedTimes);
  }

  private insertFrom(src: Incoming, addedAt?: number[], addedTimes?: number[]): number {
    const n = src.length;
    const work = this.work.fit(n);
    const fresh = work.fresh;
    const freshTimes = work.freshTimes;
    let k = 0;
    // Room for the whole batch without evicting or refusing a record (a store filling up): each
    // new record takes its slot as soon as it is found new, and its id goes into the id table in
    // the probe that looked for it (the table is bigger than the caches: a second probe later is a
    // second miss). The batch's own repeats are then found in that table too.
    const early = this.size + n <= this.capacity;
    const rowSlots = work.rowSlots;
    // otherwise the batch's own hex ids, as words, in a small table of their own (no string hashed)
    const batchIds = work.batchIds;
    let seenOther: Set<string> | null = null;
    const w = this.scratch;
    for (let i = 0; i < n; i++) {
      const t = src.time(i);
      if (t !== t) continue;
      let dup: boolean;
      if (src.binaryId(i, w, this.scratchBytes)) {
        if (early) {
          const slot = this.freeSlots.peek();
          dup = !this.ids.addNew(w[0]!, w[1]!, w[2]!, w[3]!, slot);
          if (!dup) rowSlots[i] = this.freeSlots.take();
        } else dup = this.ids.find(w[0]!, w[1]!, w[2]!, w[3]!) >= 0 || !batchIds.add(w[0]!, w[1]!, w[2]!, w[3]!);
      } else {
        const key = src.key(i);
        seenOther ??= new Set<string>();
        dup = this.otherKeys.has(key) || seenOther.has(key);
        seenOther.add(key);
        if (!dup && early) rowSlots[i] = this.freeSlots.take();
      }
      if (dup) {
        this.duplicates++;
        continue;
      }
      fresh[k] = i;
      freshTimes[k++] = t;
    }
    if (k === 0) return 0;
    const order = fresh.subarray(0, k);
    const times = freshTimes.subarray(0, k);
    sortBatch(order, times);
    const slots = work.slots.subarray(0, k).fill(-1);
    this.placedCount = 0;
    this.earlyOrder = early ? order : null;
    this.merge(times, slots);
    this.earlyOrder = null;
    this.store(src, order, slots, early);
    const addedSlots: number[] = [];
    const keptTimes: number[] = [];
    for (let j = 0; j < k; j++) {
      if (slots[j]! < 0) continue;
      addedSlots.push(slots[j]!);
      keptTimes.push(times[j]!);
      addedAt?.push(order[j]!);
    }
    if (addedTimes) for (const t of keptTimes) addedTimes.push(t);
    if (addedSlots.length) for (const l of this.addedListeners) l(addedSlots, keptTimes);
    this.bump();
    return addedSlots.length;
  }

  private phys(index: number): number {
    const p = this.head + index;
    return p >= this.capacity ? p - this.capacity : p;
  }

  private bump(): void {
    this.versionCounter++;
    for (const l of this.listeners) l(this.versionCounter);
  }

  /**
   * Gives the j-th record of the sorted batch a free slot (there is one: evictions come first);
   * `store` writes it there once the merge is done.
   */
  private place(slots: Int32Array, j: number): number {
    const early = this.earlyOrder;
    const slot = early ? this.work.rowSlots[early[j]!]! : this.freeSlots.take();
    slots[j] = slot;
    this.work.placed[this.placedCount++] = j;
    return slot;
  }

  /**
   * Writes the records the merge placed (batch record order[j] in slots[j]), in the order placed,
   * and indexes their ids (the hex ids are in the id table already when they took their slots early).
   */
  private store(src: Incoming, order: Int32Array, slots: Int32Array, early: boolean): void {
    const n = this.placedCount;
    const { placed, rows, at } = this.work;
    for (let q = 0; q < n; q++) {
      const j = placed[q]!;
      rows[q] = order[j]!;
      at[q] = slots[j]!;
    }
    src.write(this.columns, rows, at, n);
    for (let q = 0; q < n; q++) {
      const slot = at[q]!;
      if (this.columns.hasBinaryId(slot)) {
        if (!early) this.ids.add(slot);
      } else this.otherKeys.add(src.key(rows[q]!));
    }
  }

  private release(slot: number): void {
    const t = this.columns.time(slot);
    for (const l of this.evictionListeners) l(slot, t);
    if (this.columns.hasBinaryId(slot)) this.ids.remove(slot);
    else this.otherKeys.delete(entryKey(this.columns.entry(slot)));
    this.columns.release(slot);
    this.freeSlots.give(slot);
  }

  private evict(slot: number): void {
    const t = this.columns.time(slot);
    this.release(slot);
    this.dropped++;
    if (t > this.evictedUpTo) this.evictedUpTo = t;
  }

  /** A new record not kept (older than everything in a full buffer). */
  private refuse(t: number): void {
    this.dropped++;
    if (t > this.evictedUpTo) this.evictedUpTo = t;
  }

  private evictHead(count: number): void {
    for (let i = 0; i < count; i++) {
      this.evict(this.order[this.head]!);
      if (++this.head === this.capacity) this.head = 0;
      this.size--;
    }
  }

  private merge(bt: Float64Array, slots: Int32Array): void {
    const k = bt.length;
    const cap = this.capacity;
    // Newer than everything: append, evicting the oldest when full.
    if (this.size === 0 || bt[0]! >= this.time(this.size - 1)) {
      let from = 0;
      if (k > cap) {
        for (let i = 0; i < k - cap; i++) this.refuse(bt[i]!);
        from = k - cap;
      }
      const overflow = this.size + (k - from) - cap;
      if (overflow > 0) this.evictHead(overflow);
      for (let i = from; i < k; i++) {
        this.order[this.phys(this.size)] = this.place(slots, i);
        this.size++;
      }
      return;
    }
    // Older than everything: prepend the newest of them that fit.
    if (bt[k - 1]! < this.time(0)) {
      for (let i = k - 1; i >= 0; i--) {
        if (this.size === cap) {
          this.refuse(bt[i]!);
          continue;
        }
        this.head = this.head === 0 ? cap - 1 : this.head - 1;
        this.order[this.head] = this.place(slots, i);
        this.size++;
      }
      return;
    }
    // In between: merge the batch with the records after its first timestamp. A merged entry is
    // a slot (a record held) or ~j (batch record j, stored when written).
    const p = this.upperBound(bt[0]!);
    const m = this.size - p;
    const merged = new Int32Array(m + k);
    const mergedT = new Float64Array(m + k);
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < m || j < k) {
      const ti = i < m ? this.time(p + i) : Number.POSITIVE_INFINITY;
      if (j >= k || ti <= bt[j]!) {
        merged[o] = this.order[this.phys(p + i)]!;
        mergedT[o++] = ti;
        i++;
      } else {
        merged[o] = ~j;
        mergedT[o++] = bt[j]!;
        j++;
      }
    }
    // The records before p stay; if the result is too long, the oldest of (before p ++ merged) go.
    let overflow = this.size + k - cap;
    let start = p;
    let skip = 0;
    if (overflow > 0) {
      const fromHead = Math.min(overflow, p);
      this.evictHead(fromHead);
      start = p - fromHead;
      overflow -= fromHead;
      for (; skip < overflow; skip++) {
        const r = merged[skip]!;
        if (r >= 0) this.evict(r);
        else this.refuse(mergedT[skip]!);
      }
    }
    this.size = start;
    for (let q = skip; q < m + k; q++) {
      const r = merged[q]!;
      this.order[this.phys(this.size)] = r >= 0 ? r : this.place(slots, ~r);
      this.size++;
    }
  }
}

/** The arrays of one insert of up to `capacity` records, made again only for a bigger batch. */
class InsertWork {
  capacity = -1;
  fresh = new Int32Array(0);
  freshTimes = new Float64Array(0);
  slots = new Int32Array(0);
  placed = new Int32Array(0);
  rows = new Int32Array(0);
  at = new Int32Array(0);
  /** The slot each batch record took early (by its index in the batch). */
  rowSlots = new Int32Array(0);
  batchIds = new BatchIds(0);

  /** Ready for a batch of n records. */
  fit(n: number): this {
    if (n > this.capacity) {
      this.capacity = n;
      this.fresh = new Int32Array(n);
      this.freshTimes = new Float64Array(n);
      this.slots = new Int32Array(n);
      this.placed = new Int32Array(n);
      this.rows = new Int32Array(n);
      this.at = new Int32Array(n);
      this.rowSlots = new Int32Array(n);
      this.batchIds = new BatchIds(n);
    } else this.batchIds.clear();
    return this;
  }
}

/** The hex ids of one batch (as four words each) in an open-addressing table: add() says whether an id is new. */
class BatchIds {
  private readonly words: Uint32Array;
  private readonly table: Int32Array;
  private readonly mask: number;
  private count = 0;

  constructor(n: number) {
    let size = 16;
    while (size < n * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    this.words = new Uint32Array(Math.max(1, n) * 4);
  }

  clear(): void {
    if (this.count === 0) return;
    this.table.fill(0);
    this.count = 0;
  }

  add(a: number, b: number, c: number, d: number): boolean {
    const w = this.words;
    const t = this.table;
    for (let i = IdTable.hash(a, b, c, d) & this.mask; ; i = (i + 1) & this.mask) {
      const k = t[i]! - 1;
      if (k < 0) {
        const o = this.count * 4;
        w[o] = a;
        w[o + 1] = b;
        w[o + 2] = c;
        w[o + 3] = d;
        t[i] = ++this.count;
        return true;
      }
      const o = k * 4;
      if (w[o] === a && w[o + 1] === b && w[o + 2] === c && w[o + 3] === d) return false;
    }
  }
}

/** Sorts the batch (record indexes and their times) by time in place (stable); pages arrive ascending or descending, so those are cheap. */
function sortBatch(order: Int32Array, times: Float64Array): void {
  const k = times.length;
  let asc = true;
  let desc = true;
  for (let i = 1; i < k && (asc || desc); i++) {
    if (times[i]! < times[i - 1]!) asc = false;
    // strictly descending only: reversing a run of equal times would undo their arrival order
    if (times[i]! >= times[i - 1]!) desc = false;
  }
  if (asc) return;
  if (desc) {
    order.reverse();
    times.reverse();
    return;
  }
  const perm = Array.from({ length: k }, (_, i) => i).sort((a, b) => times[a]! - times[b]! || a - b);
  const o2 = Int32Array.from(perm, (i) => order[i]!);
  const t2 = Float64Array.from(perm, (i) => times[i]!);
  order.set(o2);
  times.set(t2);
}
