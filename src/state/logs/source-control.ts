import type { Api } from '../../api/index';
import { ApiError } from '../../api/errors';
import { errorMessage } from '../domain-stores';
import { filterOfDraft } from './filter-form';
import type { EngineLink } from './engine-link';
import { readWindow } from './fixed-window';
import { loadZoneNames } from './zone-names';
import type { LogsSliceContext } from './slice-context';
import { windowMs } from './types';
import type { V1Archive } from './v1-archive';

export interface SourceContext extends LogsSliceContext {
  api: Api;
  link: EngineLink;
  v1File: V1Archive;
  capacity: number;
  /** The store was emptied for a new query: statistics start over. */
  onReset(): void;
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
      if (!(resume && f && f.from === abs.from && f.to === abs.to && !f.error && !f.loading)) void this.loadFixed(s.zones, abs.from, abs.to);
      return;
    }
    this.fixedAbort?.abort();
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
        set({ zoneProblem: `logging is not enabled for pull zone ${id}${name ? ` (${name})` : ''}: turn on logging in the pull zone's settings to see its CDN logs (:logs without an id lists the zones that have it)` });
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

  reloadV1Filtered(): void {
    const { v1File, model, pause, get, set, capacity } = this.ctx;
    const v1 = get().v1;
    const day = v1File.filtered(filterOfDraft(get().filter));
    if (!day || !v1) return;
    model.reset(capacity);
    const kept = model.load(day.entries, day.times);
    pause.clear();
    set({ v1: { ...v1, kept }, following: true });
    this.ctx.refreshView();
  }

  async loadV1(date: string): Promise<void> {
    const { link, v1File, model, pause, get, set, capacity } = this.ctx;
    const id = get().zoneId;
    if (id === null) return;
    link.stop();
    v1File.cancel();
    model.reset(capacity);
    pause.clear();
    set({ source: 'v1', v1: { date, loading: true, error: null, lines: 0, skipped: 0, problems: [], kept: 0, truncated: false }, following: true, detail: null, stats: null, ...pause.resetCounts() });
    this.ctx.onReset();
    this.ctx.refreshView();
    try {
      // Newest first, at most a store's worth of lines: the end of a busy day is what matters.
      const result = await v1File.fetch(id, date);
      if (!result || get().source !== 'v1') return;
      set({ v1: { date, loading: false, error: null, lines: result.lines, skipped: result.skipped, problems: result.problems, kept: 0, truncated: result.lines + result.skipped >= capacity } });
      this.reloadV1Filtered();
    } catch (error) {
      set((s) => ({ v1: s.v1 ? { ...s.v1, loading: false, error: errorMessage(error) } : null }));
    }
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

  private newZoneCheck(): AbortController {
    this.zoneAbort?.abort();
    const ctl = new AbortController();
    this.zoneAbort = ctl;
    return ctl;
  }
}
