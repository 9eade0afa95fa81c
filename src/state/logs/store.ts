import { createStore } from 'zustand/vanilla';
import { RETENTION_MS, type LogEntry } from '../../api/logs/index';
import { formatTime } from '../../text/time-format';
import { maskSecret } from '../../config/redact';
import { rowHeight, streamLayout, type TimeMode } from '../../log-records/rows';
import type { StatsSnapshot } from '../../log-records/stats';
import { emptyDraft, pinWindow, FILTER_FIELDS } from './filter-form';
import { LogsViewModel, type ViewWindow } from './view-model';
import { createAlertsSlice } from './alerts';
import { logsDetailActions } from './detail-actions';
import { EngineLink } from './engine-link';
import { logsFilterFormActions } from './filter-form-actions';
import { FrameClock } from './frame-clock';
import { initialLocal, logsLocalPatternActions } from './local-pattern-actions';
import { logsMarkActions } from './mark-actions';
import { logsMarkListActions } from './mark-list-actions';
import { LogMarks } from './marks';
import { logsNavigationActions } from './navigation-actions';
import { PauseAnchor } from './pause-anchor';
import { loadPickerZones } from './picker';
import { logsPromptActions } from './prompt-actions';
import { selectPaused, type LogsSliceContext } from './slice-context';
import { LogsSource } from './source-control';
import { createTimelineSlice, initialTimeline } from './timeline';
import type { LogsState, LogsStore, LogsStoreOptions } from './types';
import { V1Archive } from './v1-archive';
import { StoreWindow } from './store-window';
import { parseZoneList } from './zone-set';
import { errorMessage, type StoreDeps } from '../domain-stores';
import type { ZoneSetSession } from './session-file';
import { compilePattern } from '../../log-records/filter';
import { textOf } from '../../keys/text-edit';

export type { LogEntry } from '../../api/logs/index';
export type { LocalMode, ViewRow, ViewWindow } from './view-model';
export type { FilterForm, FilterDraft } from './filter-form';
export { FILTER_FIELDS } from './filter-form';
export * from './types';
export type { MarkRow } from './marks';
export type { FixedWindowState } from './fixed-window';

/**
 * The logs screen's store: the frame loop (one update per frame, statistics at most every
 * statsMs) around the view model (store, statistics, matches), with the actions from modules of
 * one idea each: logs/source-control (follow, fixed window, v1 day), logs/navigation-actions,
 * logs/local-pattern-actions, logs/filter-form-actions, logs/detail-actions, logs/prompt-actions
 * (export, v1 day), logs/mark-actions (marks, `@`), logs/mark-list-actions (the stats panel's marks
 * list), logs/timeline, logs/alerts.
 */

const sameRows = (a: ViewWindow, b: ViewWindow) =>
  a.total === b.total &&
  a.selected === b.selected &&
  a.offset === b.offset &&
  a.rows.length === b.rows.length &&
  a.rows.every((r, i) => r.seq === b.rows[i]!.seq && r.match === b.rows[i]!.match && r.lines === b.rows[i]!.lines && r.pos === b.rows[i]!.pos);

