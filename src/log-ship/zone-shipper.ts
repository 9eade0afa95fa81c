import { ApiError } from '../api/errors';
import { RETENTION_MS } from '../api/logs/query';
import type { LogsApi } from '../api/logs/index';
import { linesOf, pageLines, releaseLines, type PageLines } from './page-lines';
import type { InFlight } from './in-flight';
import type { RequestOrder } from './request-order';
import { StoreError, type LogStore, type RejectedRow } from './store';
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
  /** Batches of the zone held at once: the one being stored and those read ahead. */
  depth: number;
  /** Batches read and not yet stored, over every zone: what bounds memory when many zones ship. */
  inFlight: InFlight;
  /** Which zones' requests go first (the rate-bound ones); shared by every zone. */
  order: RequestOrder;
  /** Records per page asked of the platform (10,000 at most). */
  pageRecords: number;
  /** Records a batch (one insert) aims at: whole pages until the platform sent this many. */
  batchRecords: number;
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
  /** Records ClickHouse refused (a data error), put aside in the rejected table. */
  rejected: number;
  error: string | null;
}

/** Records of [a, b) read from the platform in one go (every record before b was read). */
interface Batch {
  a: number;
  b: number;
  /** Platform time when its first page was read. */
  readAt: number;
  pages: PageLines[];
  records: number;
}

/** Where a zone's reading of [from, to) stands: paging by time, `offset` records into `from`, whose ids read are `atFrom`. */
interface PageStream {
  /** Where the stream began, and the records it read since: its records' density, for the pages it has left. */
  start: number;
  read: number;
  from: number;
  to: number;
  offset: number;
  atFrom: Set<string>;
  done: boolean;
}

/** A first page asked for early: [from, to) at platform time `at`; its body, or null when that failed. */
interface EarlyPage {
  from: number;
  to: number;
  at: number;
  body: Promise<Buffer | null>;
}

/** How far behind its checkpoint a zone shipped before is read again (and checked) on restart. */
export const RESTART_OVERLAP_MS = 10 * 60_000;

export class ZoneShipper {
  readonly status: ZoneShipStatus;
  private storedMax = -Infinity;
  private lastCheckpointWrite = 0;
  private checkpointWritten = -Infinity;
  private readonly kind: string;
  /** The first page, asked for before the store was ready (see prefetch). */
  private early: EarlyPage | null = null;

  constructor(
    private readonly o: ZoneShipOptions,
    private readonly stop: AbortSignal,
    private readonly fetchStop: AbortSignal,
  ) {
    this.status = { zone: o.zone, state: 'starting', cursor: 0, checkpoint: 0, stored: 0, backlog: 0, skipped: 0, rejected: 0, error: null };
    this.kind = o.window ? `checkpoint:${o.window.from}:${o.window.to}` : 'checkpoint';
  }

  private get now(): number {
    return this.o.logs.now();
  }

  /** Where a zone never shipped into the table starts: the window's start, or --since back (never past what the platform keeps). */
  private freshStart(now: number): number {
    const start = this.o.window ? this.o.window.from : now - this.o.sinceMs;
    return Math.max(start, now - RETENTION_MS + 60_000);
  }

  /**
   * Asks for the zone's first page while the store is being prepared, the lease taken and the
   * checkpoint read (a dozen round trips to ClickHouse), as if the zone was never shipped: when
   * it was not, its first page is there when it starts. Otherwise (a checkpoint elsewhere) the
   * page is dropped: one request of the zone's budget spent, as when the lease is refused. Only
   * the reading is early: nothing is stored before the lease is held and the stored records known.
   */
  prefetch(): void {
    if (this.early || this.fetchStop.aborted) return;
    const now = this.now;
    const from = this.freshStart(now);
    const to = this.o.window ? this.o.window.to : now;
    if (from >= to) return;
    this.o.events.debug('want', { zone: this.o.zone, early: true });
    const body = this.o.logs
      .queryBytes(this.o.zone, { from, to, order: 'asc', limit: this.o.pageRecords, offset: 0 }, { signal: this.fetchStop, retries: 0 })
      // any failure: the page is asked for again the usual way, with its retries and error lines
      .catch(() => null);
    this.o.order.sent();
    this.early = { from, to, at: now, body };
  }

