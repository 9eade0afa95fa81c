import type { LogEntry } from '../api/logs/entry';
import type { RecordColumns } from '../api/logs/columns/record-columns';

/**
 * Statistics over the records a log view holds, kept incrementally: add() when records come in,
 * remove() when the ring buffer lets the oldest go. Nothing here rescans the records; a snapshot
 * costs O(distinct keys) for the top lists and O(seconds) for the rate, never O(records).
 */

export interface CountRow {
  key: string;
  count: number;
}

export interface StatsSnapshot {
  records: number;
  /** Sum of bytesSent. */
  bytes: number;
  oldest: number | null;
  newest: number | null;
  /** Index 0 = 1xx ... 4 = 5xx; 5 = anything else. */
  statusClasses: number[];
  /** Every cache status seen, most frequent first; null cache status is shown as "(none)". */
  cache: CountRow[];
  /** HIT / records with a cache status (not "-" and not none); null when there is none. */
  hitRatio: number | null;
  /** Records with a cache status: the denominator of hitRatio. */
  cacheable: number;
  topPaths: CountRow[];
  topIps: CountRow[];
  topCountries: CountRow[];
  topEdges: CountRow[];
  /** Records per second, oldest first, the last one being `rateEnd`'s second. */
  rate: number[];
  /** Epoch second of the last rate value (null when there are no records). */
  rateEnd: number | null;
  /** Mean records per second over the last `rate` values (not counting empty seconds after the end). */
  ratePerSecond: number;
}

export interface SnapshotOptions {
  /** Entries per top list (default 5). */
  top?: number;
  /** Seconds in the rate series (default 60). */
  rateSeconds?: number;
  /** Last second of the rate series, epoch ms (default: the newest record's). */
  rateEndMs?: number | null;
}

export const NO_CACHE_STATUS = '(none)';

/** A count held in an object, so a bump is one hash lookup (get) instead of two (get, then set). */
interface Counter {
  n: number;
}

function bump(map: Map<string, Counter>, key: string, by: number): void {
  const c = map.get(key);
  if (c === undefined) {
    if (by > 0) map.set(key, { n: by });
    return;
  }
  c.n += by;
  if (c.n <= 0) map.delete(key);
}

function bumpNum(map: Map<number, number>, key: number, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n <= 0) map.delete(key);
  else map.set(key, n);
}

/** The `n` largest counts of a map (ties: key order), one pass with a small sorted list. */
export function topOf(map: ReadonlyMap<string, number | Counter>, n: number): CountRow[] {
  const out: CountRow[] = [];
  if (n <= 0) return out;
  for (const [key, value] of map) {
    const count = typeof value === 'number' ? value : value.n;
    if (out.length === n && count <= out[n - 1]!.count) continue;
    let i = out.length;
    while (i > 0 && (out[i - 1]!.count < count || (out[i - 1]!.count === count && out[i - 1]!.key > key))) i--;
    out.splice(i, 0, { key, count });
    if (out.length > n) out.pop();
  }
  return out;
}

/** The path as the stats group it: the path without the query string (the URL when there is no path). */
export function pathKey(e: LogEntry): string {
  return pathKeyOf(e.path, e.url);
}

export function pathKeyOf(p: string | null, url: string | null): string {
  const text = p ?? '';
  const q = text.indexOf('?');
  const path = q >= 0 ? text.slice(0, q) : text;
  if (path === '' && url) return url;
  return path === '' ? '(none)' : path;
}

export class LogStats {
  private count = 0;
  private byteSum = 0;
  private readonly classes = [0, 0, 0, 0, 0, 0];
  private readonly cache = new Map<string, Counter>();
  private readonly paths = new Map<string, Counter>();
  private readonly ips = new Map<string, Counter>();
  private readonly countries = new Map<string, Counter>();
  private readonly edges = new Map<string, Counter>();
  private readonly seconds = new Map<number, number>();
  private minTime = Number.POSITIVE_INFINITY;
  private maxTime = Number.NEGATIVE_INFINITY;
  private boundsStale = false;
  private versionCounter = 0;

  /** Bumped by every add/remove/clear. */
  get version(): number {
    return this.versionCounter;
  }

  get records(): number {
    return this.count;
  }

  add(entries: readonly LogEntry[], times?: ArrayLike<number>): void {
    this.apply(entries, times, 1);
  }

  remove(entries: readonly LogEntry[], times?: ArrayLike<number>): void {
    this.apply(entries, times, -1);
  }

