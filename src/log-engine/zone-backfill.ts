import { BackfillOverlap } from './backfill-overlap';
import type { FollowSettings } from './follow-options';
import type { FollowSink } from './follow-sink';
import type { BackfillProgress } from './follow-status';
import { pageHead, pageKey, pageLength, type LogPage } from '../api/logs/page';
import type { LogQuery } from '../api/logs/query';

/**
 * The backfill of one zone: [start, now) newest first (order=desc), offset paging while hasMore,
 * up to maxBackfill. The first page's `query.to` (the server's clock) pins the window; the history
 * behind it is then read with a few pages in flight inside the zone's budget, next to the polls
 * (see readHistory for why no page is skipped).
 */

/** What the backfill needs of its zone. */
export interface BackfillHost {
  readonly opts: Pick<FollowSettings, 'pageLimit' | 'maxBackfill' | 'backfillDepth'>;
  readonly buffer: Pick<FollowSink, 'has'>;
  readonly signal: AbortSignal;
  now(): number;
  changed(): void;
  /** One page; transient failures are retried there, so a page is never skipped. */
  page(q: LogQuery, signal?: AbortSignal): Promise<LogPage>;
  /** Puts a page's records into the sink; how many were new. */
  ingest(page: LogPage): number;
  /** Waits while the engine is paused; false when the zone has stopped or failed meanwhile. */
  proceed(): Promise<boolean>;
}

/** What the backfill counts as it goes; the rate and the estimate are worked out when the status is read. */
type BackfillState = Omit<BackfillProgress, 'ratePerSecond' | 'remaining' | 'etaMs'> & { finishedAt?: number };

/** Where the backfill reads next: a window pinned at the first page, read newest first by offset. */
interface HistoryCursor {
  from: number;
  /** NaN until the first page pins it to the server's clock. */
  to: number;
  offset: number;
  collected: number;
  /** Key of the last record of the last page taken (the next page must hold it). */
  lastKey: string | null;
  /** Its time, and how many records of that time end the page (it included). */
  lastTime: number;
  lastGroup: number;
}

/** A page of history in flight. `gap`: a request for the records between a page taken after a miss and the page above it. */
interface PageAhead {
  offset: number;
  limit: number;
  overlap: number;
  page: Promise<LogPage>;
  /** `below` null: the gap runs to the end of the window. */
  gap?: { above: string; aboveTime: number; aboveGroup: number; below: string | null };
  /** A read of every record of this time (see tieRisk). */
  ties?: number;
}

/** The smallest backfill page asked for near the cap. */
const MIN_BACKFILL_PAGE = 1000;

export class ZoneBackfill {
  /** Null until the backfill starts. */
  private progress: BackfillState | null = null;
  private shown: BackfillProgress | null = null;
  private cursor: HistoryCursor = { from: Number.NaN, to: Number.NaN, offset: 0, collected: 0, lastKey: null, lastTime: Number.NaN, lastGroup: 0 };
  /** Nothing older is followed: the backfill start, or its oldest record when it was cut short. */
  floor = Number.NEGATIVE_INFINITY;
  /** It stopped at maxBackfill with more records available. */
  truncated = false;

  constructor(private readonly host: BackfillHost) {}

  /** Started and not done: older records may still come. */
  get inProgress(): boolean {
    return this.progress?.done === false;
  }

  /** The end of the window, pinned by the first page to the server's clock. */
  get windowEnd(): number {
    return this.cursor.to;
  }

  /** New records per ms in what was read so far (null when that is not known yet). */
  ratePerMs(): number | null {
    const p = this.progress;
    if (p === null || p.reached === null || p.to === null) return null;
    return p.records / Math.max(1, p.to - p.reached);
  }

