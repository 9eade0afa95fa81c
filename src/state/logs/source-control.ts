import type { Api } from '../../api/index';
import { ApiError } from '../../api/errors';
import { errorMessage } from '../domain-stores';
import { filterOfDraft } from './filter-form';
import type { EngineLink } from './engine-link';
import { readWindow, type FixedWindowState } from './fixed-window';
import { loadZoneNames } from './zone-names';
import type { LogsSliceContext } from './slice-context';
import { windowMs, type V1State } from './types';

/** How often the progress of a v1 read is published (the records themselves show every frame). */
const PROGRESS_MS = 100;
import type { V1Archive, V1ReadProgress } from './v1-archive';
import type { StoreWindow } from './store-window';
import { RETENTION_MS } from '../../api/logs/index';

export interface SourceContext extends LogsSliceContext {
  api: Api;
  link: EngineLink;
  v1File: V1Archive;
  /** Windows past the platform's retention, read from the log store. */
  history: StoreWindow;
  capacity: number;
  /** The store was emptied for a new query: statistics start over. */
  onReset(): void;
  /** A window from the log store was read (whole or stopped). */
  onStoreWindow?(): void;
  /** Asks for a frame soon. */
  schedule(delay?: number): void;
}

/**
 * Where the logs screen's records come from, and starting it: the live follow (checking the zone
 * first), a fixed from..to window read once, or a v1 day file.
 */
export class LogsSource {
  /** The screen is mounted: a checked zone may start following. */
  attached = false;
  private zoneChecked: number | null = null;
  private zoneAbort: AbortController | null = null;
  private fixedAbort: AbortController | null = null;

  constructor(private readonly ctx: SourceContext) {}

  /** A different zone (or zones): the next start checks it again. */
  forgetZone(): void {
    this.zoneChecked = null;
  }

  detach(): void {
    this.attached = false;
    this.zoneAbort?.abort();
    this.ctx.link.stop();
  }

  startEngine(resume: boolean): void {
    const { link, get, set, now, ui } = this.ctx;
    link.stop();
    const s = get();
    if (s.zoneId === null || s.source !== 'live' || !this.attached || s.zoneProblem) return;
    const abs = s.absolute;
    if (abs && abs.to !== null) {
      // read once; a screen coming back keeps what it read
      const f = s.fixed;
      if (resume && f && f.from === abs.from && f.to === abs.to && !f.error && !f.loading) return;
      if (this.ctx.history.configured && abs.from < now() - RETENTION_MS) void this.loadFromStore(s.zones, abs.from, abs.to);
      else void this.loadFixed(s.zones, abs.from, abs.to);
      return;
    }
    this.fixedAbort?.abort();
    this.ctx.history.cancel();
    if (s.fixed) set({ fixed: null });
    try {
      link.start({ zones: s.zones, filter: filterOfDraft(s.filter), sinceMs: abs ? Math.max(1000, now() - abs.from) : windowMs(s.windowKey), resume });
    } catch (error) {
      ui.getState().setStatus(`cannot follow: ${errorMessage(error)}`, 'error', null);
      return;
    }
    this.ctx.schedule(0);
  }

  /** A new query (zone, window, server filters): empty store, follow from scratch. */
  restart(): void {
    const { link, model, pause, set, get, capacity } = this.ctx;
    link.stop();
    link.forget();
    model.reset(capacity);
    pause.clear();
    set({ following: true, ...pause.resetCounts(), detail: null, stats: null });
    this.ctx.onReset();
    this.ctx.refreshView();
    if (get().source === 'live') this.startEngine(false);
    else this.reloadV1Filtered();
  }