function shallowEqual<T extends object>(a: T | null, b: T | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** `@` past the retention opens this much either side of the time from the log store. */
const PAST_HALF_MS = 30 * 60_000;

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
  const v1File = new V1Archive(api, model);
  const history = new StoreWindow(settings, model);
  const marks = new LogMarks(model);

  let pickerAbort: AbortController | null = null;
  /** `@` to a time past the retention: selected once its window is read from the log store. */
  let pastJump: number | null = null;
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
      model,
      get,
      set,
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
      set({
        view: sameRows(w, s.view) ? s.view : { ...w, version: s.view.version + 1 },
        local: { ...s.local, matches: model.matches, counting: model.counting, progress: model.progress },
      });
      const tl = timeline.frame();
      if (tl) set({ timeline: tl });
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
      const live = link.status(s.zoneId);
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

    const ctx: LogsSliceContext = { model, pause, ui, now, get, set, computeWindow, refreshView, viewportHeight: () => viewport.height };
    const source = new LogsSource({
      ...ctx,
      api,
      link,
      v1File,
      history,
      capacity,
      onReset: () => {
        lastStatsVersion = -1;
      },
      onStoreWindow: () => {
        // `@` past the retention: once the hour around it is read, the time it asked for is selected
        const t = pastJump;
        pastJump = null;
        if (t !== null) get().jumpToTime(t);
      },
      schedule: (delay) => frames.schedule(delay),
    });

    model.onScanProgress = () => {
      viewDirty = true;
      frames.schedule();
    };

    const { submitTimeJump, ...markActions } = logsMarkActions({
      model,
      marks,
      ui,
      now,
      get,
      set,
      selected: () => computeWindow().selected,
      select: (pos) => selectPaused(ctx, pos),
      openPast: history.configured
        ? (t) => {
            if (t >= now() - RETENTION_MS || get().source !== 'live') return false;
            const window = { from: t - PAST_HALF_MS, to: Math.min(t + PAST_HALF_MS, now()) };
            set({ filter: pinWindow(get().filter, window), absolute: window });
            pastJump = t;
            ui.getState().setStatus(`${formatTime(t, 'dateTime')} is past the platform's 3 days: the hour around it from the log store`, 'info', 6000);
            source.restart();
            return true;
          }
        : undefined,
    });
    const markList = logsMarkListActions({
      marks,
      ui,
      get,
      set,
      selectedTime: () => model.timeAt(computeWindow().selected),
      select: (pos) => selectPaused(ctx, pos),
      showStats: () => {
        if (!get().showStats) get().toggleStats();
      },
      blurTimeline: () => void timeline.actions.switchTimelineFocus('table'),
    });
    // one panel has the keys at a time: the timeline taking them takes them from the marks list
    const withTimelineKeys =
      <A extends unknown[], R>(run: (...args: A) => R) =>
      (...args: A): R => {
        const r = run(...args);
        if (get().timeline.focus === 'timeline') set({ markCursor: null });
        return r;
      };

    /** What the session file keeps of the zone set on screen. */
    function captureSession(): ZoneSetSession {
      const s = get();
      const filter: ZoneSetSession['filter'] = {};
      for (const f of FILTER_FIELDS) if (f.id !== 'from' && f.id !== 'to' && s.filter[f.id] !== '') filter[f.id] = s.filter[f.id];
      return {
        filter,
        local: { pattern: s.local.pattern, mode: s.local.mode, context: s.local.context },
        alerts: s.alerts.getState().rules.map((r) => r.text),
        marks: [...marks.set.list()],
      };
    }

    /** Changes when what a session keeps changes (the marks by their version, not their list). */
    function changeKey(): string {
      const s = get();
      return JSON.stringify([s.filter, s.local.pattern, s.local.mode, s.local.context, s.alerts.getState().rules.map((r) => r.text), marks.set.version]);
    }

    /** Puts back what the last run kept of a zone set, before its records are read. */
    function restoreSession(saved: ZoneSetSession): void {
      set({ filter: { ...emptyDraft(), ...saved.filter } });
      const p = saved.local.pattern === null ? null : compilePattern(saved.local.pattern);
      if (p?.ok) {
        model.setMode(saved.local.mode);
        model.setContext(saved.local.context);
        model.setPattern(p, null);
        set({ local: { ...initialLocal(), text: textOf(p.source), pattern: p.source, mode: saved.local.mode, context: model.context } });
      }
      if (saved.marks.length) {
        marks.set.restore(saved.marks);
        set({ marks: { count: marks.size, version: marks.set.version } });
      }
      const a = alerts.store.getState();
      for (const rule of saved.alerts) {
        a.openPanel();
        alerts.store.getState().setText(textOf(rule));
        alerts.store.getState().submit();
      }
      if (saved.alerts.length) alerts.store.getState().closePanel();
    }

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
      local: initialLocal(),
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
      markCursor: null,
      timeline: initialTimeline(),
      ...timeline.actions,
      toggleTimeline: withTimelineKeys(timeline.actions.toggleTimeline),
      switchTimelineFocus: withTimelineKeys(timeline.actions.switchTimelineFocus),
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
          history.cancel();
          link.forget();
          source.forgetZone();
          model.reset(capacity);
          model.setPattern(null);
          pause.clear();
          set({
            zoneId: id,
            zones,
            zoneNames: {},
            zoneName: null,
            zoneProblem: null,
            source: 'live',
            layout: streamLayout(viewport.width, get().timeMode, zones),
            filter: emptyDraft(),
            absolute: null,
            fixed: null,
            form: null,
            v1: null,
            detail: null,
            prompt: null,
            following: true,
            ...pause.resetCounts(),
            stats: null,
            live: null,
            local: initialLocal(),
          });
          // marks belong to the zones they were made on: another zone set sees none of them
          marks.set.setZones(zones);
          set({ marks: { count: marks.size, version: marks.set.version }, markCursor: null });
          lastStatsVersion = -1;
          const saved = deps.sessions?.zoneSet(zones.join(' '));
          if (saved) restoreSession(saved);
        }
        source.attached = true;
        refreshView();
        if (get().source === 'live') void source.checkZoneAndStart(id);
        // the session is saved as it changes (checked each second), so a killed console keeps it too
        const sessionKey = zones.join(' ');
        let savedAs = changeKey();
        deps.sessions?.setOpen(sessionKey);
        ticker = setInterval(() => {
          frames.schedule();
          const now = changeKey();
          if (now !== savedAs && deps.sessions) {
            savedAs = now;
            deps.sessions.saveZoneSet(sessionKey, captureSession());
          }
        }, 1000);
        ticker.unref?.();
        return () => {
          deps.sessions?.saveZoneSet(sessionKey, captureSession());
          source.detach();
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
        refreshView({ layout: streamLayout(width, s.timeMode, s.zones) });
      },

      pollNow() {
        source.reload();
      },

      setWindow(key) {
        const s = get();
        if (s.source === 'v1') {
          ui.getState().setStatus('the time window applies to the live follow; esc leaves the v1 day first', 'info', 5000);
          return;
        }
        if (s.windowKey === key && link.engine && !s.absolute) return;
        set({ windowKey: key, ...(s.absolute ? { absolute: null, filter: pinWindow(s.filter, null) } : {}) });
        source.restart();
        ui.getState().setStatus(`following from ${key} ago${s.absolute ? ' (the from/to window is cleared)' : ''}`, 'info', 3000);
      },

      toggleWrap() {
        refreshView({ wrap: !get().wrap });
      },

      cycleTime() {
        const next: Record<TimeMode, TimeMode> = { short: 'full', full: 'off', off: 'short' };
        const timeMode = next[get().timeMode];
        refreshView({ timeMode, layout: streamLayout(viewport.width, timeMode, get().zones) });
      },

      toggleStats() {
        const showStats = !get().showStats;
        // the marks list closes with the panel
        set({ showStats, stats: showStats ? snapshot() : get().stats, ...(showStats ? {} : { markCursor: null }) });
      },

      recordBuffer() {
        return model.buffer;
      },

      closeV1() {
        return source.closeV1();
      },

      stopV1() {
        return source.stopV1() || source.stopStoreRead();
      },

      ...logsNavigationActions(ctx),
      ...logsLocalPatternActions(ctx),
      ...logsFilterFormActions(
        ctx,
        () => source.restart(),
        () => history.configured,
      ),
      ...logsDetailActions(ctx, settings.showSecrets),
      ...logsPromptActions({ ...ctx, marks, cwd, showSecrets: settings.showSecrets, submitTimeJump, loadV1: (date) => source.loadV1(date) }),
      ...markActions,
      ...markList,
    };
  });
  return store;
}

/** For the detail view and copies: the authorization header masked unless secrets are shown. */
export function maskFor(showSecrets: boolean): (secret: string) => string {
  return showSecrets ? (s) => s : (s) => maskSecret(s);
}
