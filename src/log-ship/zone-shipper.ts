import { ApiError } from '../api/errors';
import { RETENTION_MS } from '../api/logs/query';
import type { LogsApi } from '../api/logs/index';
import { pageLines, type PageLines } from './page-lines';
import { StoreError, type LogStore } from './store';
import type { ShipEvents } from './ship-events';

/**
 * One zone's shipping, as a loop over time segments [a, b):
 *
 * - A segment is read from the platform oldest first, paging by time (the next page starts at
 *   the last record's millisecond, its records already read skipped), so records that appear
 *   meanwhile cannot shift a page boundary. Up to `depth` segments are read ahead; they are
 *   stored strictly in order, so reading stops when ClickHouse does not take them (memory stays
 *   bounded) and goes on where it stopped when it does.
 * - Exactly once without FINAL: records newer than everything stored for the zone (`storedMax`)
 *   cannot be in the table (one shipper per zone: the lease), so they are inserted as they are;
 *   a segment reaching back to `storedMax` or before is first checked against the request ids
 *   stored in its time range and only the missing records are inserted. After a failed insert
 *   (which may have been applied) `storedMax` covers the segment, so the retry is checked too.
 * - The checkpoint (every record before it is stored) is written into ClickHouse after the
 *   records before it were acknowledged, and only moves over segments that were read once they
 *   were settled (their end older than the read's time minus `settleMs`, past which the platform
 *   adds no late records). The live end is read as records come and is read again (a sweep) once
 *   settled, so a late record is stored when it shows up, and once.
 * - A restart (after kill -9 too) starts from the checkpoint and checks everything up to the
 *   newest stored record: nothing is repeated, nothing is skipped.
 */

export interface ZoneShipOptions {
  zone: number;
  logs: Pick<LogsApi, 'queryBytes' | 'budget' | 'now'>;
  store: LogStore;
  events: ShipEvents;
  /** Follow: start `sinceMs` back for a zone never shipped. */
  sinceMs: number;
  /** Bounded mode: the window [from, to). */
  window: { from: number; to: number } | null;
  /** How long the platform may take to show a record (the checkpoint trails the live end by this). */
  settleMs: number;
  /** Segments read ahead of the one being stored. */
  depth: number;
  /** Segments read and not yet stored, over every zone: what bounds memory when many zones ship. */
  inFlight: { count: number; max: number };
  /** Records a segment aims at (one page: 10,000 at most). */
  segmentRecords: number;
  /** Between polls at the live end. */
  pollMs: number;
  /** Wall clock for waiting (tests speed the platform's clock, not this one). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface ZoneShipStatus {
  zone: number;
  state: 'starting' | 'backfilling' | 'following' | 'waiting for ClickHouse' | 'settling' | 'done' | 'stopped' | 'failed';
  /** Read up to (epoch ms). */
  cursor: number;
  checkpoint: number;
  stored: number;
  /** Records read but not yet acknowledged by ClickHouse. */
  backlog: number;
  /** Records the platform sent that were stored already (late overlap, restarts). */
  skipped: number;
  error: string | null;
}

interface Segment {
  a: number;
  b: number;
  /** Platform time when its last page was read. */
  readAt: number;
  pages: PageLines[];
  records: number;
}

const PAGE = 10_000;

/** How far behind its checkpoint a zone shipped before is read again (and checked) on restart. */
export const RESTART_OVERLAP_MS = 10 * 60_000;

export class ZoneShipper {
  readonly status: ZoneShipStatus;
  private storedMax = -Infinity;
  private density = 0; // records per ms, from the last segment read
  private lastCheckpointWrite = 0;
  private checkpointWritten = -Infinity;
  private readonly kind: string;

  constructor(
    private readonly o: ZoneShipOptions,
    private readonly stop: AbortSignal,
    private readonly fetchStop: AbortSignal,
  ) {
    this.status = { zone: o.zone, state: 'starting', cursor: 0, checkpoint: 0, stored: 0, backlog: 0, skipped: 0, error: null };
    this.kind = o.window ? `checkpoint:${o.window.from}:${o.window.to}` : 'checkpoint';
  }