  async checkZoneAndStart(id: number): Promise<void> {
    const { api, get, set } = this.ctx;
    if (get().zones.length > 1) {
      // several zones: each one's problem (not found, logging off) shows as that zone's failure
      // in the zone strip while the others are followed; the names come when they come
      this.startEngine(this.zoneChecked === id);
      this.zoneChecked = id;
      const ctl = this.newZoneCheck();
      void loadZoneNames(api, get().zones, ctl.signal).then((names) => {
        if (!ctl.signal.aborted && Object.keys(names).length) set({ zoneNames: { ...get().zoneNames, ...names } });
      });
      return;
    }
    if (this.zoneChecked === id) {
      this.startEngine(true);
      return;
    }
    const ctl = this.newZoneCheck();
    try {
      const z = await api.pullZones.get(id, ctl.signal);
      if (ctl.signal.aborted || get().zoneId !== id) return;
      const name = z.Name ?? null;
      set({ zoneName: name });
      if (z.EnableLogging === false) {
        set({
          zoneProblem: `logging is not enabled for pull zone ${id}${name ? ` (${name})` : ''}: turn on logging in the pull zone's settings to see its CDN logs (:logs without an id lists the zones that have it)`,
        });
        this.zoneChecked = id;
        return;
      }
    } catch (error) {
      if (ctl.signal.aborted || get().zoneId !== id) return;
      if (error instanceof ApiError && (error.status === 404 || error.kind === 'invalid-input')) {
        set({ zoneProblem: `${error.message} (:logs without an id lists the zones with logging)` });
        this.zoneChecked = id;
        return;
      }
      // The management API is not needed to follow logs: go on and let the logging API answer.
    }
    this.zoneChecked = id;
    if (this.attached && get().zoneId === id) this.startEngine(true);
  }

  /** The server filters changed on a v1 day: the day is read again through them. */
  reloadV1Filtered(): void {
    const v1 = this.ctx.get().v1;
    if (v1) void this.loadV1(v1.date);
  }

  /**
   * Reads a v1 day into the emptied store as a stream: records show as they come (the view
   * follows the newest read), progress in the v1 state at most every PROGRESS_MS.
   */
  async loadV1(date: string): Promise<void> {
    const { link, v1File, model, pause, get, set, now, ui, capacity } = this.ctx;
    const id = get().zoneId;
    if (id === null) return;
    link.stop();
    v1File.cancel();
    model.reset(capacity);
    pause.clear();
    const started = now();
    set({
      source: 'v1',
      v1: { date, loading: true, error: null, lines: 0, skipped: 0, problems: [], kept: 0, evicted: 0, bytes: 0, totalBytes: null, rate: 0, stopped: false },
      following: true,
      detail: null,
      stats: null,
      ...pause.resetCounts(),
    });
    this.ctx.onReset();
    this.ctx.refreshView();
    let shownAt = 0;
    let last: V1ReadProgress | null = null;
    let trailing: ReturnType<typeof setTimeout> | null = null;
    const publish = (p: V1ReadProgress, patch: Partial<V1State> = {}) => {
      const elapsed = now() - started;
      set((s) => ({
        v1:
          s.v1 && s.v1.date === date
            ? {
                ...s.v1,
                lines: p.lines,
                skipped: p.skipped,
                problems: p.problems,
                bytes: p.bytes,
                totalBytes: p.totalBytes,
                kept: model.buffer.length,
                evicted: Math.max(0, p.matched - model.buffer.length),
                rate: elapsed >= 1000 ? Math.round((p.lines / elapsed) * 1000) : 0,
                ...patch,
              }
            : s.v1,
      }));
    };
    try {
      const outcome = await v1File.read(id, date, filterOfDraft(get().filter), (p, added) => {
        if (get().source !== 'v1') return;
        last = p;
        if (!get().following) pause.newSince += added;
        this.ctx.schedule();
        if (now() - shownAt >= PROGRESS_MS) {
          shownAt = now();
          publish(p);
        } else {
          // the last piece before a pause (a slow server) is shown too, a little later
          trailing ??= setTimeout(() => {
            trailing = null;
            if (last && get().v1?.loading && get().v1?.date === date) {
              shownAt = now();
              publish(last);
            }
          }, PROGRESS_MS);
        }
      });
      if (trailing) clearTimeout(trailing);
      if (outcome === 'cancelled' || get().source !== 'v1' || get().v1?.date !== date) return;
      const p: V1ReadProgress = last ?? { bytes: 0, totalBytes: null, lines: 0, skipped: 0, problems: [], matched: 0 };
      // the rows of the last pieces with the final counts, in the same frame
      this.ctx.refreshView();
      publish(p, { loading: false, stopped: outcome === 'stopped' });
      if (outcome === 'stopped') ui.getState().setStatus(`stopped reading ${date}: ${model.buffer.length.toLocaleString('en-US')} records kept`, 'info', 5000);
    } catch (error) {
      if (trailing) clearTimeout(trailing);
      const message = errorMessage(error);
      if (last) publish(last, { loading: false, error: message });
      else set((s) => ({ v1: s.v1 ? { ...s.v1, loading: false, error: message } : null }));
    }
  }

