type Ids = Uint8Array | Uint16Array | Uint32Array;

/**
 * One small number per record slot (a dictionary id), one byte wide until a value needs more,
 * then widened once to two and four bytes: a field with a few dozen values costs a byte a record.
 */
export class IdColumn {
  private ids: Ids;
  private max: number;

  constructor(readonly capacity: number) {
    this.ids = new Uint8Array(capacity);
    this.max = 0xff;
  }

  get(slot: number): number {
    return this.ids[slot]!;
  }

  set(slot: number, id: number): void {
    if (id > this.max) this.widen(id);
    this.ids[slot] = id;
  }

  get bytesPerRecord(): number {
    return this.ids.BYTES_PER_ELEMENT;
  }

  private widen(id: number): void {
    const wider = id > 0xffff ? new Uint32Array(this.capacity) : new Uint16Array(this.capacity);
    wider.set(this.ids);
    this.ids = wider;
    this.max = id > 0xffff ? 0xffffffff : 0xffff;
  }
}