  private get now(): number {
    return this.o.logs.now();
  }

  /** Runs until the window is stored (bounded), or until stopped. Throws on a zone that cannot be read. */
  async run(): Promise<void> {
    await this.init();
    const w = this.o.window;
    while (!this.stop.aborted) {
      const now = this.now;
      const settled = now - this.o.settleMs;
      if (w) {
        if (this.status.checkpoint >= w.to) break;
        if (this.status.cursor < w.to) await this.ship(this.status.cursor, w.to, true);
        else if (settled >= w.to) await this.ship(this.status.checkpoint, w.to, false);
        else {
          this.status.state = 'settling';
          await this.o.sleep(Math.min(this.o.pollMs * 5, w.to - settled + 10), this.stop);
        }
        continue;
      }
      let worked = false;
      if (this.status.cursor < now - this.o.pollMs) {
        await this.ship(this.status.cursor, now, true);
        worked = true;
      }
      const sweepTo = Math.min(settled, this.status.cursor);
      if (!this.stop.aborted && sweepTo - this.status.checkpoint >= Math.max(30_000, this.o.pollMs)) {
        await this.ship(this.status.checkpoint, sweepTo, false);
        worked = true;
      }
      if (!worked && !this.stop.aborted) {
        // caught up: the checkpoint held back by the write throttle is written now
        await this.saveCheckpoint(true).catch(() => {});
        this.status.state = 'following';
        await this.o.sleep(this.o.pollMs, this.stop);
      }
    }
    await this.saveCheckpoint(true);
    this.status.state = this.stop.aborted && !(w && this.status.checkpoint >= w.to) ? 'stopped' : 'done';
  }

  private async init(): Promise<void> {
    const { store, zone } = this.o;
    const [cp, newest] = await this.retryStore('read the checkpoint', async () => [await this.readCheckpoint(), await store.newestStored(zone)] as const);
    this.storedMax = newest ?? -Infinity;
    const oldest = this.now - RETENTION_MS + 60_000;
    // a zone shipped before starts behind its checkpoint: records that showed up late, after it
    // was written, are read again with the overlap and stored if missing
    const resume = cp === null ? null : cp - Math.max(this.o.settleMs, RESTART_OVERLAP_MS);
    let start: number;
    if (this.o.window) start = cp !== null && cp >= this.o.window.to ? cp : Math.max(this.o.window.from, resume ?? -Infinity);
    else start = resume ?? this.now - this.o.sinceMs;
    if (start < oldest) {
      this.o.events.emit('warn', {
        zone,
        msg: 'checkpoint older than the platform keeps: records before it are gone',
        checkpoint: new Date(start).toISOString(),
      });
      start = oldest;
    }
    this.status.cursor = start;
    this.status.checkpoint = start;
    this.checkpointWritten = cp ?? -Infinity;
    this.o.events.emit('start', {
      zone,
      from: new Date(start).toISOString(),
      resumed: cp !== null,
      ...(this.o.window ? { to: new Date(this.o.window.to).toISOString() } : {}),
    });
  }

  private async readCheckpoint(): Promise<number | null> {
    return (await this.o.store.readState(this.o.zone, this.kind))?.value ?? null;
  }

