/**
 * Distinct numbers of one field (a record's autonomous system number: a few dozen values however
 * many records) numbered 1..n, with a count of the records using each, so a number no record uses
 * any more gives its id back. Id 0 is null. -0 is a value of its own (a Map would take it for 0).
 */
export class NumberDictionary {
  private readonly ids = new Map<number, number>();
  private values: number[] = [0];
  private counts = new Int32Array(64);
  private readonly free: number[] = [];
  private negativeZero = 0;

  /** The id of `value` (null: 0), counting one more user. */
  intern(value: number | null): number {
    if (value === null) return 0;
    const negZero = Object.is(value, -0);
    let id = negZero ? this.negativeZero || undefined : this.ids.get(value);
    if (id === undefined) {
      id = this.free.pop() ?? this.values.length;
      if (id === this.values.length) this.values.push(value);
      else this.values[id] = value;
      if (negZero) this.negativeZero = id;
      else this.ids.set(value, id);
      if (id >= this.counts.length) {
        const grown = new Int32Array(this.counts.length * 2);
        grown.set(this.counts);
        this.counts = grown;
      }
    }
    this.counts[id]!++;
    return id;
  }

  /** One user of `id` fewer; the value is forgotten when none is left. */
  release(id: number): void {
    if (id === 0) return;
    if (--this.counts[id]! > 0) return;
    if (id === this.negativeZero) this.negativeZero = 0;
    else this.ids.delete(this.values[id]!);
    this.free.push(id);
  }

  value(id: number): number | null {
    return id === 0 ? null : this.values[id]!;
  }

  /** Distinct values held. */
  get size(): number {
    return this.ids.size + (this.negativeZero ? 1 : 0);
  }

  clear(): void {
    this.ids.clear();
    this.values = [0];
    this.counts = new Int32Array(64);
    this.free.length = 0;
    this.negativeZero = 0;
  }
}
