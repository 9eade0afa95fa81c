import type { Random } from '../random';
import type { PullZoneSeed, World } from '../world';
import {
  BROWSER_AGENTS,
  CACHE_STATUSES,
  COUNTRIES,
  HOSTING_ASNS,
  JA4,
  PROBE_PATHS,
  REFERER_SITES,
  SEARCH_TERMS,
  TOOL_AGENTS,
  ZONE_PATHS,
  type PathKind,
} from './catalog';

/**
 * Traffic generator of the logging origin.
 *
 * Time is cut into one-minute chunks per pull zone, counted from the emulator's start (the reading
 * of its clock when it started). The records of a chunk are a pure function of (seed, zone, chunk
 * index, start time), so a chunk is generated the first time a query touches it and can be dropped
 * from memory and generated again identically; and the traffic around the start is the same
 * whatever the hour of the day: a test started at 03:00 or at 15:00 sees the same episodes (pin the
 * clock with `clockStart` / `--clock-start` to get the same timestamps too). Nothing runs in the
 * background: "now" (world.now()) only decides which records are visible (timestamp + ingestion
 * delay <= now) and which are retained (newer than 3 days). The chunk being written holds records
 * with future timestamps; they are invisible until their time (plus delay) comes.
 *
 * Density: world.options.logRate x zone.trafficWeight records/s, shaped by 4-minute episodes
 * (bursts, quiet spells, 5xx and 4xx episodes). Chunks that end more than HISTORY_MS before the
 * emulator started are SPARSE_FACTOR as dense: a newcomer sees two busy hours and a thin 3-day tail.
 */

export const CHUNK_MS = 60_000;
export const RETENTION_MS = 3 * 24 * 3_600_000;
export const HISTORY_MS = 2 * 3_600_000;
export const SPARSE_FACTOR = 0.03;
/** A chunk never holds more than this many records (2,500/s: --log-rate 1000 with its bursts capped). */
export const MAX_CHUNK_RECORDS = 150_000;
/** Generated records kept in memory (about 300 bytes each); older chunks are regenerated on demand. */
export const MAX_CACHED_RECORDS = 300_000;
/**
 * Records whose times are kept for counting (17 bytes each), so paging can skip a chunk it does
 * not take records from without generating it again: one still becoming visible, or one the
 * window cuts. A few chunks need it at a time; this holds several of the largest.
 */
export const MAX_INDEXED_RECORDS = 1_000_000;
/** Quiet zones (trafficWeight below this) lag longer, as on the real platform. */
export const QUIET_WEIGHT = 0.2;
export const QUIET_LAG_FACTOR = 3;

/** One generated request. `t`, `delay` and `shield` are internal; the rest is the v2 LogEntry. */
export interface GenRecord {
  /** Timestamp, epoch ms. */
  t: number;
  /** Ingestion delay in ms: the record is visible from t + delay on. */
  delay: number;
  shield: boolean;
  pullZoneId: number;
  requestId: string;
  cacheStatus: string;
  statusCode: number;
  bytesSent: number;
  remoteIp: string | null;
  countryCode: string | null;
  edgeLocation: string;
  scheme: string;
  host: string;
  path: string;
  userAgent: string | null;
  referer: string | null;
  bodyBytesSent: number | null;
  contentRange: string | null;
  ja4Fingerprint: string | null;
  asn: number | null;
  asnOrganization: string | null;
}

interface Client {
  ip: string;
  country: string;
  edges: readonly string[];
  asn: number;
  org: string;
  ua: string | null;
  ja4: string;
  bot: boolean;
}

interface PathTemplate {
  /** Literal parts with placeholders between them: ['/img/', 'n', '.jpg'] */
  parts: string[];
  size: number;
  cacheable: boolean;
}

interface ZoneModel {
  zone: PullZoneSeed;
  clients: Client[];
  paths: PathTemplate[];
  pathPick: WeightedPick;
  hosts: string[];
  /** Same-site referers per host. */
  referers: string[][];
  extended: boolean;
  lagFactor: number;
  /** One copy of each path string (bounded), so repeated paths share memory. */
  interned: Map<string, string>;
}

/** Weighted choice over precomputed cumulative weights (no allocation per pick). */
class WeightedPick {
  private readonly cumulative: Float64Array;
  private readonly total: number;
  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => (this.cumulative[i] = sum += w));
    this.total = sum;
  }
  index(r: Random): number {
    const x = r.next() * this.total;
    const c = this.cumulative;
    for (let i = 0; i < c.length; i++) if (x < c[i]!) return i;
    return c.length - 1;
  }
}