  /** Stops reading the v1 day, keeping what was read; false when no day is being read. */
  stopV1(): boolean {
    return this.ctx.get().source === 'v1' && this.ctx.v1File.stop();
  }

  /** Leaves the v1 day for the live follow; false when not on a v1 day. */
  closeV1(): boolean {
    if (this.ctx.get().source !== 'v1') return false;
    this.ctx.v1File.cancel();
    this.ctx.set({ source: 'live', v1: null });
    this.restart();
    return true;
  }

  /** `r`: poll now, or read the v1 day or the fixed window again. */
  reload(): void {
    const { link, ui, get } = this.ctx;
    const s = get();
    if (link.pollNow()) ui.getState().setStatus('polling now', 'info', 2000);
    else if (s.source === 'v1' && s.v1) void this.loadV1(s.v1.date);
    else if (s.fixed) this.startEngine(false);
  }

  /** A from..to window: read once into the (emptied) store. */
  private async loadFixed(zones: readonly number[], from: number, to: number): Promise<void> {
    const { api, model, get, set, ui, capacity } = this.ctx;
    this.fixedAbort?.abort();
    const ctl = new AbortController();
    this.fixedAbort = ctl;
    set({ fixed: { from, to, loading: true, error: null, records: 0, truncated: false } });
    try {
      let truncated = false;
      for (const zoneId of zones) {
        const r = await readWindow(api, zoneId, filterOfDraft(get().filter), { from, to }, capacity, ctl.signal);
        if (ctl.signal.aborted) return;
        model.load(r.entries, r.times);
        truncated ||= r.hasMore;
      }
      set({ fixed: { from, to, loading: false, error: null, records: model.buffer.length, truncated } });
      ui.getState().recordSuccess();
      this.ctx.refreshView();
    } catch (error) {
      if (ctl.signal.aborted) return;
      set({ fixed: { from, to, loading: false, error: errorMessage(error), records: 0, truncated: false } });
    }
  }

  /**
   * A window past the platform's retention, from the log store, into the emptied columnar store:
   * pieces show as they come, progress at most every PROGRESS_MS, esc stops (keeping what was read).
   */
  private async loadFromStore(zones: readonly number[], from: number, to: number): Promise<void> {
    const { history, model, pause, get, set, ui, now, capacity } = this.ctx;
    this.fixedAbort?.abort();
    model.reset(capacity);
    pause.clear();
    this.ctx.onReset();
    const progress = { read: 0, total: null as number | null, stopped: false };
    set({
      fixed: { from, to, loading: true, error: null, records: 0, truncated: false, store: progress },
      following: true,
      detail: null,
      stats: null,
      ...pause.resetCounts(),
    });
    this.ctx.refreshView();
    let shownAt = 0;
    const same = () => get().fixed?.from === from && get().fixed?.to === to;
    const publish = (patch: Partial<FixedWindowState> = {}) => {
      shownAt = now();
      set((s) => ({ fixed: s.fixed && same() ? { ...s.fixed, records: model.buffer.length, store: { ...progress }, ...patch } : s.fixed }));
    };
    try {
      const outcome = await history.read(zones, filterOfDraft(get().filter), { from, to }, capacity, (p, added) => {
        if (!same()) return;
        progress.read = p.read;
        progress.total = p.total;
        if (!get().following) pause.newSince += added;
        this.ctx.schedule();
        if (now() - shownAt >= PROGRESS_MS) publish();
      });
      if (outcome === 'cancelled' || !same()) return;
      progress.stopped = outcome === 'stopped';
      this.ctx.refreshView();
      publish({ loading: false, truncated: progress.total !== null && progress.total > model.buffer.length && !progress.stopped });
      ui.getState().recordSuccess();
      if (progress.stopped) ui.getState().setStatus(`stopped reading the store: ${model.buffer.length.toLocaleString('en-US')} records kept`, 'info', 5000);
      this.ctx.onStoreWindow?.();
    } catch (error) {
      if (!same()) return;
      publish({ loading: false, error: `log store: ${errorMessage(error)}` });
      this.ctx.onStoreWindow?.();
    }
  }

  /** Stops reading a window from the store, keeping what was read; false when none is being read. */
  stopStoreRead(): boolean {
    return this.ctx.history.stop();
  }

  private newZoneCheck(): AbortController {
    this.zoneAbort?.abort();
    const ctl = new AbortController();
    this.zoneAbort = ctl;
    return ctl;
  }
}