  /** The early first page when the stream starts where it was read, else null (dropped). */
  private takeEarly(stream: PageStream): EarlyPage | null {
    const early = this.early;
    this.early = null;
    if (!early || early.from !== stream.from || early.to !== stream.to || stream.offset !== 0) return null;
    return early;
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
        // the first read goes to where the early page was read up to, so that it is used
        await this.ship(this.status.cursor, this.early?.from === this.status.cursor ? this.early.to : now, true);
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
    const [cp, newest] = await this.retryStore('read the checkpoint', () => Promise.all([this.readCheckpoint(), store.newestStored(zone)]));
    this.storedMax = newest ?? -Infinity;
    const oldest = this.now - RETENTION_MS + 60_000;
    // a zone shipped before starts behind its checkpoint: records that showed up late, after it
    // was written, are read again with the overlap and stored if missing
    const resume = cp === null ? null : cp - Math.max(this.o.settleMs, RESTART_OVERLAP_MS);
    let start: number;
    if (this.o.window) start = cp !== null && cp >= this.o.window.to ? cp : Math.max(this.o.window.from, resume ?? -Infinity);
    else start = resume ?? this.now - this.o.sinceMs;
    // a zone never shipped follows from where its early page was read (--since back from a moment ago)
    if (cp === null && !this.o.window && this.early) start = this.early.from;
    if (start < oldest) {
      this.o.events.emit('warn', {
        zone,
        msg: 'checkpoint older than the platform keeps: records before it are gone',
        checkpoint: new Date(start).toISOString(),
      });
      start = oldest;
    }
    if (this.early && this.early.from !== start) this.early = null;
    this.status.cursor = start;
    this.status.checkpoint = start;
    this.checkpointWritten = cp ?? -Infinity;
    this.o.events.debug('resumed', { zone });
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

  /**
   * Reads [a, b) as one stream of pages, cut into batches, and stores the batches in order while
   * the next ones are read (up to `depth` batches of the zone held, fewer when the zones together
   * hold `inFlight.max`). `advance`: moves the cursor.
   */
  private async ship(a: number, b: number, advance: boolean): Promise<void> {
    if (this.status.state === 'starting' || this.status.state === 'following' || this.status.state === 'settling') {
      this.status.state = b - a > 5 * 60_000 ? 'backfilling' : this.o.window ? 'backfilling' : 'following';
    }
    // records newer than this were never stored: only the older part of a batch is checked
    const checkBelow = this.storedMax;
    const stream: PageStream = { start: a, read: 0, from: a, to: b, offset: 0, atFrom: new Set(), done: false };
    const local = new AbortController();
    const onStop = () => local.abort();
    if (this.fetchStop.aborted) local.abort();
    else this.fetchStop.addEventListener('abort', onStop, { once: true });
    const slots = this.o.inFlight;
    const ready: Batch[] = [];
    let held = 0; // batches of this zone being read, waiting or being stored
    let ended = false;
    let failure: unknown = null;
    let wake: (() => void) | null = null;
    const signal = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const order = this.o.order;
    const zone = this.o.zone;
    const produce = async () => {
      let start = a;
      try {
        // the first batch of a zone always goes: a zone is never starved by the others
        const mayTake = () => held === 0 || (held < order.depth(zone, this.o.depth, slots.max) && slots.count < slots.max);
        while (!stream.done && !local.signal.aborted) {
          for (;;) {
            // the zone with the most pages left goes first (request-order.ts)
            if (order.may(zone)) await order.turn(zone, local.signal);
            else {
              const since = performance.now();
              await order.turn(zone, local.signal);
              this.o.events.debug('held', { zone, ms: Math.round(performance.now() - since) });
            }
            if (mayTake()) break;
            // waiting for its own inserts, the zone lets the others read (never between two pages)
            order.active(zone, false, true);
            await slots.until(mayTake, local.signal);
          }
          await slots.take(mayTake, local.signal);
          held++;
          let batch: Batch;
          try {
            batch = await this.readBatch(stream, start, local.signal);
          } catch (error) {
            held--;
            slots.release();
            throw error;
          } finally {
            order.read(zone);
          }
          start = batch.b;
          if (batch.records === 0) {
            held--;
            slots.release();
            if (advance) this.status.cursor = Math.max(this.status.cursor, batch.b);
            this.moveCheckpoint(batch);
            continue;
          }
          ready.push(batch);
          this.status.backlog += batch.records;
          signal();
        }
      } catch (error) {
        if (!local.signal.aborted) failure = error;
      } finally {
        order.active(zone, false);
        ended = true;
        signal();
      }
    };
    const producer = produce();
    try {
      for (;;) {
        while (ready.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        const batch = ready.shift();
        if (!batch) break;
        try {
          await this.store(batch, checkBelow);
          for (const page of batch.pages) releaseLines(page);
        } finally {
          held--;
          this.status.backlog = Math.max(0, this.status.backlog - batch.records);
          slots.release();
        }
        if (advance) this.status.cursor = Math.max(this.status.cursor, batch.b);
        this.moveCheckpoint(batch);
        await this.saveCheckpoint(false);
        if (this.stop.aborted) break;
      }
      if (failure) throw failure;
    } finally {
      local.abort();
      this.fetchStop.removeEventListener('abort', onStop);
      await producer;
      for (const left of ready.splice(0)) {
        held--;
        slots.release();
        this.status.backlog = Math.max(0, this.status.backlog - left.records);
      }
    }
    this.status.backlog = 0;
  }

  /** Settled when read (nothing more will come for it): the checkpoint moves over it. */
  private moveCheckpoint(batch: Batch): void {
    if (batch.b <= batch.readAt - this.o.settleMs && batch.a <= this.status.checkpoint) this.status.checkpoint = Math.max(this.status.checkpoint, batch.b);
  }

  /** The next pages of the stream, up to `batchRecords` records: [start, b) where b is where the stream stands. */
  private async readBatch(stream: PageStream, start: number, signal: AbortSignal): Promise<Batch> {
    const pages: PageLines[] = [];
    let records = 0;
    let readAt = NaN;
    // counted as the platform sent them (a page repeats the records of the last millisecond read)
    let sent = 0;
    while (!stream.done && sent < this.o.batchRecords) {
      let at = this.now;
      const { page, count, askedAt } = await this.readPage(stream, signal);
      at = Math.min(at, askedAt);
      sent += count;
      // the platform time of the batch's first read: whatever was visible then is in it
      if (readAt !== readAt) readAt = at;
      if (page.count > 0) pages.push(page);
      records += page.count;
    }
    return { a: start, b: stream.done ? stream.to : stream.from, readAt: readAt === readAt ? readAt : this.now, pages, records };
  }

  /** One page from the platform at the stream's position (records already read left out); transient failures retried. */
  private async readPage(stream: PageStream, signal: AbortSignal): Promise<{ page: PageLines; count: number; askedAt: number }> {
    const early = this.takeEarly(stream);
    for (let attempt = 0; ;) {
      let page: PageLines;
      const from = stream.from;
      let askedAt = Number.POSITIVE_INFINITY;
      try {
        let body = early && attempt === 0 ? await early.body : null;
        if (body) askedAt = early!.at;
        else {
          this.o.events.debug('want', { zone: this.o.zone, used: this.o.logs.budget.state(String(this.o.zone)).used, first: this.o.order.first(this.o.zone) });
          const answer = this.o.logs.queryBytes(
            this.o.zone,
            { from, to: stream.to, order: 'asc', limit: this.o.pageRecords, offset: stream.offset },
            { signal, retries: 3 },
          );
          // the budget took a slot for it (or queued it): a zone that waited on this one may go
          this.o.order.sent();
          body = await answer;
        }
        page = pageLines(body, this.o.zone, this.o.store.form);
        this.o.events.request(this.o.zone, 200);
        this.o.events.debug('page', { zone: this.o.zone, records: page.count });
      } catch (error) {
        if (signal.aborted) throw error;
        const status = error instanceof ApiError ? (error.status ?? 0) : 0;
        this.o.events.request(this.o.zone, status);
        if (error instanceof ApiError && !(error.transient || error.kind === 'malformed')) throw error;
        attempt++;
        const wait = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
        this.o.events.emit('platform-retry', { zone: this.o.zone, error: (error as Error).message, retry_in_ms: wait });
        this.o.order.active(this.o.zone, false);
        await this.o.sleep(wait, signal);
        this.o.order.active(this.o.zone, true);
        continue;
      }
      const kept = dropSeen(page, from, stream.atFrom);
      stream.read += page.count;
      if (!page.hasMore || page.count === 0) stream.done = true;
      else {
        const last = page.times[page.count - 1]!;
        if (last === from) stream.offset += page.returned;
        else {
          stream.from = last;
          stream.offset = 0;
          stream.atFrom = new Set();
        }
        for (let i = page.count - 1; i >= 0 && page.times[i] === stream.from; i--) stream.atFrom.add(page.idAt(i));
      }
      this.o.order.estimate(this.o.zone, pagesLeft(stream, this.o.pageRecords));
      return { page: kept, count: page.count, askedAt };
    }
  }

  /** Stores a batch's records that are not stored yet; retries until ClickHouse takes them. */
  private async store(batch: Batch, checkBelow: number): Promise<void> {
    if (batch.records === 0) return;
    const minT = batch.pages[0]!.times[0]!;
    const lastPage = batch.pages[batch.pages.length - 1]!;
    const maxT = lastPage.times[lastPage.count - 1]!;
    let mayBeStored = false;
    for (let attempt = 0; ; attempt++) {
      try {
        let lines: Buffer[];
        let count = batch.records;
        let stored: ReadonlySet<string> | null = null;
        // only what may be stored already is checked: records older than the newest stored one,
        // or all of the batch after an insert of it failed (it may have been applied)
        const checkTo = mayBeStored ? maxT : Math.min(maxT, checkBelow);
        if (minT <= checkTo) {
          stored = await this.o.store.storedIds(this.o.zone, minT, checkTo);
          const kept = keepMissing(batch.pages, stored);
          lines = [kept.lines];
          this.status.skipped += batch.records - kept.count;
          count = kept.count;
        } else lines = batch.pages.map((p) => p.bytes);
        if (count > 0) {
          // from here on a retry must check: this insert may be applied even if its answer is lost
          mayBeStored = true;
          this.storedMax = Math.max(this.storedMax, maxT);
          this.o.events.debug('insert', { zone: this.o.zone, records: count });
          try {
            await this.o.store.insert(lines);
            this.status.stored += count;
            this.o.events.stored(this.o.zone, count, maxT);
          } catch (error) {
            if (!(error instanceof StoreError) || error.kind !== 'data') throw error;
            await this.storeRefused(rowsOf(batch.pages, stored), error);
          }
          this.o.events.debug('inserted', { zone: this.o.zone, records: count });
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
        this.o.events.emit('store-retry', { zone: this.o.zone, error: error.message, retry_in_ms: wait, waiting_records: batch.records });
        // stopping: one try is owed to the records in flight, no more
        if (this.stop.aborted) throw error;
        await this.o.sleep(wait, this.stop).catch(() => {});
      }
    }
  }

  /**
   * Rows ClickHouse refused together (a data error): they are sent again in parts, the row the
   * server named (or halves when it named none) apart, down to the single rows it refuses, which
   * are put aside in the rejected table. A transient failure on the way throws: the batch is then
   * retried whole and checked, so what went in meanwhile (stored or put aside) is not sent again.
   */
  private async storeRefused(rows: Row[], first: StoreError): Promise<void> {
    const refused: RejectedRow[] = [];
    const send = async (part: Row[], known: StoreError | null): Promise<void> => {
      let rest = part;
      let error = known;
      while (rest.length > 0) {
        if (!error) {
          try {
            await this.o.store.insert(Buffer.concat(rest.map((r) => r.line)));
            this.status.stored += rest.length;
            this.o.events.stored(this.o.zone, rest.length, rest[rest.length - 1]!.time);
            return;
          } catch (e) {
            if (!(e instanceof StoreError) || e.kind !== 'data') throw e;
            error = e;
          }
        }
        if (rest.length === 1) {
          const r = rest[0]!;
          refused.push({
            zone: this.o.zone,
            timeMs: r.time,
            id: r.id,
            line: r.line.toString('utf8').replace(/\n$/, ''),
            error: error.message.slice(0, 2000),
          });
          return;
        }
        const at = error.row !== null && error.row <= rest.length ? error.row : null;
        error = null;
        if (at !== null) {
          // the row the server named alone, those before it (read fine) in one go
          if (at > 1) await send(rest.slice(0, at - 1), null);
          await send([rest[at - 1]!], null);
          rest = rest.slice(at);
        } else {
          const mid = rest.length >> 1;
          await send(rest.slice(0, mid), null);
          rest = rest.slice(mid);
        }
      }
    };
    await send(rows, first);
    if (refused.length === 0) return;
    await this.o.store.insertRejected(refused);
    this.status.rejected += refused.length;
    this.o.events.rejected(this.o.zone, refused.length);
    this.o.events.emit(
      'rejected',
      {
        zone: this.o.zone,
        records: refused.length,
        first_request_id: refused[0]!.id,
        error: refused[0]!.error.slice(0, 300),
        put_aside_in: this.o.store.rejectedTable,
      },
      'warn',
    );
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
      this.o.events.debug('checkpoint', { zone: this.o.zone, at: new Date(cp).toISOString() });
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

/** Pages the stream has left, at the density of what it read so far (Infinity before it knows). */
export function pagesLeft(stream: Pick<PageStream, 'start' | 'read' | 'from' | 'to' | 'done'>, pageRecords: number): number {
  if (stream.done) return 0;
  const span = stream.from - stream.start;
  if (span <= 0 || stream.read === 0) return Number.POSITIVE_INFINITY;
  return Math.ceil(((stream.to - stream.from) * stream.read) / span / pageRecords);
}

/** The page without the records at `from` already read (a time page starts at the last one's millisecond). */
function dropSeen(page: PageLines, from: number, seen: ReadonlySet<string>): PageLines {
  if (seen.size === 0 || page.count === 0 || page.times[0] !== from) return page;
  const keep: number[] = [];
  for (let i = 0; i < page.count; i++) if (!(page.times[i] === from && seen.has(page.idAt(i)))) keep.push(i);
  if (keep.length === page.count) return page;
  // the usual case: the records read already are the first ones; the rest is a view, not a copy
  const first = keep[0] ?? page.count;
  if (keep.length === page.count - first) return tail(page, first);
  return subset(page, keep);
}

function tail(page: PageLines, first: number): PageLines {
  const base = page.starts[first]!;
  return linesOf(
    page.bytes.subarray(base),
    page.starts.subarray(first).map((x) => x - base),
    page.times.subarray(first),
    page.returned,
    page.hasMore,
  );
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
  return linesOf(
    Buffer.concat(parts, len),
    starts,
    Float64Array.from(keep, (i) => page.times[i]!),
    page.returned,
    page.hasMore,
  );
}

/** One record's line, for sending rows apart. */
interface Row {
  line: Buffer;
  time: number;
  id: string;
}

/** The batch's records not in `stored`, one by one. */
function rowsOf(pages: readonly PageLines[], stored: ReadonlySet<string> | null): Row[] {
  const rows: Row[] = [];
  for (const p of pages) {
    for (let i = 0; i < p.count; i++) {
      const id = p.idAt(i);
      if (stored && id !== '' && stored.has(id)) continue;
      rows.push({ line: p.bytes.subarray(p.starts[i]!, p.starts[i + 1]!), time: p.times[i]!, id });
    }
  }
  return rows;
}

/** The lines of records whose id is not stored (a record without an id is always kept). */
function keepMissing(pages: readonly PageLines[], stored: ReadonlySet<string>): { lines: Buffer; count: number } {
  const parts: Buffer[] = [];
  let count = 0;
  for (const p of pages) {
    for (let i = 0; i < p.count; i++) {
      const id = p.idAt(i);
      if (id !== '' && stored.has(id)) continue;
      parts.push(p.bytes.subarray(p.starts[i]!, p.starts[i + 1]!));
      count++;
    }
  }
  return { lines: Buffer.concat(parts), count };
}
