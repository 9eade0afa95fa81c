import { ownCopy } from '../text/own-copy';

/** A count held in an object, so a bump is one hash lookup (get) instead of two (get, then set). */
export interface Counter {
  n: number;
}

export function bump(map: Map<string, Counter>, key: string, by: number): void {
  const c = map.get(key);
  if (c === undefined) {
    // a key kept for long: its own text, not a slice of a decoded page
    if (by > 0) map.set(ownCopy(key), { n: by });
    return;
  }
  c.n += by;
  if (c.n <= 0) map.delete(key);
}

export function pathKeyOf(p: string | null, url: string | null): string {
  const text = p ?? '';
  const q = text.indexOf('?');
  const path = q >= 0 ? text.slice(0, q) : text;
  if (path === '' && url) return url;
  return path === '' ? '(none)' : path;
}

/**
 * The counter of each dictionary id of one field, remembered with the value it counted: records
 * read from the columns bump it without hashing the text again.
 */
export class IdCounters {
  private readonly values: (string | undefined)[] = [];
  private readonly counters: (Counter | undefined)[] = [];

  bump(map: Map<string, Counter>, id: number, value: string, by: number): void {
    const c = this.counters[id];
    if (c !== undefined && this.values[id] === value && c.n > 0) {
      c.n += by;
      if (c.n <= 0) map.delete(value);
      return;
    }
    bump(map, value, by);
    this.values[id] = value;
    this.counters[id] = map.get(value);
  }
}

/**
 * The path counters by path dictionary id, remembered with the path they counted (the key is the
 * path without its query string, so several ids can share a counter).
 */
export class PathCounters {
  private readonly values: (string | undefined)[] = [];
  private readonly counters: (Counter | undefined)[] = [];
  private readonly keys: (string | undefined)[] = [];

  /** False when the path is not one this counts (none, empty, a bare query: the URL is the key then). */
  bump(map: Map<string, Counter>, id: number, path: string | null, by: number): boolean {
    // a path counted before (checked then) first: reading the text itself is a cache miss
    const c = this.counters[id];
    if (c !== undefined && this.values[id] === path && c.n > 0) {
      c.n += by;
      if (c.n <= 0) map.delete(this.keys[id]!);
      return true;
    }
    if (path === null || path === '' || path.charCodeAt(0) === 63) return false;
    const key = pathKeyOf(path, null);
    bump(map, key, by);
    this.values[id] = path;
    this.keys[id] = key;
    this.counters[id] = map.get(key);
    return true;
  }
}

/**
 * How many of a set of records have each dictionary id in one column: a typed-array increment per
 * record, then one counter bump per distinct id instead of one per record.
 */
export class IdTally {
  private counts = new Int32Array(256);
  private touched = new Int32Array(256);
  private size = 0;

  /** Counts the id of each slot in `ids` (a dictionary id column). */
  add(ids: ArrayLike<number>, slots: readonly number[]): void {
    for (let i = 0; i < slots.length; i++) {
      const id = ids[slots[i]!]!;
      if (id >= this.counts.length) this.grow(id);
      if (this.counts[id]!++ === 0) {
        if (this.size === this.touched.length) this.touched = grown(this.touched, this.size * 2);
        this.touched[this.size++] = id;
      }
    }
  }

  /** Calls `fn` with each id counted and its count, and starts again from nothing. */
  drain(fn: (id: number, count: number) => void): void {
    for (let i = 0; i < this.size; i++) {
      const id = this.touched[i]!;
      const n = this.counts[id]!;
      this.counts[id] = 0;
      fn(id, n);
    }
    this.size = 0;
  }

  private grow(id: number): void {
    let size = this.counts.length;
    while (size <= id) size *= 2;
    this.counts = grown(this.counts, size);
  }
}

function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

function hash32(key: number): number {
  const h = Math.imul(key ^ (key >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}

/**
 * Counts by unsigned 32-bit key (IPv4 addresses) in an open-addressing table: 8 bytes a cell and
 * no object per key, where a Map would hold a boxed number and a counter object for each.
 */
export class Uint32Counts {
  private keys = new Uint32Array(1024);
  /** 0: an empty cell (a key whose count falls to 0 leaves the table). */
  private counts = new Int32Array(1024);
  private mask = 1023;
  private used = 0;

  get size(): number {
    return this.used;
  }

  bump(key: number, by: number): void {
    const keys = this.keys;
    const counts = this.counts;
    const mask = this.mask;
    for (let i = hash32(key) & mask; ; i = (i + 1) & mask) {
      const c = counts[i]!;
      if (c === 0) {
        if (by <= 0) return;
        keys[i] = key;
        counts[i] = by;
        if (++this.used * 2 > mask) this.resize((mask + 1) * 2);
        return;
      }
      if (keys[i] === key) {
        if (c + by > 0) counts[i] = c + by;
        else this.removeAt(i);
        return;
      }
    }
  }

  forEach(fn: (key: number, count: number) => void): void {
    const counts = this.counts;
    for (let i = 0; i < counts.length; i++) if (counts[i] !== 0) fn(this.keys[i]!, counts[i]!);
  }

  clear(): void {
    this.keys = new Uint32Array(1024);
    this.counts = new Int32Array(1024);
    this.mask = 1023;
    this.used = 0;
  }

  /** Empties cell `hole` and moves back the cells after it that probed past it (no tombstones). */
  private removeAt(hole: number): void {
    const keys = this.keys;
    const counts = this.counts;
    const mask = this.mask;
    counts[hole] = 0;
    this.used--;
    for (let j = (hole + 1) & mask; counts[j] !== 0; j = (j + 1) & mask) {
      const home = hash32(keys[j]!) & mask;
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (between) continue;
      keys[hole] = keys[j]!;
      counts[hole] = counts[j]!;
      counts[j] = 0;
      hole = j;
    }
  }

  private resize(size: number): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    this.keys = new Uint32Array(size);
    this.counts = new Int32Array(size);
    this.mask = size - 1;
    for (let i = 0; i < oldCounts.length; i++) {
      const c = oldCounts[i]!;
      if (c === 0) continue;
      let j = hash32(oldKeys[i]!) & this.mask;
      while (this.counts[j] !== 0) j = (j + 1) & this.mask;
      this.keys[j] = oldKeys[i]!;
      this.counts[j] = c;
    }
  }
}