  /** The first page (the newest records) of the window from `from`; false when nothing is left to read. */
  async readNewest(from: number): Promise<boolean> {
    const h = this.host;
    this.floor = from;
    this.progress = { records: 0, pages: 0, from, to: null, reached: null, startedAt: h.now(), done: false };
    const cursor: HistoryCursor = (this.cursor = { from, to: Number.NaN, offset: 0, collected: 0, lastKey: null, lastTime: Number.NaN, lastGroup: 0 });
    // Near the cap, still ask for a useful page: records arriving meanwhile shift the offsets of
    // a live window, so the next records can all be ones already held, and pages of one record
    // would then spend the zone's budget one request at a time. What the cap leaves out is cut
    // off here (newest first), so a full buffer never has to drop it.
    const limit = Math.min(h.opts.pageLimit, Math.max(MIN_BACKFILL_PAGE, h.opts.maxBackfill - cursor.collected));
    const page = await h.page({ from: cursor.from, order: 'desc', offset: cursor.offset, limit });
    cursor.to = page.to ?? h.now();
    cursor.from = Math.min(cursor.from, cursor.to - 1);
    return this.commit(page);
  }

  /**
   * The rest of the backfill, next to the polls: up to `backfillDepth` pages in flight (the zone's
   * budget spaces them), read newest first from the window pinned at the first page, and taken in
   * offset order. Records that become visible meanwhile land at the top of the window and push the
   * older ones to higher offsets, so a page the server answered before the page above it could
   * start past the records in between: pages overlap, and when a page does not hold the last
   * record of the page above, it is taken as it is and the records between the two are read by a
   * request at its offset (answered after both, it holds both ends).
   *
   * True when the history is in; false when the zone stopped or failed meanwhile; throws what
   * failed for good.
   */
  async readHistory(): Promise<boolean> {
    const h = this.host;
    const o = h.opts;
    const cursor = this.cursor;
    const ahead: PageAhead[] = [];
    const overlap = new BackfillOverlap(Math.floor(o.pageLimit / 5));
    // where the last page asked ends: the next one starts `overlap` records before it
    let end = cursor.offset;
    // where the last page taken ended when it was answered (the records below it start there)
    let takenEnd = cursor.offset;
    // pages still in flight when the history is in are cancelled, not retried for nothing
    const leftOver = new AbortController();
    const signal = AbortSignal.any([h.signal, leftOver.signal]);
    // The window's end as sent: the next whole second. A server that reads `to` to the second only
    // would otherwise end the window up to a second before the first page's end, and every offset
    // would point that many records further down than the first page's: the records below the
    // first page would be skipped (a gap read at the same offset skips them again). Records of that
    // last second that the first page did not hold come in at the top like late ones (which the
    // pages' overlap is for); the polls read from the first page's end, so they hold them too.
    const to = Math.ceil(cursor.to / 1000) * 1000;
    const ask = (offset: number, limit: number, shared: number): PageAhead => {
      const page = h.page({ from: cursor.from, to, order: 'desc', offset, limit }, signal);
      // a page left unread must not be an unhandled rejection
      page.catch(() => undefined);
      return { offset, limit, overlap: shared, page };
    };
    // Records of one time split between two pages: every record of that time is read, once per time.
    const tiesRead = new Set<number>();
    const askTies = (time: number, offset: number): PageAhead => {
      const second = Math.floor(time / 1000) * 1000;
      const page = h.page({ from: Math.max(cursor.from, second), to: second + 1000, order: 'desc', offset, limit: o.pageLimit }, signal);
      page.catch(() => undefined);
      return { offset, limit: o.pageLimit, overlap: 0, page, ties: time };
    };
    const readTies = (time: number): void => {
      if (tiesRead.has(time)) return;
      tiesRead.add(time);
      overlap.missed();
      ahead.unshift(askTies(time, 0));
    };
    // the last page is in; only gaps are still read
    let ending = false;
    try {
      for (;;) {
        if (!(await h.proceed())) return false;
        if (ending && !ahead.length) break;
        // Near the cap, one page at a time, so the cap is exact and nothing is read for nothing.
        const room = o.maxBackfill - cursor.collected;
        const depth = room > o.pageLimit * o.backfillDepth ? o.backfillDepth : 1;
        while (!ending && ahead.length < depth) {
          const limit = Math.min(o.pageLimit, Math.max(MIN_BACKFILL_PAGE, room));
          const shared = Math.min(overlap.records, limit - 1, end);
          ahead.push(ask(end - shared, limit, shared));
          end += limit - shared;
        }
        const head = ahead.shift()!;
        const page = await head.page;
        if (head.ties !== undefined) {
          this.commitGap(page);
          if (page.hasMore && page.returned > 0) ahead.unshift(askTies(head.ties, head.offset + page.returned));
          continue;
        }
        if (head.gap) {
          this.commitGap(page);
          const above = pageIndexOf(page, head.gap.above);
          if (pageLength(page) && (above >= 0 ? tieRisk(page, above, head.gap.aboveTime, head.gap.aboveGroup) : page.times[0] === head.gap.aboveTime))
            readTies(head.gap.aboveTime);
          // answered after both pages, it holds the record above; short of the page below only
          // when more than a page of records came late in between: the rest of the gap then. Not
          // past the end of the window: a server that orders records of the same time differently
          // on each answer can leave the record below out of every page, and reading the last
          // page again and again would never end.
          const n = pageLength(page);
          const short = page.hasMore && (head.gap.below === null || pageIndexOf(page, head.gap.below) < 0);
          const step = Math.max(1, n - 1);
          if (n && short)
            ahead.unshift({
              ...ask(head.offset + step, head.limit, 1),
              gap: { above: pageKey(page, n - 1), aboveTime: page.times[n - 1]!, aboveGroup: trailingGroup(page), below: head.gap.below },
            });
          continue;
        }
        if (cursor.lastKey !== null && !pageLength(page) && !page.hasMore) {
          // The window ended above this page when the server answered it, but the page taken
          // before it was answered later, after records came late and pushed the oldest further
          // down: the records from that page's last to the end are read now, after both.
          ahead.unshift({
            ...ask(Math.max(0, takenEnd - 1), head.limit, 1),
            gap: { above: cursor.lastKey, aboveTime: cursor.lastTime, aboveGroup: cursor.lastGroup, below: null },
          });
        } else if (cursor.lastKey !== null && pageLength(page)) {
          const at = pageIndexOf(page, cursor.lastKey);
          if (at < 0) {
            overlap.missed();
            // The server answered this page before the page above it, and records came late in
            // between: some between the two are missing. The page is taken as it is (the pages
            // asked with it follow it), and the gap is read now at the same offset, after both.
            ahead.unshift({
              ...ask(head.offset, head.limit, head.overlap),
              gap: { above: cursor.lastKey, aboveTime: cursor.lastTime, aboveGroup: cursor.lastGroup, below: pageKey(page, 0) },
            });
          } else if (tieRisk(page, at, cursor.lastTime, cursor.lastGroup)) readTies(cursor.lastTime);
          else overlap.held(at, head.overlap);
        }
        takenEnd = head.offset + page.returned;
        if (!this.commit(page)) {
          const gaps = ahead.filter((a) => a.gap || a.ties !== undefined);
          ahead.length = 0;
          ahead.push(...gaps);
          ending = true;
        }
      }
      leftOver.abort();
      return true;
    } finally {
      leftOver.abort();
    }
  }

