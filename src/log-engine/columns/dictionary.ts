import { ownCopy } from '../../text/own-copy';

/**
 * Distinct strings of one field (cache status, country, host, user agent...) numbered 1..n, with a
 * count of the records using each, so a value no record uses any more gives its number back.
 * Id 0 is null. A record stores the number (1-4 bytes) instead of a string.
 */
export class Dictionary {
  private readonly ids = new Map<string, number>();
  private values: (string | undefined)[] = [undefined];
  private counts = new Int32Array(64);
  private readonly free: number[] = [];

  /** The id of `value` (null: 0), counting one more user. */
  intern(value: string | null): number {
    if (value === null) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      // kept as long as a record uses it: its own text, not a slice of a decoded page
      value = ownCopy(value);
      id = this.free.pop() ?? this.values.length;
      if (id === this.values.length) this.values.push(value);
      else this.values[id] = value;
      this.ids.set(value, id);
      if (id >= this.counts.length) {
        const grown = new Int32Array(this.counts.length * 2);
        grown.set(this.counts);
        this.counts = grown;
      }
    }
    this.counts[id]!++;
    return id;
  }

  /** One more user of `id` (a value in use, found without looking it up). */
  retain(id: number): void {
    if (id !== 0) this.counts[id]!++;
  }

  /** One user of `id` fewer; the value is forgotten when none is left. */
  release(id: number): void {
    if (id === 0) return;
    if (--this.counts[id]! > 0) return;
    this.ids.delete(this.values[id]!);
    this.values[id] = undefined;
    this.free.push(id);
  }

  value(id: number): string | null {
    return id === 0 ? null : (this.values[id] ?? null);
  }

  /** The values by id as they are now (a copy; undefined for ids not in use). */
  valuesSnapshot(): (string | undefined)[] {
    return this.values.slice();
  }

  /** Records using `id` now. */
  count(id: number): number {
    return this.counts[id] ?? 0;
  }

  /** Ids in use are below this. */
  get limit(): number {
    return this.values.length;
  }

  /** Distinct values held. */
  get size(): number {
    return this.ids.size;
  }

  clear(): void {
    this.ids.clear();
    this.values = [undefined];
    this.counts = new Int32Array(64);
    this.free.length = 0;
  }
}