const MAX_INTERNED_PATHS = 50_000;

interface Chunk {
  index: number;
  records: GenRecord[];
}

/** What paging needs to know of a chunk without generating it again. */
interface ChunkCount {
  all: number;
  withoutShield: number;
  /** Every record of the chunk is visible from this time on (its largest t + delay). */
  settledAt: number;
}

/** What counting the visible records of a chunk needs, without the records (oldest first). */
interface ChunkTimes {
  t: Float64Array;
  /** t + ingestion delay: visible from then on. */
  visibleAt: Float64Array;
  shield: Uint8Array;
}

type Episode = { mult: number; errors: 'none' | '5xx' | '4xx'; hot: number };

function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const idBytes = Buffer.alloc(16);

/**
 * 32-hex request id, unique per (zone, chunk, index) by construction: the three words start as
 * bijections of their inputs and every mixing step xors one word with a function of the others.
 */
export function makeRequestId(seed: number, zoneId: number, chunk: number, index: number): string {
  let a = fmix32(zoneId ^ Math.imul(seed, 0x9e3779b1));
  let b = fmix32(chunk);
  let c = fmix32(index + 0x632be5ab);
  let d = fmix32(seed + 0x7f4a7c15);
  for (let round = 0; round < 2; round++) {
    a = (a ^ fmix32(b + c + d)) >>> 0;
    b = (b ^ fmix32(a ^ c ^ d)) >>> 0;
    c = (c ^ fmix32(a + b + d)) >>> 0;
    d = (d ^ fmix32(a ^ b ^ c)) >>> 0;
  }
  idBytes.writeUInt32BE(a, 0);
  idBytes.writeUInt32BE(b, 4);
  idBytes.writeUInt32BE(c, 8);
  idBytes.writeUInt32BE(d, 12);
  // One flat string (concatenation would keep a tree of pieces per record).
  return idBytes.toString('hex');
}

function ipv4(r: Random): string {
  let a = r.int(1, 223);
  if (a === 10 || a === 127 || a === 100 || a === 172 || a === 192) a += 1;
  return `${a}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
}

function ipv6(r: Random): string {
  const prefixes = ['2a02', '2a01', '2001', '2600', '2804', '240e'];
  const g = () => r.int(0, 0xffff).toString(16);
  return `${r.pick(prefixes)}:${g()}:${g()}:${g()}:${g()}:${g()}:${g()}:${g()}`;
}

function buildZone(zone: PullZoneSeed, r: Random): ZoneModel {
  const clients: Client[] = [];
  for (let i = 0; i < 360; i++) {
    const [country, , edges, asn, org] = r.weighted(COUNTRIES.map((c) => [c, c[1]] as const));
    const v6 = r.bool(0.22);
    clients.push({
      ip: v6 ? ipv6(r) : ipv4(r),
      country,
      edges,
      asn: r.bool(0.8) ? asn : asn + r.int(1, 900),
      org,
      ua: r.pick(BROWSER_AGENTS),
      ja4: r.pick(JA4),
      bot: false,
    });
  }
  // Scrapers, monitors and scanners from data centres; a few send no user agent at all.
  for (let i = 0; i < 24; i++) {
    const [asn, org, country] = r.pick(HOSTING_ASNS);
    const entry = COUNTRIES.find((c) => c[0] === country)!;
    clients.push({ ip: ipv4(r), country, edges: entry[2], asn, org, ua: i % 6 === 5 ? null : r.pick(TOOL_AGENTS), ja4: r.pick(JA4), bot: true });
  }
  const kinds: readonly PathKind[] = ZONE_PATHS[zone.Name] ?? ZONE_PATHS.default!;
  // A deploy hash per zone: asset paths repeat, as they do on a real site.
  const deploy = r.hex(8);
  const hosts = zone.Hostnames.map((h) => h.Value);
  return {
    zone,
    clients,
    paths: kinds.map(([template, , size, cacheable]) => ({
      parts: template.replace('{h}', template.includes('?') ? '{h}' : deploy).split(/\{(\w)\}/),
      size,
      cacheable,
    })),
    pathPick: new WeightedPick(kinds.map((k) => k[1])),
    hosts,
    referers: hosts.map((h) => ['', 'index.html', 'products', 'docs/getting-started', 'search?q=sale'].map((p) => `https://${h}/${p}`)),
    extended: zone.Name === 'video-edge',
    lagFactor: zone.trafficWeight < QUIET_WEIGHT ? QUIET_LAG_FACTOR : 1,
    interned: new Map(),
  };
}

