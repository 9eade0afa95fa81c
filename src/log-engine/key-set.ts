/**
 * A set of strings (the buffer's request ids) with open addressing: about twice as quick as a
 * Set at a million keys, where the Set's rehashing and bookkeeping were most of an insert.
 * Linear probing; a removal shifts the entries after it back, so no tombstones build up.
 */
export class KeySet {
  private keys: (string | undefined)[];
  private hashes: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 1024) {
    const size = KeySet.tableSize(expected);
    this.keys = new Array<string | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
  }

  private static tableSize(n: number): number {
    let size = 16;
    while (size < n * 2) size *= 2;
    return size;
  }

  get size(): number {
    return this.count;
  }

  /** FNV-1a over the UTF-16 code units. */
  private static hash(s: string): number {
    let h = 0x811c9dc5 | 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h;
  }

  /** Adds the key; false when it was there already. */
  add(key: string): boolean {
    const h = KeySet.hash(key);
    const keys = this.keys;
    const hashes = this.hashes;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const k = keys[i];
      if (k === undefined) break;
      if (hashes[i] === h && k === key) return false;
      i = (i + 1) & mask;
    }
    keys[i] = key;
    hashes[i] = h;
    if (++this.count * 2 > keys.length) this.grow();
    return true;
  }

  has(key: string): boolean {
    return this.find(key, KeySet.hash(key)) >= 0;
  }

  delete(key: string): boolean {
    const i = this.find(key, KeySet.hash(key));
    if (i < 0) return false;
    this.removeAt(i);
    return true;
  }

  clear(): void {
    this.keys.fill(undefined);
    this.count = 0;
  }

  private find(key: string, h: number): number {
    const keys = this.keys;
    let i = h & this.mask;
    for (;;) {
      const k = keys[i];
      if (k === undefined) return -1;
      if (this.hashes[i] === h && k === key) return i;
      i = (i + 1) & this.mask;
    }
  }

  /** Backward-shift deletion: entries after the hole that may live there move into it. */
  private removeAt(at: number): void {
    const keys = this.keys;
    const hashes = this.hashes;
    const mask = this.mask;
    let hole = at;
    let i = at;
    for (;;) {
      i = (i + 1) & mask;
      const k = keys[i];
      if (k === undefined) break;
      const home = hashes[i]! & mask;
      // the entry at i may move to the hole when its home is not in (hole, i]
      const between = hole <= i ? home > hole && home <= i : home > hole || home <= i;
      if (between) continue;
      keys[hole] = k;
      hashes[hole] = hashes[i]!;
      hole = i;
    }
    keys[hole] = undefined;
    this.count--;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldHashes = this.hashes;
    const size = oldKeys.length * 2;
    this.keys = new Array<string | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j];
      if (k === undefined) continue;
      const h = oldHashes[j]!;
      let i = h & this.mask;
      while (this.keys[i] !== undefined) i = (i + 1) & this.mask;
      this.keys[i] = k;
      this.hashes[i] = h;
    }
  }
}
