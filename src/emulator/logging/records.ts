import type { PullZoneSeed } from '../world';
import { RETENTION_MS, type GenRecord, type TrafficStore } from './traffic';

export interface CollectOptions {
  from: number;
  to: number;
  now: number;
  includeShield: boolean;
  /** Also return records whose ingestion delay has not passed yet (tests compare against these). */
  includeInvisible?: boolean;
  match?: (r: GenRecord) => boolean;
}

/** Matching records with from <= t < to, inside retention, oldest first. */
export function collectRecords(store: TrafficStore, zone: PullZoneSeed, o: CollectOptions): GenRecord[] {
  const lo = Math.max(o.from, o.now - RETENTION_MS);
  const hi = o.includeInvisible ? o.to : Math.min(o.to, o.now + 1);
  const out: GenRecord[] = [];
  if (lo >= hi) return out;
  const first = store.chunkIndex(lo);
  const last = store.chunkIndex(hi - 1);
  for (let c = first; c <= last; c++) {
    const records = store.chunk(zone, c);
    for (let i = 0; i < records.length; i++) {
      const r = records[i]!;
      if (r.t < lo || r.t >= hi) continue;
      if (!o.includeInvisible && r.t + r.delay > o.now) continue;
      if (!o.includeShield && r.shield) continue;
      if (o.match && !o.match(r)) continue;
      out.push(r);
    }
  }
  return out;
}

export interface PageOptions {
  from: number;
  to: number;
  now: number;
  includeShield: boolean;
  match?: (r: GenRecord) => boolean;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * One page of the visible matching records with from <= t < to, in `order`, after skipping
 * `offset` of them; hasMore when at least one more follows. Walks the chunks from the page's end
 * of the window and skips whole chunks by their count (without a filter), so a deep offset into a
 * busy hour generates only the chunks the page takes records from, not the hour.
 */
export function pageRecords(store: TrafficStore, zone: PullZoneSeed, o: PageOptions): { page: GenRecord[]; hasMore: boolean } {
  const lo = Math.max(o.from, o.now - RETENTION_MS);
  const hi = Math.min(o.to, o.now + 1);
  const page: GenRecord[] = [];
  if (lo >= hi) return { page, hasMore: false };
  const first = store.chunkIndex(lo);
  const last = store.chunkIndex(hi - 1);
  const asc = o.order === 'asc';
  let skip = o.offset;
  for (let c = asc ? first : last; asc ? c <= last : c >= first; c += asc ? 1 : -1) {
    if (!o.match) {
      const n = store.countVisible(zone, c, lo, hi, o.now, o.includeShield);
      if (page.length >= o.limit && n > 0) return { page, hasMore: true };
      if (n <= skip) {
        skip -= n;
        continue;
      }
    }
    const records = store.chunk(zone, c);
    for (let k = 0; k < records.length; k++) {
      const r = records[asc ? k : records.length - 1 - k]!;
      if (r.t < lo || r.t >= hi) continue;
      if (r.t + r.delay > o.now) continue;
      if (!o.includeShield && r.shield) continue;
      if (o.match && !o.match(r)) continue;
      if (skip > 0) skip--;
      else if (page.length < o.limit) page.push(r);
      else return { page, hasMore: true };
    }
  }
  return { page, hasMore: false };
}

/** The v2 LogEntry of a generated record (every property of the schema, nulls included). */
export function toLogEntry(r: GenRecord): Record<string, unknown> {
  return {
    timestamp: new Date(r.t).toISOString(),
    pullZoneId: r.pullZoneId,
    requestId: r.requestId,
    cacheStatus: r.cacheStatus,
    statusCode: r.statusCode,
    bytesSent: r.bytesSent,
    remoteIp: r.remoteIp,
    countryCode: r.countryCode,
    edgeLocation: r.edgeLocation,
    scheme: r.scheme,
    host: r.host,
    path: r.path,
    url: `${r.scheme}://${r.host}${r.path}`,
    userAgent: r.userAgent,
    referer: r.referer,
    bodyBytesSent: r.bodyBytesSent,
    contentRange: r.contentRange,
    authorizationHeader: null,
    ja4Fingerprint: r.ja4Fingerprint,
    asn: r.asn,
    asnOrganization: r.asnOrganization,
  };
}

/** One v1 line: cache|status|timestamp-ms|bytes|pullzone|ip|referer|url|edge|user-agent|request-id|country. */
export function toV1Line(r: GenRecord): string {
  return `${r.cacheStatus}|${r.statusCode}|${r.t}|${r.bytesSent}|${r.pullZoneId}|${r.remoteIp ?? '-'}|${r.referer ?? '-'}|${r.scheme}://${r.host}${r.path}|${r.edgeLocation}|${r.userAgent ?? '-'}|${r.requestId}|${r.countryCode ?? '-'}`;
}