  /** Reads [a, b) in segments (up to `depth` ahead) and stores them in order. `advance`: moves the cursor. */
  private async ship(a: number, b: number, advance: boolean): Promise<void> {
    if (this.status.state === 'starting' || this.status.state === 'following' || this.status.state === 'settling') {
      this.status.state = b - a > 5 * 60_000 ? 'backfilling' : this.o.window ? 'backfilling' : 'following';
    }
    const pending: { seg: Promise<Segment>; a: number; b: number }[] = [];
    let next = a;
    const shared = this.o.inFlight;
    const launch = () => {
      // the first segment of a zone always goes: a zone is never starved by the others
      while (pending.length < this.o.depth && next < b && !this.fetchStop.aborted && (pending.length === 0 || shared.count < shared.max)) {
        const end = Math.min(b, next + this.segmentLength());
        shared.count++;
        const seg = this.fetch(next, end);
        seg.catch(() => {}); // awaited in order below
        pending.push({ seg, a: next, b: end });
        next = end;
      }
    };
    launch();
    while (pending.length > 0) {
      const head = pending.shift()!;
      let seg: Segment;
      try {
        seg = await head.seg;
      } catch (error) {
        shared.count--;
        if (this.fetchStop.aborted) break;
        throw error;
      }
      launch();
      this.status.backlog = seg.records + pending.length * Math.round(this.segmentLength() * this.density);
      try {
        await this.store(seg);
      } finally {
        shared.count--;
      }
      if (advance) this.status.cursor = Math.max(this.status.cursor, seg.b);
      // settled when read: nothing more will come for it; the checkpoint moves over it
      if (seg.b <= seg.readAt - this.o.settleMs && seg.a <= this.status.checkpoint) this.status.checkpoint = Math.max(this.status.checkpoint, seg.b);
      await this.saveCheckpoint(false);
      if (this.stop.aborted) break;
    }
    shared.count -= pending.length;
    this.status.backlog = 0;
  }

  private segmentLength(): number {
    if (this.density <= 0) return 30_000;
    return Math.min(10 * 60_000, Math.max(1000, Math.round(this.o.segmentRecords / this.density)));
  }

  /** One segment from the platform: pages by time, oldest first; transient failures retried. */
  private async fetch(a: number, b: number): Promise<Segment> {
    const pages: PageLines[] = [];
    let from = a;
    let offset = 0;
    let atFrom = new Set<string>();
    let records = 0;
    let readAt = this.now;
    for (let attempt = 0; ;) {
      let page: PageLines;
      try {
        readAt = this.now;
        const body = await this.o.logs.queryBytes(this.o.zone, { from, to: b, order: 'asc', limit: PAGE, offset }, { signal: this.fetchStop, retries: 3 });
        page = pageLines(body, this.o.zone, this.o.store.form);
        this.o.events.request(this.o.zone, 200);
        attempt = 0;
      } catch (error) {
        if (this.fetchStop.aborted) throw error;
        const status = error instanceof ApiError ? (error.status ?? 0) : 0;
        this.o.events.request(this.o.zone, status);
        if (error instanceof ApiError && !(error.transient || error.kind === 'malformed')) throw error;
        attempt++;
        const wait = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
        this.o.events.emit('platform-retry', { zone: this.o.zone, error: (error as Error).message, retry_in_ms: wait });
        await this.o.sleep(wait, this.fetchStop);
        continue;
      }
      const kept = dropSeen(page, from, atFrom);
      if (kept.count > 0) pages.push(kept);
      records += kept.count;
      if (!page.hasMore || page.count === 0) break;
      const last = page.times[page.count - 1]!;
      if (last === from) offset += page.returned;
      else {
        from = last;
        offset = 0;
        atFrom = new Set();
      }
      for (let i = page.count - 1; i >= 0 && page.times[i] === from; i--) atFrom.add(page.ids[i]!);
    }
    const span = Math.max(1000, b - a);
    this.density = records / span;
    return { a, b, readAt, pages, records };
  }

