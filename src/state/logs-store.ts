import path from 'node:path';
import { createStore } from 'zustand/vanilla';
import { ApiError } from '../api/errors';
import { v1Date, type LogEntry } from '../api/logs/index';
import { maskSecret } from '../config/redact';
import { emptyText, textOf } from '../keys/text-edit';
import { compilePattern } from '../log-records/filter';
import { defaultExportPath, formatOfPath, withFormat, type ExportFormat, type ExportResult as ExportResultOf } from '../log-records/export';
import { rowHeight, streamLayout, type TimeMode } from '../log-records/rows';
import type { StatsSnapshot } from '../log-records/stats';
import { checkWindow, draftOfForm, emptyDraft, filterOfDraft, FILTER_FIELDS, formFromDraft, pinWindow, validateDraft } from './logs-filter-form';
import { readWindow } from './logs/fixed-window';
import { LogsViewModel, type LocalMode, type ViewWindow } from './logs-view-model';
import { createAlertsSlice } from './logs/alerts';
import { copyTextOf } from './logs/copy';
import { EngineLink } from './logs/engine-link';
import { runExport } from './logs/export-run';
import { FrameClock } from './logs/frame-clock';
import { PauseAnchor } from './logs/pause-anchor';
import { createTimelineSlice, initialTimeline } from './logs/timeline';
import { loadPickerZones } from './logs/picker';
import { loadZoneNames } from './logs/zone-names';
import { parseZoneList } from './logs/zone-set';
import { checkV1Date, DAY_MS, windowMs, type LiveStatus, type LogsState, type LogsStore, type LogsStoreOptions } from './logs/types';
import { V1Archive } from './logs/v1-archive';
import { LogMarks } from './logs/marks';
import { logsMarkActions } from './logs/mark-actions';
import { errorMessage, type StoreDeps } from './domain-stores';

export type { LogEntry } from '../api/logs/index';
export type { LocalMode, ViewRow, ViewWindow } from './logs-view-model';
export type { FilterForm, FilterDraft } from './logs-filter-form';
export { FILTER_FIELDS } from './logs-filter-form';
export * from './logs/types';
export type { MarkRow } from './logs/marks';
export type { FixedWindowState } from './logs/fixed-window';

/**
 * The logs screen's store: the actions of the screen, put together from modules of one idea each
 * (logs/engine-link: the follow engine; logs/frame-clock: one update per frame; logs/pause-anchor:
 * where a paused view stays; logs/v1-archive: a past day's file; logs/export-run; logs/picker;
 * logs/copy) around the view model (store, statistics, matches).
 */

const sameRows = (a: ViewWindow, b: ViewWindow) =>
  a.total === b.total && a.selected === b.selected && a.offset === b.offset && a.rows.length === b.rows.length &&
  a.rows.every((r, i) => r.seq === b.rows[i]!.seq && r.match === b.rows[i]!.match && r.lines === b.rows[i]!.lines && r.pos === b.rows[i]!.pos);

function shallowEqual<T extends object>(a: T | null, b: T | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}


/** A new alert rule starts from at most this many of the newest records held (its window's). */
const ALERT_HISTORY_MAX = 200_000;

