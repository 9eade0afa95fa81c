import type { LogEntry } from '../api/logs/entry';
import { Buffer } from 'node:buffer';
import { formatIpv4, formatIpv6, parseIpv4, writeIpv6 } from '../log-engine/columns/codecs';
import type { DictField, RecordColumns } from '../log-engine/columns/record-columns';
import type { Dictionary } from '../log-engine/columns/dictionary';
import type { Ids } from '../log-engine/columns/id-column';
import { bump, IdCounters, Uint32Counts, IdTally, PathCounters, pathKeyOf, type Counter } from './stats-counters';

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
  /** Records per pull zone (several zones followed merged), most first. */
  topZones: CountRow[];
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

/** Records at which a field is counted by id first (a page), not record by record (an eviction). */
const TALLY_FROM = 8;

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

/** The n-th largest count (0 when there are fewer than n). */
function nthLargest(counts: readonly number[], n: number): number {
  const largest: number[] = [];
  for (const c of counts) {
    if (largest.length === n && c <= largest[n - 1]!) continue;
    let i = largest.length;
    while (i > 0 && largest[i - 1]! < c) i--;
    largest.splice(i, 0, c);
    if (largest.length > n) largest.pop();
  }
  return largest.length < n ? 0 : largest[n - 1]!;
}