  /** Stores a segment's records that are not stored yet; retries until ClickHouse takes them. */
  private async store(seg: Segment): Promise<void> {
    if (seg.records === 0) return;
    let minT = Infinity;
    let maxT = -Infinity;
    for (const p of seg.pages) {
      minT = Math.min(minT, p.times[0]!);
      maxT = Math.max(maxT, p.times[p.count - 1]!);
    }
    for (let attempt = 0; ; attempt++) {
      try {
        let lines: Buffer;
        let count = seg.records;
        if (minT <= this.storedMax) {
          const stored = await this.o.store.storedIds(this.o.zone, minT, maxT);
          const kept = keepMissing(seg.pages, stored);
          lines = kept.lines;
          this.status.skipped += seg.records - kept.count;
          count = kept.count;
        } else lines = seg.pages.length === 1 ? seg.pages[0]!.bytes : Buffer.concat(seg.pages.map((p) => p.bytes));
        if (count > 0) {
          // from here on a retry must check: this insert may be applied even if its answer is lost
          this.storedMax = Math.max(this.storedMax, maxT);
          await this.o.store.insert(lines);
          this.status.stored += count;
          this.o.events.stored(this.o.zone, count, maxT);
        }
        if (this.status.state === 'waiting for ClickHouse') {
          this.status.state = 'backfilling';
          this.o.events.emit('store-back', { zone: this.o.zone });
        }
        this.status.error = null;
        return;
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        const wait = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
        this.status.state = 'waiting for ClickHouse';
        this.status.error = error.message;
        this.o.events.insertError(this.o.zone);
        this.o.events.emit('store-retry', { zone: this.o.zone, error: error.message, retry_in_ms: wait, waiting_records: seg.records });
        // stopping: one try is owed to the records in flight, no more
        if (this.stop.aborted) throw error;
        await this.o.sleep(wait, this.stop).catch(() => {});
      }
    }
  }

  private async saveCheckpoint(force: boolean): Promise<void> {
    const cp = this.status.checkpoint;
    if (cp <= this.checkpointWritten) return;
    if (!force && Date.now() - this.lastCheckpointWrite < 1000) return;
    try {
      await this.o.store.writeState(this.o.zone, this.kind, {
        value: cp,
        owner: '',
        host: '',
        pid: process.pid,
        writtenMs: Math.max(Date.now(), this.lastCheckpointWrite + 1),
      });
      this.lastCheckpointWrite = Date.now();
      this.checkpointWritten = cp;
    } catch (error) {
      // the records are stored; the checkpoint is written with the next segment
      if (!(error instanceof StoreError)) throw error;
      if (force) throw error;
    }
  }

  private async retryStore<T>(what: string, f: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await f();
      } catch (error) {
        if (!(error instanceof StoreError) || this.stop.aborted) throw error;
        const wait = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
        this.status.state = 'waiting for ClickHouse';
        this.o.events.emit('store-retry', { zone: this.o.zone, error: `${what}: ${error.message}`, retry_in_ms: wait });
        await this.o.sleep(wait, this.stop);
      }
    }
  }
}

/** The page without the records at `from` already read (a time page starts at the last one's millisecond). */
function dropSeen(page: PageLines, from: number, seen: ReadonlySet<string>): PageLines {
  if (seen.size === 0 || page.count === 0 || page.times[0] !== from) return page;
  const keep: number[] = [];
  for (let i = 0; i < page.count; i++) if (!(page.times[i] === from && seen.has(page.ids[i]!))) keep.push(i);
  return keep.length === page.count ? page : subset(page, keep);
}

function subset(page: PageLines, keep: readonly number[]): PageLines {
  const parts: Buffer[] = [];
  const starts = new Int32Array(keep.length + 1);
  let len = 0;
  keep.forEach((i, k) => {
    starts[k] = len;
    const line = page.bytes.subarray(page.starts[i]!, page.starts[i + 1]!);
    parts.push(line);
    len += line.length;
  });
  starts[keep.length] = len;
  return {
    bytes: Buffer.concat(parts, len),
    starts,
    times: Float64Array.from(keep, (i) => page.times[i]!),
    ids: keep.map((i) => page.ids[i]!),
    count: keep.length,
    returned: page.returned,
    hasMore: page.hasMore,
  };
}

/** The lines of records whose id is not stored (a record without an id is always kept). */
function keepMissing(pages: readonly PageLines[], stored: ReadonlySet<string>): { lines: Buffer; count: number } {
  const parts: Buffer[] = [];
  let count = 0;
  for (const p of pages) {
    for (let i = 0; i < p.count; i++) {
      const id = p.ids[i]!;
      if (id !== '' && stored.has(id)) continue;
      parts.push(p.bytes.subarray(p.starts[i]!, p.starts[i + 1]!));
      count++;
    }
  }
  return { lines: Buffer.concat(parts), count };
}