  /** The backfill is over (the history is in, or there was none). */
  finish(now: number): void {
    this.progress!.done = true;
    this.progress!.finishedAt = now;
  }

  /**
   * Progress as the status shows it: rate, and an estimate of what is left. The same object until
   * a page comes in, so a screen comparing statuses redraws once per page.
   */
  status(now: number): BackfillProgress | null {
    const p = this.progress;
    if (!p) return null;
    if (this.shown && this.shown.pages === p.pages && this.shown.done === p.done) return this.shown;
    const elapsed = Math.max(1, (p.finishedAt ?? now) - p.startedAt);
    const rate = (p.records * 1000) / elapsed;
    let remaining: number | null = p.done ? 0 : null;
    if (!p.done && p.to !== null && p.reached !== null && p.records > 0) {
      // records per ms of history read so far, times the history still to read; never past the cap
      const span = p.to - p.reached;
      const estimate = span > 0 ? Math.round((p.records / span) * Math.max(0, p.reached - p.from)) : 0;
      remaining = Math.max(0, Math.min(estimate, this.host.opts.maxBackfill - p.records));
    }
    return (this.shown = {
      records: p.records,
      ...(p.gapRecords ? { gapRecords: p.gapRecords } : {}),
      pages: p.pages,
      from: p.from,
      to: p.to,
      reached: p.reached,
      startedAt: p.startedAt,
      ratePerSecond: Math.round(rate),
      remaining,
      etaMs: remaining === null ? null : remaining === 0 ? 0 : rate > 0 ? Math.round((remaining / rate) * 1000) : null,
      done: p.done,
    });
  }

