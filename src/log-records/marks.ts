import { entryKey, type LogEntry } from '../api/logs/entry';
import { pathText } from './rows';

/**
 * Records a person marked on the logs screen, known by what identifies a record whatever store
 * holds it: the request id (or, without one, the stand-in key the store dedupes by) and its time.
 * So a mark outlives filter changes, a restarted follow that reads the record again, and the
 * store's slots and sequence numbers; what it showed (status, path) is kept to list it after the
 * record itself was evicted.
 */

export interface Mark {
  key: string;
  /** The pull zone of the record: a mark belongs to the zone it was made on. */
  zone: number;
  /** Epoch ms of the record. */
  time: number;
  status: number;
  path: string;
}

/** Where a record is in an ordered store: its index, or -1 when it is not held. */
export interface MarkLocator {
  lowerBound(t: number): number;
  readonly length: number;
  time(index: number): number;
  get(index: number): LogEntry | undefined;
}

export class MarkSet {
  private readonly byKey = new Map<string, Mark>();
  private sorted: Mark[] | null = [];
  /** The zones shown now (null: every zone): marks of other zones are kept but not seen. */
  private zones: ReadonlySet<number> | null = null;
  /** Bumped on every change. */
  version = 0;

  /** The marks of the zones shown. */
  get size(): number {
    return this.zones === null ? this.byKey.size : this.list().length;
  }

  /** Every mark, whatever zone it was made on. */
  get total(): number {
    return this.byKey.size;
  }

  /** Shows the marks of these zones only (a logs screen on other zones sees none of the others'). */
  setZones(zones: readonly number[] | null): void {
    const next = zones === null ? null : new Set(zones);
    const same = next === null ? this.zones === null : this.zones !== null && next.size === this.zones.size && [...next].every((z) => this.zones!.has(z));
    if (same) return;
    this.zones = next;
    this.sorted = null;
    this.version++;
  }

  private inScope(m: Mark): boolean {
    return this.zones === null || this.zones.has(m.zone);
  }

  has(e: LogEntry): boolean {
    if (this.byKey.size === 0) return false;
    const m = this.byKey.get(entryKey(e));
    return m !== undefined && this.inScope(m);
  }

  /** Marks the record, or unmarks it when it was marked; true when it is marked now. */
  toggle(e: LogEntry, time: number): boolean {
    const key = entryKey(e);
    this.version++;
    this.sorted = null;
    if (this.byKey.delete(key)) return false;
    this.byKey.set(key, { key, zone: e.pullZoneId, time, status: e.statusCode, path: pathText(e) });
    return true;
  }

  /** Puts back marks kept elsewhere (a saved session); a mark already here is kept as it is. */
  restore(marks: readonly Mark[]): void {
    for (const m of marks) if (!this.byKey.has(m.key)) this.byKey.set(m.key, { ...m });
    this.sorted = null;
    this.version++;
  }

  /** Clears the marks of the zones shown; returns how many. */
  clear(): number {
    const gone = this.list();
    for (const m of gone) this.byKey.delete(m.key);
    this.sorted = null;
    this.version++;
    return gone.length;
  }

  /** The marks of the zones shown, oldest first (equal times in marking order). */
  list(): readonly Mark[] {
    if (!this.sorted) this.sorted = [...this.byKey.values()].filter((m) => this.inScope(m)).sort((a, b) => a.time - b.time);
    return this.sorted;
  }

  /**
   * The marks to try, in order, going `dir` from the record at `time` (with key `key`, when the
   * selection is a record): the ones after it (or before), then around from the other end.
   * `wrapped` says a mark is reached only by going around.
   */
  around(time: number, key: string | null, dir: 1 | -1): { mark: Mark; wrapped: boolean }[] {
    const list = this.list();
    const n = list.length;
    if (n === 0) return [];
    const self = key === null ? -1 : list.findIndex((m) => m.key === key);
    // the first index strictly after (dir 1) or before (dir -1) the selection
    let start: number;
    if (self >= 0) start = self + dir;
    else if (dir === 1) {
      start = list.findIndex((m) => m.time > time);
      if (start < 0) start = n;
    } else {
      start = n - 1;
      while (start >= 0 && list[start]!.time >= time) start--;
    }
    const out: { mark: Mark; wrapped: boolean }[] = [];
    for (let i = 0; i < n; i++) {
      const raw = start + dir * i;
      const wrapped = raw < 0 || raw >= n;
      const at = ((raw % n) + n) % n;
      if (at === self) continue;
      out.push({ mark: list[at]!, wrapped });
    }
    return out;
  }
}

/** The index of a marked record in an ordered store, or -1 when the store does not hold it (evicted). */
export function locateMark(store: MarkLocator, mark: Mark): number {
  for (let i = store.lowerBound(mark.time); i < store.length && store.time(i) === mark.time; i++) {
    const e = store.get(i);
    if (e && entryKey(e) === mark.key) return i;
  }
  return -1;
}
