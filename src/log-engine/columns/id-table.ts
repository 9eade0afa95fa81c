/**
 * The set of binary request ids held, as a hash table of record slots: the 16 bytes themselves
 * stay in the store's id column (read through `words`, four 32-bit words a slot), so the table
 * costs 4 bytes per cell and no string per record. Open addressing with linear probing; removal
 * shifts the entries after it back (no tombstones).
 */
export class IdTable {
  private table: Int32Array;
  private mask: number;

  constructor(
    records: number,
    private readonly words: Uint32Array,
  ) {
    let size = 16;
    while (size < records * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
  }

  static hash(a: number, b: number, c: number, d: number): number {
    let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ b ^ (h >>> 15), 0xc2b2ae35);
    h = Math.imul(h ^ c ^ (h >>> 13), 0x85ebca6b);
    h = Math.imul(h ^ d ^ (h >>> 16), 0xc2b2ae35);
    return (h ^ (h >>> 15)) >>> 0;
  }

  private hashOf(slot: number): number {
    const w = this.words;
    const o = slot * 4;
    return IdTable.hash(w[o]!, w[o + 1]!, w[o + 2]!, w[o + 3]!);
  }

  /** The slot holding the id whose words are (a, b, c, d), or -1. */
  find(a: number, b: number, c: number, d: number): number {
    const w = this.words;
    const t = this.table;
    for (let i = IdTable.hash(a, b, c, d) & this.mask; ; i = (i + 1) & this.mask) {
      const s = t[i]! - 1;
      if (s < 0) return -1;
      const o = s * 4;
      if (w[o] === a && w[o + 1] === b && w[o + 2] === c && w[o + 3] === d) return s;
    }
  }

  /** Adds the id now written at `slot` (the caller checked it is not held). */
  add(slot: number): void {
    const t = this.table;
    let i = this.hashOf(slot) & this.mask;
    while (t[i] !== 0) i = (i + 1) & this.mask;
    t[i] = slot + 1;
  }

  remove(slot: number): void {
    const t = this.table;
    const mask = this.mask;
    let i = this.hashOf(slot) & mask;
    while (t[i] !== slot + 1) {
      if (t[i] === 0) return;
      i = (i + 1) & mask;
    }
    let hole = i;
    for (let j = (i + 1) & mask; t[j] !== 0; j = (j + 1) & mask) {
      const home = this.hashOf(t[j]! - 1) & mask;
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (between) continue;
      t[hole] = t[j]!;
      hole = j;
    }
    t[hole] = 0;
  }

  get bytes(): number {
    return this.table.byteLength;
  }

  clear(): void {
    this.table.fill(0);
  }
}