class Table<T> {
  private readonly pick: WeightedPick;
  private readonly values: T[];
  constructor(entries: readonly (readonly [T, number])[]) {
    this.values = entries.map((e) => e[0]);
    this.pick = new WeightedPick(entries.map((e) => e[1]));
  }
  draw(r: Random): T {
    return this.values[this.pick.index(r)]!;
  }
}

const CACHEABLE_STATUS = new Table<string>([
  ['HIT', 70],
  ['MISS', 14],
  ['REVALIDATED', 5],
  ['STALE', 2],
  ['UPDATING', 3],
  ['BYPASS', 3],
  ['-', 1],
]);
const DYNAMIC_STATUS = new Table<string>([
  ['BYPASS', 48],
  ['MISS', 34],
  ['-', 16],
  ['HIT', 2],
]);
const ERROR_5XX = new Table<number>([
  [502, 4],
  [503, 3],
  [504, 2],
  [500, 1],
]);
const ERROR_4XX = new Table<number>([
  [404, 6],
  [403, 2],
  [401, 1],
  [429, 1],
]);

export class TrafficStore {
  private readonly models = new Map<number, ZoneModel>();
  private readonly cache = new Map<string, Chunk>();
  /** Counts of every chunk generated so far (a few numbers each: kept for the 3 days). */
  private readonly counts = new Map<string, ChunkCount>();
  private cachedRecords = 0;
  /** Times of recently generated chunks, least recently used first. */
  private readonly times = new Map<string, ChunkTimes>();
  private indexedRecords = 0;
  private lastSweep = 0;
  private readonly base: Random;

  /** Chunk 0 starts here: the emulator's start. */
  readonly origin: number;

  constructor(private readonly world: World) {
    this.base = world.random.fork('logging-traffic');
    this.origin = world.startedAt;
  }

  /** The chunk holding time t. */
  chunkIndex(t: number): number {
    return Math.floor((t - this.origin) / CHUNK_MS);
  }

  chunkStart(index: number): number {
    return this.origin + index * CHUNK_MS;
  }

  private model(zone: PullZoneSeed): ZoneModel {
    let m = this.models.get(zone.Id);
    if (!m) {
      m = buildZone(zone, this.base.fork(`zone:${zone.Id}`));
      this.models.set(zone.Id, m);
    }
    return m;
  }

  private episode(zone: PullZoneSeed, chunk: number): Episode {
    const r = this.base.fork(`episode:${zone.Id}:${Math.floor(chunk / 4)}`);
    const kind = r.weighted([
      ['normal', 66],
      ['burst', 10],
      ['quiet', 12],
      ['5xx', 6],
      ['4xx', 6],
    ] as const);
    const hot = r.int(0, 1 << 30);
    if (kind === 'burst') return { mult: 2.5 + r.next() * 2.5, errors: 'none', hot };
    if (kind === 'quiet') return { mult: 0.1 + r.next() * 0.2, errors: 'none', hot };
    if (kind === '5xx') return { mult: 1 + r.next() * 0.5, errors: '5xx', hot };
    if (kind === '4xx') return { mult: 1.2 + r.next(), errors: '4xx', hot };
    return { mult: 1, errors: 'none', hot };
  }