export function createLogsStore(deps: StoreDeps, options: LogsStoreOptions = {}): LogsStore {
  const { api, ui, settings } = deps;
  const now = deps.now;
  const cwd = options.cwd ?? process.cwd();
  const frameMs = options.frameMs ?? 100;
  const statsMs = options.statsMs ?? 500;
  const capacity = Math.max(1000, settings.logBufferSize || 2_000_000);
  const model = new LogsViewModel(capacity);
  const pause = new PauseAnchor(model);
  const v1File = new V1Archive(api, capacity);
  const marks = new LogMarks(model);
  let exportMarked = false;

  let attached = false;
  let zoneChecked: number | null = null;
  let zoneAbort: AbortController | null = null;
  let pickerAbort: AbortController | null = null;
  let fixedAbort: AbortController | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let viewDirty = true;
  let lastStatsAt = 0;
  let lastStatsVersion = -1;
  let viewport = { width: 80, height: 10 };

  const store = createStore<LogsState>()((set, get) => {
    const lines = (e: LogEntry) => rowHeight(e, get().layout, get().wrap);
    const frames = new FrameClock(frameMs, now, flush);
    const link = new EngineLink(api, model, now, {
      onRecords(records, newMatches) {
        if (!get().following) {
          // published with the next frame, not per batch
          pause.newSince += records;
          pause.newMatchesSince += newMatches;
        }
        frames.schedule();
      },
      onChange: () => frames.schedule(),
    });

    const timeline = createTimelineSlice({
      model, get, set,
      schedule: () => frames.schedule(),
      columns: () => viewport.width,
      settledBefore: () => (get().source === 'live' ? link.settledBefore() : null),
      jumpToTime: (t) => get().jumpToTime(t),
      status: (text, level) => ui.getState().setStatus(text, level, 4000),
    });
    // alert windows end where the live records are complete (none while a backfill reads history)
    const alerts = createAlertsSlice({
      ui,
      windowEnd: () => (get().source === 'live' ? link.settledBefore() : null),
      history: (from) => model.recordsFrom(from, ALERT_HISTORY_MAX),
    });
    model.tap = { add: alerts.records, reset: alerts.resetCounts };

    function computeWindow(): ViewWindow {
      const s = get();
      return model.window({ following: s.following, anchor: pause.anchor, anchorRow: pause.row, fallback: s.view.selected, height: viewport.height, lines });
    }

    /** Recomputes the window now (after a key) and remembers the selection as the anchor. */
    function refreshView(extra: Partial<LogsState> = {}): void {
      set(extra);
      const w = computeWindow();
      pause.remember(w);
      viewDirty = false;
      const s = get();
      set({ view: sameRows(w, s.view) ? s.view : { ...w, version: s.view.version + 1 }, local: { ...s.local, matches: model.matches, counting: model.counting, progress: model.progress } });
      const tl = timeline.frame();
      if (tl) set({ timeline: tl });
    }

    function liveStatus(): LiveStatus | null {
      return link.status(get().zoneId);
    }

    function flush(): void {
      const s = get();
      const patch: Partial<LogsState> = {};
      if (!s.following && pause.gone()) {
        // the record the paused view was on is gone: say so, and the window falls back to the
        // oldest held (again each time that one is evicted too, so no evicted row stays shown)
        if (!s.rowsEvicted) patch.rowsEvicted = true;
        viewDirty = true;
      }
      if (s.following || viewDirty) {
        const w = computeWindow();
        if (!s.following) pause.remember(w);
        viewDirty = false;
        if (!sameRows(w, s.view)) patch.view = { ...w, version: s.view.version + 1 };
      }
      const live = liveStatus();
      if (!shallowEqual(live, s.live)) patch.live = live;
      alerts.evaluate();
      if (s.following) {
        pause.newSince = 0;
        pause.newMatchesSince = 0;
      }
      if (pause.newSince !== s.newWhilePaused) patch.newWhilePaused = pause.newSince;
      const evicted = s.following ? 0 : pause.evictedSince();
      if (evicted !== s.evictedWhilePaused) patch.evictedWhilePaused = evicted;
      if (pause.newMatchesSince !== s.newMatchesWhilePaused) patch.newMatchesWhilePaused = pause.newMatchesSince;
      if (s.local.matches !== model.matches || s.local.counting !== model.counting || s.local.progress !== model.progress) {
        patch.local = { ...s.local, matches: model.matches, counting: model.counting, progress: model.progress };
      }
      if (s.showStats && model.stats.version !== lastStatsVersion) {
        if (frames.lastFlush - lastStatsAt >= statsMs) {
          patch.stats = snapshot();
        } else frames.schedule(statsMs - (frames.lastFlush - lastStatsAt));
      }
      const tl = timeline.frame();
      if (tl) patch.timeline = tl;
      if (Object.keys(patch).length) set(patch);
    }

    function snapshot(): StatsSnapshot {
      lastStatsAt = now();
      lastStatsVersion = model.stats.version;
      const end = get().source === 'live' ? link.settledBefore() : null;
      return model.stats.snapshot({ top: 5, rateSeconds: 120, rateEndMs: end ?? undefined });
    }

    /** A from..to window: read once into the (emptied) store. */
    async function loadFixed(zones: readonly number[], from: number, to: number): Promise<void> {
      fixedAbort?.abort();
      const ctl = new AbortController();
      fixedAbort = ctl;
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
        refreshView();
      } catch (error) {
        if (ctl.signal.aborted) return;
        set({ fixed: { from, to, loading: false, error: errorMessage(error), records: 0, truncated: false } });
      }
    }

    function startEngine(resume: boolean): void {
      link.stop();
      const s = get();
      if (s.zoneId === null || s.source !== 'live' || !attached || s.zoneProblem) return;
      const abs = s.absolute;
      if (abs && abs.to !== null) {
        // read once; a screen coming back keeps what it read
        const f = s.fixed;
        if (!(resume && f && f.from === abs.from && f.to === abs.to && !f.error && !f.loading)) void loadFixed(s.zones, abs.from, abs.to);
        return;
      }
      fixedAbort?.abort();
      if (s.fixed) set({ fixed: null });
      try {
        link.start({ zones: s.zones, filter: filterOfDraft(s.filter), sinceMs: abs ? Math.max(1000, now() - abs.from) : windowMs(s.windowKey), resume });
      } catch (error) {
        ui.getState().setStatus(`cannot follow: ${errorMessage(error)}`, 'error', null);
        return;
      }
      frames.schedule(0);
    }

    /** A new query (zone, window, server filters): empty store, follow from scratch. */
    function restart(): void {
      link.stop();
      link.forget();
      model.reset(capacity);
      pause.clear();
      set({ following: true, ...pause.resetCounts(), detail: null, stats: null });
      lastStatsVersion = -1;
      refreshView();
      if (get().source === 'live') startEngine(false);
      else reloadV1Filtered();
    }

    async function checkZoneAndStart(id: number): Promise<void> {
      if (get().zones.length > 1) {
        // several zones: each one's problem (not found, logging off) shows as that zone's failure
        // in the zone strip while the others are followed; the names come when they come
        startEngine(zoneChecked === id);
        zoneChecked = id;
        zoneAbort?.abort();
        const ctl = new AbortController();
        zoneAbort = ctl;
        void loadZoneNames(api, get().zones, ctl.signal).then((names) => {
          if (!ctl.signal.aborted && Object.keys(names).length) set({ zoneNames: { ...get().zoneNames, ...names } });
        });
        return;
      }
      if (zoneChecked === id) {
        startEngine(true);
        return;
      }
      zoneAbort?.abort();
      const ctl = new AbortController();
      zoneAbort = ctl;
      try {
        const z = await api.pullZones.get(id, ctl.signal);
        if (ctl.signal.aborted || get().zoneId !== id) return;
        const name = z.Name ?? null;
        set({ zoneName: name });
        if (z.EnableLogging === false) {
          set({ zoneProblem: `logging is not enabled for pull zone ${id}${name ? ` (${name})` : ''}: turn on logging in the pull zone's settings to see its CDN logs (:logs without an id lists the zones that have it)` });
          zoneChecked = id;
          return;
        }
      } catch (error) {
        if (ctl.signal.aborted || get().zoneId !== id) return;
        if (error instanceof ApiError && (error.status === 404 || error.kind === 'invalid-input')) {
          set({ zoneProblem: `${error.message} (:logs without an id lists the zones with logging)` });
          zoneChecked = id;
          return;
        }
        // The management API is not needed to follow logs: go on and let the logging API answer.
      }
      zoneChecked = id;
      if (attached && get().zoneId === id) startEngine(true);
    }

    function reloadV1Filtered(): void {
      const v1 = get().v1;
      const day = v1File.filtered(filterOfDraft(get().filter));
      if (!day || !v1) return;
      model.reset(capacity);
      const kept = model.load(day.entries, day.times);
      pause.clear();
      set({ v1: { ...v1, kept }, following: true });
      refreshView();
    }

    async function loadV1(date: string): Promise<void> {
      const id = get().zoneId;
      if (id === null) return;
      link.stop();
      v1File.cancel();
      model.reset(capacity);
      pause.clear();
      set({ source: 'v1', v1: { date, loading: true, error: null, lines: 0, skipped: 0, problems: [], kept: 0, truncated: false }, following: true, detail: null, stats: null, ...pause.resetCounts() });
      lastStatsVersion = -1;
      refreshView();
      try {
        // Newest first, at most a store's worth of lines: the end of a busy day is what matters.
        const result = await v1File.fetch(id, date);
        if (!result || get().source !== 'v1') return;
        set({ v1: { date, loading: false, error: null, lines: result.lines, skipped: result.skipped, problems: result.problems, kept: 0, truncated: result.lines + result.skipped >= capacity } });
        reloadV1Filtered();
      } catch (error) {
        set((s) => ({ v1: s.v1 ? { ...s.v1, loading: false, error: errorMessage(error) } : null }));
      }
    }

    const exportContext = {
      ui,
      cwd,
      showSecrets: settings.showSecrets,
      done: (r: ExportResultOf) => set({ lastExport: r }),
      askAgain: (file: string, format: ExportFormat, records: number) =>
        set({ prompt: { kind: 'export', text: textOf(file), format, error: 'that file exists: change the name, or enter again to be asked to replace it', records, markedOnly: exportMarked, marked: marks.size } }),
    };

    model.onScanProgress = () => {
      viewDirty = true;
      frames.schedule();
    };

    function selectedEntry(): LogEntry | null {
      const s = get();
      if (s.detail) return s.detail.entry;
      return s.view.rows.find((r) => r.pos === s.view.selected)?.entry ?? null;
    }

    const { submitTimeJump, ...markActions } = logsMarkActions({
      model, marks, ui, now, get, set,
      selected: () => computeWindow().selected,
      select: (pos) => {
        const s = get();
        pause.moveTo(pos, Math.floor(viewport.height / 2));
        refreshView({ following: false, rowsEvicted: false, ...(s.following ? pause.resetCounts() : {}) });
      },
    });

    return {
      zoneId: null,
      zones: [],
      zoneNames: {},
      zoneName: null,
      zoneProblem: null,
      picker: { zones: [], withoutLogging: 0, loading: false, error: null, loadedAt: null },
      source: 'live',
      windowKey: '15m',
      filter: emptyDraft(),
      absolute: null,
      fixed: null,
      form: null,
      local: { editing: false, text: emptyText, error: null, pattern: null, mode: 'filter', context: 0, matches: 0, counting: false, progress: 1 },
      wrap: false,
      timeMode: 'short',
      showStats: false,
      following: true,
      newWhilePaused: 0,
      evictedWhilePaused: 0,
      rowsEvicted: false,
      newMatchesWhilePaused: 0,
      view: { rows: [], total: 0, selected: 0, offset: 0, version: 0 },
      layout: streamLayout(80, 'short'),
      live: null,
      v1: null,
      stats: null,
      detail: null,
      prompt: null,
      lastExport: null,
      marks: { count: 0, version: 0 },
      timeline: initialTimeline(),
      ...timeline.actions,
      alerts: alerts.store,

      attach(arg) {
        if (arg === null) {
          void get().loadPicker();
          return () => pickerAbort?.abort();
        }
        const parsed = parseZoneList(arg);
        const zones = Array.isArray(parsed) ? parsed : [Number(arg)];
        const id = zones[0]!;
        if (get().zones.join(' ') !== zones.join(' ')) {
          link.stop();
          v1File.cancel();
          link.forget();
          zoneChecked = null;
          model.reset(capacity);
          model.setPattern(null);
          pause.clear();
          set({
            zoneId: id, zones, zoneNames: {}, zoneName: null, zoneProblem: null, source: 'live', layout: streamLayout(viewport.width, get().timeMode, zones.length > 1), filter: emptyDraft(), absolute: null, fixed: null, form: null, v1: null, detail: null, prompt: null,
            following: true, ...pause.resetCounts(), stats: null, live: null,
            local: { editing: false, text: emptyText, error: null, pattern: null, mode: 'filter', context: 0, matches: 0, counting: false, progress: 1 },
          });
          lastStatsVersion = -1;
        }
        attached = true;
        refreshView();
        if (get().source === 'live') void checkZoneAndStart(id);
        ticker = setInterval(() => frames.schedule(), 1000);
        ticker.unref?.();
        return () => {
          attached = false;
          zoneAbort?.abort();
          link.stop();
          if (ticker) clearInterval(ticker);
          ticker = null;
          frames.cancel();
        };
      },

      async loadPicker() {
        pickerAbort?.abort();
        const ctl = new AbortController();
        pickerAbort = ctl;
        set((s) => ({ picker: { ...s.picker, loading: true, error: null } }));
        try {
          const { zones, withoutLogging } = await loadPickerZones(api, ctl.signal);
          if (ctl.signal.aborted) return;
          set({ picker: { zones, withoutLogging, loading: false, error: null, loadedAt: now() } });
          ui.getState().recordSuccess();
        } catch (error) {
          if (ctl.signal.aborted) return;
          set((s) => ({ picker: { ...s.picker, loading: false, error: errorMessage(error) } }));
          ui.getState().recordError(errorMessage(error));
        }
      },

      setViewport(width, height) {
        const s = get();
        if (viewport.width === width && viewport.height === height && s.layout.width === width) return;
        viewport = { width, height };
        refreshView({ layout: streamLayout(width, s.timeMode, s.zones.length > 1) });
      },

      move(kind) {
        const s = get();
        if (s.view.total === 0 && model.total === 0) return;
        if (kind === 'bottom') {
          pause.clear();
          refreshView({ following: true, ...pause.resetCounts() });
          return;
        }
        // Positions now (records may have come or gone since the last frame).
        const w = computeWindow();
        const visibleRows = Math.max(1, w.rows.length);
        const row = Math.max(0, w.rows.findIndex((r) => r.pos === w.selected));
        let target = w.selected;
        let targetRow = row;
        // while a new pattern is counting, the rows a move needs are matched first
        let from = w.selected;
        if (kind === 'down' || kind === 'pageDown') from = model.reach(from, 1, kind === 'down' ? 1 : visibleRows);
        else if (kind === 'up' || kind === 'pageUp') from = model.reach(from, -1, kind === 'up' ? 1 : visibleRows);
        else if (kind === 'top') model.reachEnd(-1);
        const total = model.total;
        if (kind === 'down') {
          target = model.realRow(from + 1, 1);
          targetRow = row + 1;
        } else if (kind === 'up') {
          target = model.realRow(from - 1, -1);
          targetRow = row - 1;
        } else if (kind === 'pageDown') target = model.realRow(Math.min(total - 1, from + visibleRows), 1);
        else if (kind === 'pageUp') target = model.realRow(Math.max(0, from - visibleRows), -1);
        else if (kind === 'top') {
          target = model.realRow(0, 1);
          targetRow = 0;
        }
        pause.moveTo(target, targetRow);
        const pausing = s.following;
        refreshView({ following: false, rowsEvicted: false, ...(pausing ? pause.resetCounts() : {}) });
      },

      togglePause() {
        const s = get();
        if (s.following) {
          refreshView({ following: false, ...pause.resetCounts() });
        } else {
          pause.clear();
          refreshView({ following: true, ...pause.resetCounts() });
        }
      },

      pollNow() {
        if (link.pollNow()) {
          ui.getState().setStatus('polling now', 'info', 2000);
        } else if (get().source === 'v1' && get().v1) void loadV1(get().v1!.date);
        else if (get().fixed) startEngine(false);
      },

      setWindow(key) {
        const s = get();
        if (s.source === 'v1') {
          ui.getState().setStatus('the time window applies to the live follow; esc leaves the v1 day first', 'info', 5000);
          return;
        }
        if (s.windowKey === key && link.engine && !s.absolute) return;
        set({ windowKey: key, ...(s.absolute ? { absolute: null, filter: pinWindow(s.filter, null) } : {}) });
        restart();
        ui.getState().setStatus(`following from ${key} ago${s.absolute ? ' (the from/to window is cleared)' : ''}`, 'info', 3000);
      },

      toggleWrap() {
        refreshView({ wrap: !get().wrap });
      },

      cycleTime() {
        const next: Record<TimeMode, TimeMode> = { short: 'full', full: 'off', off: 'short' };
        const timeMode = next[get().timeMode];
        refreshView({ timeMode, layout: streamLayout(viewport.width, timeMode, get().zones.length > 1) });
      },

      toggleStats() {
        const showStats = !get().showStats;
        set({ showStats, stats: showStats ? snapshot() : get().stats });
      },

      startLocalEdit() {
        const s = get();
        set({ local: { ...s.local, editing: true, text: textOf(s.local.pattern ?? ''), error: null } });
      },

      setLocalText(text) {
        const p = text.value.trim() === '' ? null : compilePattern(text.value);
        set((s) => ({ local: { ...s.local, text, error: p && !p.ok ? p.message : null } }));
      },

      applyLocal() {
        const s = get();
        const source = s.local.text.value;
        if (source.trim() === '') {
          model.setPattern(null);
          refreshView({ local: { ...s.local, editing: false, error: null, pattern: null, matches: 0 } });
          return;
        }
        const p = compilePattern(source);
        if (!p.ok) {
          set({ local: { ...s.local, error: p.message } });
          return;
        }
        model.setMode(s.local.mode);
        // matched outward from the record on screen (paused) or from the newest (following)
        model.setPattern(p, s.following ? null : pause.anchor?.time ?? null);
        refreshView({ local: { ...s.local, editing: false, error: null, pattern: p.source, matches: model.matches } });
      },

      cancelLocalEdit() {
        set((s) => ({ local: { ...s.local, editing: false, error: null } }));
      },

      clearLocal() {
        const s = get();
        if (s.local.pattern === null) return false;
        model.setPattern(null);
        refreshView({ local: { ...s.local, pattern: null, matches: 0, error: null } });
        return true;
      },

      toggleLocalMode() {
        const s = get();
        const mode: LocalMode = s.local.mode === 'filter' ? 'highlight' : 'filter';
        model.setMode(mode);
        refreshView({ local: { ...s.local, mode } });
        ui.getState().setStatus(mode === 'filter' ? 'local pattern filters: only matches (and context lines) are shown' : 'local pattern highlights: every record is shown, n/N jump between matches', 'info', 4000);
      },

      changeContext(delta) {
        const s = get();
        model.setContext(s.local.context + delta);
        refreshView({ local: { ...s.local, context: model.context } });
        if (s.local.mode !== 'filter' || s.local.pattern === null) ui.getState().setStatus(`context lines: ${model.context} (used when a / pattern filters)`, 'info', 3000);
      },

      jumpMatch(dir) {
        const s = get();
        if (s.local.pattern === null) {
          ui.getState().setStatus('no local pattern: press / to set one', 'info', 3000);
          return;
        }
        const w = computeWindow();
        const target = model.nextMatch(w.selected, dir);
        if (target < 0) {
          ui.getState().setStatus(`no ${dir > 0 ? 'later' : 'earlier'} match of /${s.local.pattern}`, 'info', 3000);
          return;
        }
        pause.moveTo(target, Math.floor(viewport.height / 2));
        refreshView({ following: false, rowsEvicted: false, ...(s.following ? pause.resetCounts() : {}) });
      },

      jumpToTime(t) {
        if (model.total === 0) return null;
        const pos = model.realRow(model.positionOf(-1, t), 1);
        const at = model.timeAt(pos);
        pause.moveTo(pos, 0);
        refreshView({ following: false, rowsEvicted: false, ...(get().following ? pause.resetCounts() : {}) });
        return Number.isNaN(at) ? null : at;
      },

      openForm() {
        set({ form: formFromDraft(get().filter) });
      },

      setFormText(text) {
        const form = get().form;
        if (!form) return;
        const id = FILTER_FIELDS[form.focus]!.id;
        const errors = { ...form.errors };
        delete errors[id];
        set({ form: { ...form, fields: { ...form.fields, [id]: text }, errors } });
      },

      focusField(delta) {
        const form = get().form;
        if (!form) return;
        const n = FILTER_FIELDS.length;
        set({ form: { ...form, focus: (form.focus + delta + n) % n } });
      },

      applyForm() {
        const form = get().form;
        if (!form) return false;
        const typed = draftOfForm(form);
        const errors = validateDraft(typed, now());
        if (errors) {
          const first = FILTER_FIELDS.findIndex((f) => errors[f.id] !== undefined);
          set({ form: { ...form, errors, focus: first >= 0 ? first : form.focus } });
          ui.getState().setStatus(`not sent: ${Object.values(errors).join('; ')}`, 'error', 10_000);
          return false;
        }
        const absolute = checkWindow(typed, now()).window;
        const draft = pinWindow(typed, absolute);
        const changed = FILTER_FIELDS.some((f) => draft[f.id] !== get().filter[f.id]);
        set({ form: null, filter: draft, absolute });
        if (changed) restart();
        return true;
      },

      cancelForm() {
        set({ form: null });
      },

      clearServerFilters() {
        const s = get();
        if (FILTER_FIELDS.every((f) => s.filter[f.id] === '')) {
          ui.getState().setStatus('no server filters to clear', 'info', 3000);
          return;
        }
        set({ filter: emptyDraft(), absolute: null, form: null });
        restart();
        ui.getState().setStatus('server filters cleared', 'info', 3000);
      },

      openDetail() {
        const e = selectedEntry();
        if (e) set({ detail: { entry: e, scroll: 0 } });
      },

      scrollDetail(delta) {
        const d = get().detail;
        if (d) set({ detail: { ...d, scroll: Math.max(0, d.scroll + delta) } });
      },

      closeDetail() {
        if (!get().detail) return false;
        set({ detail: null });
        return true;
      },

      copyText(kind) {
        return copyTextOf(selectedEntry(), kind, settings.showSecrets);
      },

      openExport() {
        const s = get();
        if (s.zoneId === null) return;
        model.finishScan();
        const records = model.filtering ? model.matches : model.buffer.length;
        const label = s.source === 'v1' && s.v1 ? `${s.zoneId}-v1-${s.v1.date}` : s.zones.join('+');
        set({ prompt: { kind: 'export', text: textOf(defaultExportPath(cwd, label, 'ndjson', now())), format: 'ndjson', error: null, records, markedOnly: false, marked: marks.size } });
      },

      openV1() {
        if (get().zoneId === null || get().zoneProblem) return;
        if (get().zones.length > 1) {
          ui.getState().setStatus(`a v1 day file is one zone's: open :logs ${get().zoneId} for it`, 'info', 5000);
          return;
        }
        const yesterday = v1Date(now() - DAY_MS);
        set({ prompt: { kind: 'v1', text: textOf(get().v1?.date ?? yesterday), error: null } });
      },

      setPromptText(text) {
        const p = get().prompt;
        if (p) set({ prompt: { ...p, text, error: null } });
      },

      toggleExportFormat() {
        const p = get().prompt;
        if (p?.kind !== 'export') return;
        const format: ExportFormat = p.format === 'ndjson' ? 'csv' : 'ndjson';
        set({ prompt: { ...p, format, text: textOf(withFormat(p.text.value, format)) } });
      },

      submitPrompt() {
        const p = get().prompt;
        if (!p) return;
        const value = p.text.value.trim();
        if (p.kind === 'time') {
          submitTimeJump(p);
          return;
        }
        if (p.kind === 'v1') {
          const checked = checkV1Date(value, now());
          if ('error' in checked) {
            set({ prompt: { ...p, error: checked.error } });
            return;
          }
          set({ prompt: null });
          void loadV1(value);
          return;
        }
        if (value === '') {
          set({ prompt: { ...p, error: 'type a file name (relative names go in the current directory)' } });
          return;
        }
        const file = path.resolve(cwd, value.startsWith('~/') ? path.join(process.env.HOME ?? '~', value.slice(2)) : value);
        const format = /\.(csv|ndjson|jsonl|json)$/i.test(file) ? formatOfPath(file) : p.format;
        exportMarked = p.markedOnly === true;
        const records = exportMarked ? marks.exportRecords() : model.exportRecords();
        set({ prompt: null });
        void runExport(exportContext, file, format, false, records);
      },

      cancelPrompt() {
        set({ prompt: null });
      },

      recordBuffer() {
        return model.buffer;
      },

      closeV1() {
        if (get().source !== 'v1') return false;
        v1File.cancel();
        set({ source: 'live', v1: null });
        restart();
        return true;
      },

      ...markActions,
    };
  });
  return store;
}

/** For the detail view and copies: the authorization header masked unless secrets are shown. */
export function maskFor(showSecrets: boolean): (secret: string) => string {
  return showSecrets ? (s) => s : (s) => maskSecret(s);
}
