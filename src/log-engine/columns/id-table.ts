/**
 * The set of binary request ids held, as a hash table of record slots: the 16 bytes themselves
 * stay in the store's id column (read through `words`, four 32-bit words a slot), so the table
 * costs 4 bytes per cell and no string per record. Open addressing with linear probing; removal
 * shifts the entries after it back (no tombstones).
 *
 * A cell holds slot + 1 in its low bits and, in the bits a slot number never uses, the same bits
 * of the id's hash (a tag): a probe passes a cell whose tag differs without reading that slot's
 * id. The table and the id column are far bigger than the processor's caches, so each read of
 * either is a miss; with the tag, a lookup of a new id reads the id column about once in 2,000
 * cells passed instead of at every one.
 */
export class IdTable {
  private table: Int32Array;
  private mask: number;
  /** The bits of a cell that hold slot + 1, and the others (the tag). */
  private readonly slotMask: number;
  private readonly tagMask: number;

  constructor(
    records: number,
    private readonly words: Uint32Array,
  ) {
    let size = 16;
    while (size < records * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    // slot + 1 <= records: that many bits (records < 2^31, so one bit at least is left for the tag)
    const slotBits = 32 - Math.clz32(records);
    this.slotMask = slotBits >= 32 ? -1 : (1 << slotBits) - 1;
    this.tagMask = ~this.slotMask;
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
    const h = IdTable.hash(a, b, c, d);
    const tagMask = this.tagMask;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const cell = t[i]!;
      if (cell === 0) return -1;
      if (((cell ^ h) & tagMask) !== 0) continue;
      const s = (cell & this.slotMask) - 1;
      const o = s * 4;
      if (w[o] === a && w[o + 1] === b && w[o + 2] === c && w[o + 3] === d) return s;
    }
  }

  /**
   * Adds the id (a, b, c, d) for `slot` unless it is held: its words are written at `slot` (the
   * caller stores that record there) and the cell is filled in the same probe that looked for
   * it, while that cell is in the cache. False (nothing written) when the id is held already.
   */
  addNew(a: number, b: number, c: number, d: number, slot: number): boolean {
    const w = this.words;
    const t = this.table;
    const h = IdTable.hash(a, b, c, d);
    const tagMask = this.tagMask;
    let i = h & this.mask;
    for (; ; i = (i + 1) & this.mask) {
      const cell = t[i]!;
      if (cell === 0) break;
      if (((cell ^ h) & tagMask) !== 0) continue;
      const o = ((cell & this.slotMask) - 1) * 4;
      if (w[o] === a && w[o + 1] === b && w[o + 2] === c && w[o + 3] === d) return false;
    }
    const o = slot * 4;
    w[o] = a;
    w[o + 1] = b;
    w[o + 2] = c;
    w[o + 3] = d;
    t[i] = (h & tagMask) | (slot + 1);
    return true;
  }

  /** Adds the id now written at `slot` (the caller checked it is not held). */
  add(slot: number): void {
    const t = this.table;
    const h = this.hashOf(slot);
    let i = h & this.mask;
    while (t[i] !== 0) i = (i + 1) & this.mask;
    t[i] = (h & this.tagMask) | (slot + 1);
  }

  remove(slot: number): void {
    const t = this.table;
    const mask = this.mask;
    const slotMask = this.slotMask;
    let i = this.hashOf(slot) & mask;
    while ((t[i]! & slotMask) !== slot + 1) {
      if (t[i] === 0) return;
      i = (i + 1) & mask;
    }
    let hole = i;
    for (let j = (i + 1) & mask; t[j] !== 0; j = (j + 1) & mask) {
      const home = this.hashOf((t[j]! & slotMask) - 1) & mask;
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