  /** The records of one chunk, generated (or regenerated) on demand. */
  chunk(zone: PullZoneSeed, index: number): GenRecord[] {
    const key = `${zone.Id}:${index}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.records;
    }
    const records = this.generate(zone, index);
    if (!this.counts.has(key)) {
      let withoutShield = 0;
      let settledAt = Number.NEGATIVE_INFINITY;
      for (const r of records) {
        if (!r.shield) withoutShield++;
        if (r.t + r.delay > settledAt) settledAt = r.t + r.delay;
      }
      this.counts.set(key, { all: records.length, withoutShield, settledAt });
    }
    this.cache.set(key, { index, records });
    this.cachedRecords += records.length;
    this.keepTimes(key, records);
    this.evict();
    return records;
  }

  private keepTimes(key: string, records: readonly GenRecord[]): ChunkTimes {
    const old = this.times.get(key);
    if (old) {
      this.times.delete(key);
      this.indexedRecords -= old.t.length;
    }
    const n = records.length;
    const times: ChunkTimes = { t: new Float64Array(n), visibleAt: new Float64Array(n), shield: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      times.t[i] = r.t;
      times.visibleAt[i] = r.t + r.delay;
      times.shield[i] = r.shield ? 1 : 0;
    }
    this.times.set(key, times);
    this.indexedRecords += n;
    for (const [k, c] of this.times) {
      if (this.indexedRecords <= MAX_INDEXED_RECORDS) break;
      if (k === key) break;
      this.times.delete(k);
      this.indexedRecords -= c.t.length;
    }
    return times;
  }

  /**
   * How many records of a chunk a query without a filter sees: from <= t < to, visible by `now`,
   * origin-shield ones only with includeShield. From the counts or the times kept; the chunk is
   * generated only when neither is at hand.
   */
  countVisible(zone: PullZoneSeed, index: number, from: number, to: number, now: number, includeShield: boolean): number {
    const start = this.chunkStart(index);
    if (start >= from && start + CHUNK_MS <= to) {
      const known = this.visibleCount(zone, index, now, includeShield);
      if (known !== null) return known;
    }
    const key = `${zone.Id}:${index}`;
    let times = this.times.get(key);
    if (times) {
      this.times.delete(key);
      this.times.set(key, times);
    } else {
      const records = this.chunk(zone, index);
      // generating it kept its times; a chunk still cached may have had them dropped
      times = this.times.get(key) ?? this.keepTimes(key, records);
    }
    const { t, visibleAt, shield } = times;
    let n = 0;
    for (let i = 0; i < t.length; i++) {
      if (t[i]! < from || t[i]! >= to || visibleAt[i]! > now) continue;
      if (!includeShield && shield[i]) continue;
      n++;
    }
    return n;
  }

  private evict(): void {
    const now = this.world.now();
    if (now - this.lastSweep >= CHUNK_MS) {
      this.lastSweep = now;
      const oldest = this.chunkIndex(now - RETENTION_MS) - 1;
      for (const [key, c] of this.cache) {
        if (c.index >= oldest) continue;
        this.cache.delete(key);
        this.cachedRecords -= c.records.length;
      }
      for (const [key, c] of this.times) {
        if (Number(key.slice(key.indexOf(':') + 1)) >= oldest) continue;
        this.times.delete(key);
        this.indexedRecords -= c.t.length;
      }
      for (const key of this.counts.keys()) if (Number(key.slice(key.indexOf(':') + 1)) < oldest) this.counts.delete(key);
    }
    // Least recently used first; a dropped chunk is regenerated identically when needed again.
    for (const [key, c] of this.cache) {
      if (this.cachedRecords <= MAX_CACHED_RECORDS) break;
      this.cache.delete(key);
      this.cachedRecords -= c.records.length;
    }
  }

  /**
   * How many records of a chunk a query sees, when that is known without generating it: the chunk
   * was generated before and every record of it is visible by `now`. Null otherwise.
   */
  visibleCount(zone: PullZoneSeed, index: number, now: number, includeShield: boolean): number | null {
    const c = this.counts.get(`${zone.Id}:${index}`);
    if (!c || now < c.settledAt) return null;
    return includeShield ? c.all : c.withoutShield;
  }

  /** Generated records held in memory now (for tests of the memory bound). */
  get cachedRecordCount(): number {
    return this.cachedRecords;
  }

  private generate(zone: PullZoneSeed, index: number): GenRecord[] {
    // Generated whether logging is on or not (the routes check it), so toggling it at run time works.
    if (zone.trafficWeight <= 0) return [];
    const m = this.model(zone);
    const r = this.base.fork(`chunk:${zone.Id}:${index}`);
    const start = this.chunkStart(index);
    const ep = this.episode(zone, index);
    const sparse = start + CHUNK_MS <= this.world.startedAt - HISTORY_MS ? SPARSE_FACTOR : 1;
    const expected = this.world.options.logRate * zone.trafficWeight * (CHUNK_MS / 1000) * ep.mult * sparse * (0.75 + r.next() * 0.5);
    const count = Math.min(MAX_CHUNK_RECORDS, Math.floor(expected) + (r.next() < expected % 1 ? 1 : 0));
    const times = new Float64Array(count);
    for (let i = 0; i < count; i++) times[i] = start + Math.floor(r.next() * CHUNK_MS);
    times.sort();
    const delay = this.world.options.ingestDelayMs * m.lagFactor;
    const hotClient = m.clients[ep.hot % m.clients.length]!;
    const out: GenRecord[] = new Array(count);
    for (let i = 0; i < count; i++) {
      out[i] = this.record(m, r, ep, hotClient, times[i]!, Math.floor(r.next() * (delay + 1)), index, i);
    }
    return out;
  }

  private path(m: ZoneModel, r: Random, tpl: PathTemplate): string {
    const parts = tpl.parts;
    let path = parts[0]!;
    let unique = false;
    for (let k = 1; k < parts.length; k += 2) {
      const key = parts[k];
      if (key === 'n') path += r.int(1, 4000);
      else if (key === 'p') path += r.int(1, 40);
      else if (key === 'q') path += r.pick(SEARCH_TERMS);
      else {
        path += r.hex(8);
        unique = true;
      }
      path += parts[k + 1]!;
    }
    if (unique) return path;
    const known = m.interned.get(path);
    if (known !== undefined) return known;
    if (m.interned.size < MAX_INTERNED_PATHS) m.interned.set(path, path);
    return path;
  }

  private record(m: ZoneModel, r: Random, ep: Episode, hot: Client, t: number, delay: number, chunk: number, i: number): GenRecord {
    const n = m.clients.length;
    // Skewed towards the first clients so that "top IPs" means something; bursts come from one client.
    const client = ep.mult > 2 && r.bool(0.45) ? hot : m.clients[Math.floor(n * r.next() ** 2.2)]!;
    const probe = (client.bot && r.bool(0.25)) || r.bool(0.01);
    let path: string;
    let size: number;
    let cacheable: boolean;
    if (probe) {
      path = r.pick(PROBE_PATHS);
      size = 500;
      cacheable = false;
    } else {
      const tpl = m.paths[m.pathPick.index(r)]!;
      path = this.path(m, r, tpl);
      size = tpl.size;
      cacheable = tpl.cacheable;
    }
    let cacheStatus = (cacheable ? CACHEABLE_STATUS : DYNAMIC_STATUS).draw(r);
    let status = 200;
    const toOrigin = cacheStatus === 'MISS' || cacheStatus === 'BYPASS' || cacheStatus === '-' || cacheStatus === 'REVALIDATED';
    if (probe) {
      status = r.bool(0.8) ? 404 : 403;
      cacheStatus = r.bool(0.7) ? 'MISS' : 'BYPASS';
    } else if (ep.errors === '5xx' && toOrigin && r.bool(0.35)) {
      status = ERROR_5XX.draw(r);
    } else if (ep.errors === '4xx' && r.bool(0.3)) {
      status = ERROR_4XX.draw(r);
    } else {
      const roll = r.next();
      if (cacheStatus === 'REVALIDATED' && roll < 0.5) status = 304;
      else if (path.endsWith('.ts') && roll < 0.3) status = 206;
      else if (roll < 0.012) status = r.bool() ? 301 : 302;
      else if (roll < 0.03) status = 404;
      else if (roll < 0.034) status = 403;
      else if (toOrigin && roll < 0.037) status = ERROR_5XX.draw(r);
    }
    let bytes: number;
    if (status === 304) bytes = r.int(180, 420);
    else if (status >= 300 && status !== 206) bytes = r.int(250, 1600);
    else bytes = Math.max(80, Math.round(size * (0.4 + r.next() * 1.2)));
    let contentRange: string | null = null;
    if (status === 206) {
      const total = bytes * r.int(2, 8);
      const from = r.int(0, total - bytes);
      contentRange = `bytes ${from}-${from + bytes - 1}/${total}`;
    }
    const header = r.int(240, 720);
    const scheme = r.bool(0.93) ? 'https' : 'http';
    const hostIndex = r.bool(0.3) ? 0 : m.hosts.length - 1;
    const host = m.hosts[hostIndex]!;
    let referer: string | null = null;
    const refRoll = r.next();
    if (refRoll < 0.35) referer = r.pick(m.referers[hostIndex]!);
    else if (refRoll < 0.55) referer = r.pick(REFERER_SITES);
    const ua = client.bot ? client.ua : r.bool(0.01) ? null : client.ua;
    return {
      t,
      delay,
      shield: toOrigin && r.bool(0.04),
      pullZoneId: m.zone.Id,
      requestId: makeRequestId(this.world.seed, m.zone.Id, chunk, i),
      cacheStatus,
      statusCode: status,
      bytesSent: bytes + header,
      remoteIp: client.ip,
      countryCode: client.country,
      // chunks before the start have negative indexes
      edgeLocation: client.edges[(((i + chunk) % client.edges.length) + client.edges.length) % client.edges.length]!,
      scheme,
      host,
      path,
      userAgent: ua,
      referer: client.bot ? null : referer,
      bodyBytesSent: m.extended ? bytes : null,
      contentRange: m.extended ? contentRange : null,
      ja4Fingerprint: scheme === 'https' ? client.ja4 : null,
      asn: client.asn,
      asnOrganization: client.org,
    };
  }
}

/** Every cache status value the generator writes. */
export const GENERATED_CACHE_STATUSES: readonly string[] = CACHE_STATUSES;