/** The path as the stats group it: the path without the query string (the URL when there is no path). */
export function pathKey(e: LogEntry): string {
  return pathKeyOf(e.path, e.url);
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
  private readonly zones = new Map<string, Counter>();
  private readonly seconds = new Map<number, number>();
  /** IPv4 addresses read from the columns, by number (no text per record); merged with `ips` in snapshots. */
  private readonly ips4 = new Uint32Counts();
  /** IPv6 addresses in canonical form, by their 16 bytes as a latin1 key (no formatting per record); merged with `ips` in snapshots. */
  private readonly ips6 = new Map<string, Counter>();
  private readonly v6 = Buffer.alloc(16);
  private readonly byId: Partial<Record<DictField, IdCounters>> = {};
  private pathsById = new PathCounters();
  private readonly tally = new IdTally();
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
    const none = NO_CACHE_STATUS;
    // each column named (not looked up by a field name: that costs more than an eviction's count)
    const { dicts, idCols } = cols;
    const by = this.byId;
    this.tallyField(dicts.cacheStatus, idCols.cacheStatus.array, (by.cacheStatus ??= new IdCounters()), this.cache, slots, sign, none);
    this.tallyField(dicts.countryCode, idCols.countryCode.array, (by.countryCode ??= new IdCounters()), this.countries, slots, sign, '(none)');
    this.tallyField(dicts.edgeLocation, idCols.edgeLocation.array, (by.edgeLocation ??= new IdCounters()), this.edges, slots, sign, '(none)');
    this.tallyField(dicts.pullZoneId, idCols.pullZoneId.array, (by.pullZoneId ??= new IdCounters()), this.zones, slots, sign, '(none)');
    this.tallyPaths(cols, slots, sign);
    // records come in time order: a second's count is bumped once per run of records in it
    let second = Number.NaN;
    let inSecond = 0;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      this.count += sign;
      this.byteSum += sign * cols.bytesSentOf(slot);
      const cls = Math.floor(cols.statusCode(slot) / 100);
      this.classes[cls >= 1 && cls <= 5 ? cls - 1 : 5]! += sign;
      const v4 = cols.ipv4(slot);
      if (v4 >= 0) this.ips4.bump(v4, sign);
      else {
        const v6 = cols.ipv6Key(slot);
        if (v6 !== null) bump(this.ips6, v6, sign);
        else bump(this.ips, cols.remoteIp(slot) ?? '(none)', sign);
      }
      const t = cols.time(slot);
      const s = Math.floor(t / 1000);
      if (s !== second) {
        if (inSecond > 0) bumpNum(this.seconds, second, sign * inSecond);
        second = s;
        inSecond = 0;
      }
      if (t === t) {
        inSecond++;
        this.bounds1(t, sign);
      }
    }
    if (inSecond > 0) bumpNum(this.seconds, second, sign * inSecond);
    this.settle();
  }

  /** One dictionary field of the records in `slots`: counted by id, then a bump per distinct value. */
  /**
   * One dictionary field of the records in `slots`. A page is counted by id first, then a bump per
   * distinct value; a record or two (an eviction) are bumped directly, without the tally's pass.
   */
  private tallyField(dict: Dictionary, ids: Ids, counters: IdCounters, map: Map<string, Counter>, slots: readonly number[], sign: 1 | -1, none: string): void {
    if (slots.length < TALLY_FROM) {
      for (let i = 0; i < slots.length; i++) {
        const id = ids[slots[i]!]!;
        counters.bump(map, id, dict.value(id) ?? none, sign);
      }
      return;
    }
    this.tally.add(ids, slots);
    this.tally.drain((id, n) => counters.bump(map, id, dict.value(id) ?? none, sign * n));
  }

  /** The paths of the records in `slots`, by path id (as tallyField); a record whose path is not counted is keyed by its URL. */
  private tallyPaths(cols: RecordColumns, slots: readonly number[], sign: 1 | -1): void {
    const ids = cols.idCols.path.array;
    const dict = cols.dicts.path;
    if (slots.length < TALLY_FROM) {
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const id = ids[slot]!;
        const path = dict.value(id);
        if (!this.pathsById.bump(this.paths, id, path, sign)) bump(this.paths, pathKeyOf(path, cols.url(slot)), sign);
      }
      return;
    }
    let byUrl: Set<number> | null = null;
    this.tally.add(ids, slots);
    this.tally.drain((id, n) => {
      if (!this.pathsById.bump(this.paths, id, dict.value(id), sign * n)) (byUrl ??= new Set()).add(id);
    });
    if (byUrl === null) return;
    const urlIds: Set<number> = byUrl;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const id = ids[slot]!;
      if (urlIds.has(id)) bump(this.paths, pathKeyOf(dict.value(id), cols.url(slot)), sign);
    }
  }

  clear(): void {
    this.count = 0;
    this.byteSum = 0;
    this.classes.fill(0);
    for (const m of [this.cache, this.paths, this.ips, this.countries, this.edges, this.zones]) m.clear();
    this.ips4.clear();
    this.ips6.clear();
    for (const k of Object.keys(this.byId) as DictField[]) delete this.byId[k];
    this.pathsById = new PathCounters();
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
      bump(this.zones, String(e.pullZoneId), sign);
    }
    this.settle();
  }

  private one(
    t: number,
    bytes: number,
    status: number,
    cache: string | null,
    path: string,
    ip: string | null,
    country: string | null,
    edge: string | null,
    sign: 1 | -1,
  ): void {
    this.count += sign;
    this.byteSum += sign * bytes;
    const cls = Math.floor(status / 100);
    this.classes[cls >= 1 && cls <= 5 ? cls - 1 : 5]! += sign;
    bump(this.cache, cache ?? NO_CACHE_STATUS, sign);
    bump(this.paths, path, sign);
    // an IPv4 address is counted by number, as when it is read from the store's columns
    const v4 = ip === null ? -1 : parseIpv4(ip);
    if (v4 >= 0) this.ips4.bump(v4, sign);
    else if (ip !== null && writeIpv6(ip, this.v6, 0)) bump(this.ips6, this.v6.toString('latin1'), sign);
    else bump(this.ips, ip ?? '(none)', sign);
    bump(this.countries, country ?? '(none)', sign);
    bump(this.edges, edge ?? '(none)', sign);
    this.second(t, sign);
  }

  private second(t: number, sign: 1 | -1): void {
    if (Number.isNaN(t)) return;
    bumpNum(this.seconds, Math.floor(t / 1000), sign);
    this.bounds1(t, sign);
  }

  /** The oldest and newest times after one record came (sign 1) or left (-1). */
  private bounds1(t: number, sign: 1 | -1): void {
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

  /** The top IPs of the three maps (text, IPv4 numbers, IPv6 bytes), as topOf would rank them in one. */
  private topIps(n: number): CountRow[] {
    if (this.ips4.size === 0 && this.ips6.size === 0) return topOf(this.ips, n);
    // only the addresses whose counts can be among the n largest become text (ties included)
    const candidates = new Map<string, number>(topOf(this.ips, n).map((r) => [r.key, r.count]));
    const counts4: number[] = [];
    this.ips4.forEach((_, c) => counts4.push(c));
    const threshold4 = nthLargest(counts4, n);
    this.ips4.forEach((k, c) => {
      if (c >= threshold4) candidates.set(formatIpv4(k), c);
    });
    const threshold6 = nthLargest(
      Array.from(this.ips6.values(), (c) => c.n),
      n,
    );
    for (const [k, c] of this.ips6) if (c.n >= threshold6) candidates.set(formatIpv6(Buffer.from(k, 'latin1'), 0), c.n);
    return topOf(candidates, n);
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
      topIps: this.topIps(top),
      topCountries: topOf(this.countries, top),
      topEdges: topOf(this.edges, top),
      topZones: topOf(this.zones, top),
      rate,
      rateEnd,
      ratePerSecond: rate.length ? sum / rate.length : 0,
    };
  }
}