  /** Puts the records of a gap between two history pages into the sink (their progress only). */
  private commitGap(page: LogPage): void {
    const added = this.host.ingest(page);
    this.cursor.collected += added;
    const p = this.progress!;
    p.pages++;
    p.records += added;
    p.gapRecords = (p.gapRecords ?? 0) + added;
    this.host.changed();
  }

  /** Puts a backfill page into the sink, up to the cap; false when the backfill is over. */
  private commit(page: LogPage): boolean {
    const h = this.host;
    const cursor = this.cursor;
    const remaining = h.opts.maxBackfill - cursor.collected;
    const used = this.newestNew(page, remaining);
    // the cap counts new records, not returned ones (a page can repeat records)
    const added = h.ingest(used);
    cursor.collected += added;
    cursor.offset += page.returned;
    const length = pageLength(page);
    if (length) {
      cursor.lastKey = pageKey(page, length - 1);
      cursor.lastTime = page.times[length - 1]!;
      cursor.lastGroup = trailingGroup(page);
    }
    const p = this.progress!;
    p.to = cursor.to;
    p.pages++;
    p.records += added;
    const oldest = used.times[used.times.length - 1];
    if (oldest !== undefined) p.reached = p.reached === null ? oldest : Math.min(p.reached, oldest);
    h.changed();
    const cut = pageLength(used) < length;
    if (cut || (cursor.collected >= h.opts.maxBackfill && page.hasMore)) {
      this.truncated = true;
      // Older records were left out on purpose: the polls must not bring them back.
      if (oldest !== undefined) this.floor = oldest;
      return false;
    }
    return page.hasMore && page.returned > 0;
  }

  /** The page up to its `n`th record that the sink does not hold yet (a newest-first page). */
  private newestNew(page: LogPage, n: number): LogPage {
    const length = pageLength(page);
    if (length <= n) return page;
    const buffer = this.host.buffer;
    const seen = new Set<string>();
    let fresh = 0;
    let i = 0;
    for (; i < length && fresh < n; i++) {
      const key = pageKey(page, i);
      if (!buffer.has(key) && !seen.has(key)) fresh++;
      seen.add(key);
    }
    if (i === length) return page;
    return pageHead(page, i);
  }
}

/** The index of the record with this key on a page, -1 when it has none (by key: a batch's objects are not built). */
function pageIndexOf(page: LogPage, key: string): number {
  const n = pageLength(page);
  for (let i = 0; i < n; i++) if (pageKey(page, i) === key) return i;
  return -1;
}

/** How many records of the last record's time end a (newest-first) page. */
function trailingGroup(page: LogPage): number {
  const n = pageLength(page);
  let k = 1;
  while (k < n && page.times[n - 1 - k] === page.times[n - 1]) k++;
  return n ? k : 0;
}

/**
 * Whether records of `time` may be split between the page above (which ended with `group` of
 * them) and this one, which holds the page above's last record at `at`, and missed: a server that
 * sorts by time alone may order records of one time differently on each answer, so a record of
 * that time after the page above's end in its order can be before this page's start in this
 * one's. Not when this page starts with a newer record (it then holds every record of that time),
 * nor when neither page shows another record of that time.
 */
function tieRisk(page: LogPage, at: number, time: number, group: number): boolean {
  if (!(page.times[0]! <= time)) return false;
  if (group > 1) return true;
  for (let i = 0; i < pageLength(page) && page.times[i] === time; i++) if (i !== at) return true;
  return false;
}
