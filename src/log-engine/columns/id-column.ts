export type Ids = Uint8Array | Uint16Array | Uint32Array;

/** A typed array over shared memory: a worker thread can read it without a copy. */
function sharedIds(width: 1 | 2 | 4, capacity: number): Ids {
  const sab = new SharedArrayBuffer(capacity * width);
  return width === 1 ? new Uint8Array(sab) : width === 2 ? new Uint16Array(sab) : new Uint32Array(sab);
}

/**
 * One small number per record slot (a dictionary id), one byte wide until a value needs more,
 * then widened once to two and four bytes: a field with a few dozen values costs a byte a record.
 */
export class IdColumn {
  private ids: Ids;
  private max: number;

  constructor(readonly capacity: number) {
    this.ids = sharedIds(1, capacity);
    this.max = 0xff;
  }

  get(slot: number): number {
    return this.ids[slot]!;
  }

  set(slot: number, id: number): void {
    if (id > this.max) this.widen(id);
    this.ids[slot] = id;
  }

  /** The ids by slot (shared memory; replaced by a wider array when a value needs more bytes). */
  get array(): Ids {
    return this.ids;
  }

  get bytesPerRecord(): number {
    return this.ids.BYTES_PER_ELEMENT;
  }

  private widen(id: number): void {
    const wider = sharedIds(id > 0xffff ? 4 : 2, this.capacity);
    wider.set(this.ids);
    this.ids = wider;
    this.max = id > 0xffff ? 0xffffffff : 0xffff;
  }
}