  /** Records stored in `cols` (by slot) come in (sign 1) or leave (-1). */
  applySlots(cols: RecordColumns, slots: readonly number[], sign: 1 | -1): void {
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const path = cols.path(slot);
      this.one(
        cols.time(slot), cols.bytesSentOf(slot), cols.statusCode(slot), cols.value('cache', slot),
        pathKeyOf(path, path === null || path === '' || path.startsWith('?') ? cols.url(slot) : null),
        cols.remoteIp(slot), cols.value('country', slot), cols.value('edge', slot), sign,
      );
    }
    this.settle();
  }

  clear(): void {
    this.count = 0;
    this.byteSum = 0;
    this.classes.fill(0);
    for (const m of [this.cache, this.paths, this.ips, this.countries, this.edges]) m.clear();
    this.seconds.clear();
    this.minTime = Number.POSITIVE_INFINITY;
    this.maxTime = Number.NEGATIVE_INFINITY;
    this.boundsStale = false;
    this.versionCounter++;
  }

  private apply(entries: readonly LogEntry[], times: ArrayLike<number> | undefined, sign: 1 | -1): void {
    if (entries.length === 0) return;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const t = times ? times[i]! : Date.parse(e.timestamp);
      this.one(t, e.bytesSent, e.statusCode, e.cacheStatus, pathKey(e), e.remoteIp, e.countryCode, e.edgeLocation, sign);
    }
    this.settle();
  }

  private one(
    t: number, bytes: number, status: number, cache: string | null, path: string, ip: string | null,
    country: string | null, edge: string | null, sign: 1 | -1,
  ): void {
    this.count += sign;
    this.byteSum += sign * bytes;
    const cls = Math.floor(status / 100);
    this.classes[cls >= 1 && cls <= 5 ? cls - 1 : 5]! += sign;
    bump(this.cache, cache ?? NO_CACHE_STATUS, sign);
    bump(this.paths, path, sign);
    bump(this.ips, ip ?? '(none)', sign);
    bump(this.countries, country ?? '(none)', sign);
    bump(this.edges, edge ?? '(none)', sign);
    if (Number.isNaN(t)) return;
    bumpNum(this.seconds, Math.floor(t / 1000), sign);
    if (sign > 0) {
      if (t < this.minTime) this.minTime = t;
      if (t > this.maxTime) this.maxTime = t;
    } else if (t <= this.minTime || t >= this.maxTime) {
      this.boundsStale = true;
    }
  }

  private settle(): void {
    if (this.count === 0) {
      this.minTime = Number.POSITIVE_INFINITY;
      this.maxTime = Number.NEGATIVE_INFINITY;
      this.boundsStale = false;
    }
    this.versionCounter++;
  }

  /** Oldest/newest second-resolution bounds after removals (O(distinct seconds), only when needed). */
  private bounds(): [number, number] | null {
    if (this.count === 0) return null;
    if (this.boundsStale) {
      let lo = Number.POSITIVE_INFINITY;
      let hi = Number.NEGATIVE_INFINITY;
      for (const s of this.seconds.keys()) {
        if (s < lo) lo = s;
        if (s > hi) hi = s;
      }
      // Millisecond precision is lost for bounds recomputed after removals; seconds are enough.
      this.minTime = Math.max(this.minTime, lo * 1000);
      this.maxTime = Math.min(this.maxTime, hi * 1000 + 999);
      this.boundsStale = false;
    }
    return [this.minTime, this.maxTime];
  }

  snapshot(options: SnapshotOptions = {}): StatsSnapshot {
    const top = options.top ?? 5;
    const rateSeconds = Math.max(1, options.rateSeconds ?? 60);
    const b = this.bounds();
    let cacheable = 0;
    for (const [k, c] of this.cache) if (k !== '-' && k !== NO_CACHE_STATUS) cacheable += c.n;
    const hits = this.cache.get('HIT')?.n ?? 0;
    const endMs = options.rateEndMs ?? (b ? b[1] : null);
    const rate: number[] = [];
    let rateEnd: number | null = null;
    let sum = 0;
    if (b && endMs !== null) {
      rateEnd = Math.floor(endMs / 1000);
      const first = Math.max(rateEnd - rateSeconds + 1, Math.floor(b[0] / 1000));
      for (let s = first; s <= rateEnd; s++) {
        const n = this.seconds.get(s) ?? 0;
        rate.push(n);
        sum += n;
      }
    }
    return {
      records: this.count,
      bytes: this.byteSum,
      oldest: b ? b[0] : null,
      newest: b ? b[1] : null,
      statusClasses: [...this.classes],
      cache: topOf(this.cache, this.cache.size),
      hitRatio: cacheable > 0 ? hits / cacheable : null,
      cacheable,
      topPaths: topOf(this.paths, top),
      topIps: topOf(this.ips, top),
      topCountries: topOf(this.countries, top),
      topEdges: topOf(this.edges, top),
      rate,
      rateEnd,
      ratePerSecond: rate.length ? sum / rate.length : 0,
    };
  }
}
