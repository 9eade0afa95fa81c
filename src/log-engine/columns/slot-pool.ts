/**
 * The store's free record slots. Slots never used yet are a counter (no list of millions of them
 * up front); slots given back (a record evicted) are a stack that grows only as far as records
 * leave faster than new ones take their place: in a full store that follows, about one page.
 */
export class SlotPool {
  private fresh = 0;
  private released = new Int32Array(256);
  private count = 0;

  constructor(readonly capacity: number) {}

  /** A free slot; the caller made room first (there is one). */
  take(): number {
    if (this.count > 0) return this.released[--this.count]!;
    if (this.fresh >= this.capacity) throw new RangeError('no free record slot');
    return this.fresh++;
  }

  /** The slot take() gives next (-1 when none is free). */
  peek(): number {
    if (this.count > 0) return this.released[this.count - 1]!;
    return this.fresh < this.capacity ? this.fresh : -1;
  }

  give(slot: number): void {
    if (this.count === this.released.length) {
      const grown = new Int32Array(Math.min(this.capacity, this.released.length * 2));
      grown.set(this.released);
      this.released = grown;
    }
    this.released[this.count++] = slot;
  }

  /** Every slot is free again (the store was emptied). */
  reset(): void {
    this.fresh = 0;
    this.count = 0;
    if (this.released.length > 256) this.released = new Int32Array(256);
  }

  /** Slots free now. */
  get available(): number {
    return this.capacity - this.fresh + this.count;
  }

  get bytes(): number {
    return this.released.byteLength;
  }
}
