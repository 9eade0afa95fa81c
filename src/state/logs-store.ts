import path from 'node:path';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError } from '../api/errors';
import {
  compileFilter, parseV1Date, RETENTION_MS, v1Date,
  type BackfillProgress, type FollowEngine, type LogEntry, type V1ParseResult, type ZoneFollowStatus,
} from '../api/logs/index';
import { maskSecret } from '../config/redact';
import { emptyText, textOf, type TextState } from '../keys/text-edit';
import { compilePattern } from '../logs-view/filter';
import {
  defaultExportPath, exportRecord, ExportExistsError, formatOfPath, withFormat, writeExport, type ExportFormat, type ExportResult,
} from '../logs-view/export';
import { formatBytes, rowHeight, streamLayout, type StreamLayout, type TimeMode } from '../logs-view/rows';
import type { StatsSnapshot } from '../logs-view/stats';
import { draftOfForm, emptyDraft, filterOfDraft, FILTER_FIELDS, formFromDraft, validateDraft, type FilterDraft, type FilterForm } from './logs-filter-form';
import { LogsViewModel, type LocalMode, type ViewWindow } from './logs-view-model';
import { errorMessage, type StoreDeps } from './session';

export type { LogEntry } from '../api/logs/index';
export type { LocalMode, ViewRow, ViewWindow } from './logs-view-model';
export type { FilterForm, FilterDraft } from './logs-filter-form';
export { FILTER_FIELDS } from './logs-filter-form';

/** Time window keys (k9s-style): how far back a follow starts. */
export const WINDOWS = [
  { key: '1m', ms: 60_000 },
  { key: '5m', ms: 5 * 60_000 },
  { key: '15m', ms: 15 * 60_000 },
  { key: '1h', ms: 3_600_000 },
  { key: '3d', ms: RETENTION_MS },
] as const;
export type WindowKey = (typeof WINDOWS)[number]['key'];

const DAY_MS = 86_400_000;

export interface PickerZone {
  id: number;
  name: string;
  hostname: string;
}

export interface PickerState {
  zones: PickerZone[];
  /** Zones of the account without logging (not offered). */
  withoutLogging: number;
  loading: boolean;
  error: string | null;
  loadedAt: number | null;
}

/** What the status line shows about the live follow. */
export interface LiveStatus {
  state: ZoneFollowStatus['state'] | 'idle';
  error: string | null;
  errorStatus: number | null;
  coveredTo: number | null;
  newest: number | null;
  recheckMs: number;
  ingestLagMs: number;
  intervalMs: number;
  backoffUntil: number | null;
  requests: number;
  late: number;
  backfillTruncated: boolean;
  backfill: BackfillProgress | null;
  buffered: number;
  dropped: number;
  duplicates: number;
  budgetUsed: number;
  budgetLimit: number;
  budgetWaiting: number;
  rateLimited: number;
}

export interface V1State {
  date: string;
  loading: boolean;
  error: string | null;
  lines: number;
  skipped: number;
  problems: { line: number; reason: string }[];
  /** Records shown (after the server filters, applied locally). */
  kept: number;
  /** The day had more lines than the buffer holds: the newest were read. */
  truncated: boolean;
}

export interface LocalFilterState {
  editing: boolean;
  text: TextState;
  error: string | null;
  pattern: string | null;
  mode: LocalMode;
  context: number;
  /** Matches known so far; all of them once `counting` is false. */
  matches: number;
  /** A new pattern is still being tried on the records held when it was set. */
  counting: boolean;
}

export type Prompt =
  | { kind: 'export'; text: TextState; format: ExportFormat; error: string | null; records: number }
  | { kind: 'v1'; text: TextState; error: string | null };

export interface LogsState {
  zoneId: number | null;
  zoneName: string | null;
  /** Why this zone cannot be followed (no logging, not found); null when it can. */
  zoneProblem: string | null;
  picker: PickerState;
  source: 'live' | 'v1';
  windowKey: WindowKey;
  /** The server filters in use. */
  filter: FilterDraft;
  form: FilterForm | null;
  local: LocalFilterState;
  wrap: boolean;
  timeMode: TimeMode;
  showStats: boolean;
  /** The view sticks to the newest record; false = paused (frozen where it is). */
  following: boolean;
  newWhilePaused: number;
  /** Records the full buffer let go since the view was paused (what was on screen may be gone). */
  evictedWhilePaused: number;
  newMatchesWhilePaused: number;
  view: ViewWindow & { version: number };
  layout: StreamLayout;
  live: LiveStatus | null;
  v1: V1State | null;
  stats: StatsSnapshot | null;
  detail: { entry: LogEntry; scroll: number } | null;
  prompt: Prompt | null;
  lastExport: ExportResult | null;

  /** The screen mounted with its argument (a zone id or null for the picker); returns the unmount. */
  attach(arg: string | null): () => void;
  loadPicker(): Promise<void>;
  setViewport(width: number, height: number): void;

  move(kind: 'down' | 'up' | 'pageDown' | 'pageUp' | 'top' | 'bottom'): void;
  togglePause(): void;
  pollNow(): void;
  setWindow(key: WindowKey): void;
  toggleWrap(): void;
  cycleTime(): void;
  toggleStats(): void;

  startLocalEdit(): void;
  setLocalText(text: TextState): void;
  applyLocal(): void;
  cancelLocalEdit(): void;
  /** Clears the local pattern; false when there is none. */
  clearLocal(): boolean;
  toggleLocalMode(): void;
  changeContext(delta: number): void;
  jumpMatch(dir: 1 | -1): void;

  openForm(): void;
  setFormText(text: TextState): void;
  focusField(delta: number): void;
  applyForm(): boolean;
  cancelForm(): void;
  clearServerFilters(): void;

  openDetail(): void;
  scrollDetail(delta: number): void;
  closeDetail(): boolean;
  /** The text a copy key puts on the clipboard, or a message saying why there is none. */
  copyText(kind: 'id' | 'json'): { text: string; what: string } | { error: string };

  openExport(): void;
  openV1(): void;
  setPromptText(text: TextState): void;
  toggleExportFormat(): void;
  submitPrompt(): void;
  cancelPrompt(): void;
  /** Leaves the v1 day for the live follow; false when not on a v1 day. */
  closeV1(): boolean;
}

export type LogsStore = StoreApi<LogsState>;

export interface LogsStoreOptions {
  /** Relative export paths are written here (default: the working directory). */
  cwd?: string;
  /** Least time between two data-driven updates of the view (default 100 ms: 10 frames/s). */
  frameMs?: number;
  /** Least time between two statistics snapshots (default 500 ms). */
  statsMs?: number;
}

const sameRows = (a: ViewWindow, b: ViewWindow) =>
  a.total === b.total && a.selected === b.selected && a.offset === b.offset && a.rows.length === b.rows.length &&
  a.rows.every((r, i) => r.entry === b.rows[i]!.entry && r.match === b.rows[i]!.match && r.lines === b.rows[i]!.lines && r.pos === b.rows[i]!.pos);

function shallowEqual<T extends object>(a: T | null, b: T | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

export function windowMs(key: WindowKey): number {
  return WINDOWS.find((w) => w.key === key)!.ms;
}

/** A v1 date as typed, checked against the retention: the day start, or a message. */
export function checkV1Date(text: string, now: number): { day: number } | { error: string } {
  const day = parseV1Date(text);
  const first = Math.floor((now - RETENTION_MS) / DAY_MS) * DAY_MS;
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const range = `${v1Date(first)} to ${v1Date(today)}`;
  if (Number.isNaN(day)) return { error: `"${text.trim()}" is not a date: use MM-dd-yy (UTC), one of ${range}` };
  if (day > today) return { error: `${text.trim()} is in the future: logs are kept 3 days, pick a day from ${range}` };
  if (day + DAY_MS <= now - RETENTION_MS) return { error: `${text.trim()} is older than the 3-day retention: pick a day from ${range}` };
  return { day };
}

export function createLogsStore(deps: StoreDeps, options: LogsStoreOptions = {}): LogsStore {
  const { api, ui, settings } = deps;
  const now = deps.now;
  const cwd = options.cwd ?? process.cwd();
  const frameMs = options.frameMs ?? 100;
  const statsMs = options.statsMs ?? 500;
  const capacity = Math.max(1000, settings.logBufferSize || 100_000);
  const model = new LogsViewModel(capacity);

  let engine: FollowEngine | null = null;
  let engineOff: (() => void)[] = [];
  let lastCoveredTo: number | null = null;
  let attached = false;
  let zoneChecked: number | null = null;
  let zoneAbort: AbortController | null = null;
  let v1Abort: AbortController | null = null;
  let v1Raw: V1ParseResult | null = null;
  let pickerAbort: AbortController | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let frameTimer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = 0;
  let viewDirty = true;
  let lastStatsAt = 0;
  let lastStatsVersion = -1;
  let anchor: { entry: LogEntry; time: number } | null = null;
  let anchorRow = 0;
  let viewport = { width: 80, height: 10 };
  let newSincePause = 0;
  let evictedAtPause = 0;
  let newMatchesSincePause = 0;

  const resetNew = () => {
    newSincePause = 0;
    newMatchesSincePause = 0;
    evictedAtPause = model.evicted;
    return { newWhilePaused: 0, newMatchesWhilePaused: 0, evictedWhilePaused: 0 };
  };

  const store = createStore<LogsState>()((set, get) => {
    const lines = (e: LogEntry) => rowHeight(e, get().layout, get().wrap);

    function computeWindow(): ViewWindow {
      const s = get();
      return model.window({ following: s.following, anchor, anchorRow, fallback: s.view.selected, height: viewport.height, lines });
    }

    /** Recomputes the window now (after a key) and remembers the selection as the anchor. */
    function refreshView(extra: Partial<LogsState> = {}): void {
      set(extra);
      const w = computeWindow();
      rememberAnchor(w);
      viewDirty = false;
      const s = get();
      set({ view: sameRows(w, s.view) ? s.view : { ...w, version: s.view.version + 1 }, local: { ...s.local, matches: model.matches, counting: model.counting } });
    }

    function rememberAnchor(w: ViewWindow): void {
      const e = model.entryAt(w.selected);
      anchor = e ? { entry: e, time: model.timeAt(w.selected) } : null;
      anchorRow = w.rows.findIndex((r) => r.pos === w.selected);
      if (anchorRow < 0) anchorRow = 0;
    }

    function liveStatus(): LiveStatus | null {
      if (!engine) return null;
      const st = engine.status();
      const z = st.zones[0];
      const b = api.logs.budget.state(String(get().zoneId));
      return {
        state: z ? z.state : 'idle',
        error: z?.error ? z.error.message : null,
        errorStatus: z?.error ? z.error.status : null,
        coveredTo: z?.coveredTo ?? null,
        newest: z?.newest ?? null,
        recheckMs: z?.recheckMs ?? 0,
        ingestLagMs: z?.ingestLagMs ?? 0,
        intervalMs: z?.intervalMs ?? 0,
        backoffUntil: b.backoffUntil,
        requests: z?.requests ?? 0,
        late: z?.late ?? 0,
        backfillTruncated: z?.backfillTruncated ?? false,
        backfill: z?.backfill ?? null,
        buffered: st.buffered,
        dropped: st.dropped,
        duplicates: st.duplicates,
        budgetUsed: b.used,
        budgetLimit: b.limit,
        budgetWaiting: b.waiting,
        rateLimited: b.rateLimited,
      };
    }

    function flush(): void {
      frameTimer = null;
      lastFlush = now();
      const s = get();
      const patch: Partial<LogsState> = {};
      if (s.following || viewDirty) {
        const w = computeWindow();
        if (!s.following) rememberAnchor(w);
        viewDirty = false;
        if (!sameRows(w, s.view)) patch.view = { ...w, version: s.view.version + 1 };
      }
      const live = liveStatus();
      if (!shallowEqual(live, s.live)) patch.live = live;
      if (s.following) {
        newSincePause = 0;
        newMatchesSincePause = 0;
      }
      if (newSincePause !== s.newWhilePaused) patch.newWhilePaused = newSincePause;
      const evicted = s.following ? 0 : model.evicted - evictedAtPause;
      if (evicted !== s.evictedWhilePaused) patch.evictedWhilePaused = evicted;
      if (newMatchesSincePause !== s.newMatchesWhilePaused) patch.newMatchesWhilePaused = newMatchesSincePause;
      if (s.local.matches !== model.matches || s.local.counting !== model.counting) patch.local = { ...s.local, matches: model.matches, counting: model.counting };
      if (s.showStats && model.stats.version !== lastStatsVersion) {
        if (lastFlush - lastStatsAt >= statsMs) {
          patch.stats = snapshot();
        } else schedule(statsMs - (lastFlush - lastStatsAt));
      }
      if (Object.keys(patch).length) set(patch);
    }

    function snapshot(): StatsSnapshot {
      lastStatsAt = now();
      lastStatsVersion = model.stats.version;
      const end = engine && get().source === 'live' ? engine.settledBefore() : null;
      return model.stats.snapshot({ top: 5, rateSeconds: 120, rateEndMs: end ?? undefined });
    }

    /** Coalesces data and status changes into at most one update per frame. */
    function schedule(delay?: number): void {
      if (frameTimer !== null) return;
      const wait = delay ?? Math.max(0, frameMs - (now() - lastFlush));
      frameTimer = setTimeout(flush, wait);
      frameTimer.unref?.();
    }

    function stopEngine(): void {
      for (const off of engineOff) off();
      engineOff = [];
      if (engine) {
        const st = engine.status().zones[0];
        if (st?.coveredTo) lastCoveredTo = st.coveredTo;
        void engine.stop();
      }
      engine = null;
    }

    function startEngine(resume: boolean): void {
      stopEngine();
      const s = get();
      if (s.zoneId === null || s.source !== 'live' || !attached || s.zoneProblem) return;
      const t = now();
      const since = windowMs(s.windowKey);
      const startFrom = resume && lastCoveredTo !== null && model.buffer.length > 0 ? Math.max(lastCoveredTo - 5 * 60_000, t - since) : null;
      try {
        engine = api.logs.follow({
          zones: [s.zoneId],
          filter: filterOfDraft(s.filter),
          buffer: model.buffer,
          ...(startFrom !== null ? { from: startFrom } : { sinceMs: since }),
        });
      } catch (error) {
        ui.getState().setStatus(`cannot follow: ${errorMessage(error)}`, 'error', null);
        return;
      }
      const e = engine;
      engineOff.push(
        e.onRecords((entries, times) => {
          if (e !== engine) return;
          const matches = model.ingest(entries, times);
          if (!get().following) {
            // published with the next frame, not per batch
            newSincePause += entries.length;
            newMatchesSincePause += matches;
          }
          schedule();
        }),
        e.subscribe(() => schedule()),
        api.logs.budget.subscribe(() => schedule()),
      );
      e.start();
      schedule(0);
    }

    /** A new query (zone, window, server filters): empty buffer, follow from scratch. */
    function restart(): void {
      stopEngine();
      lastCoveredTo = null;
      model.reset(capacity);
      anchor = null;
      set({ following: true, ...resetNew(), detail: null, stats: null });
      lastStatsVersion = -1;
      refreshView();
      if (get().source === 'live') startEngine(false);
      else reloadV1Filtered();
    }

    async function checkZoneAndStart(id: number): Promise<void> {
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
      const raw = v1Raw;
      const v1 = get().v1;
      if (!raw || !v1) return;
      model.reset(capacity);
      const test = compileFilter(filterOfDraft(get().filter));
      const entries: LogEntry[] = [];
      const times: number[] = [];
      for (let i = 0; i < raw.entries.length; i++) {
        if (test(raw.entries[i]!)) {
          entries.push(raw.entries[i]!);
          times.push(raw.times[i]!);
        }
      }
      const kept = model.load(entries, times);
      anchor = null;
      set({ v1: { ...v1, kept }, following: true });
      refreshView();
    }

    async function loadV1(date: string): Promise<void> {
      const id = get().zoneId;
      if (id === null) return;
      stopEngine();
      v1Abort?.abort();
      const ctl = new AbortController();
      v1Abort = ctl;
      v1Raw = null;
      model.reset(capacity);
      anchor = null;
      set({ source: 'v1', v1: { date, loading: true, error: null, lines: 0, skipped: 0, problems: [], kept: 0, truncated: false }, following: true, detail: null, stats: null, ...resetNew() });
      lastStatsVersion = -1;
      refreshView();
      try {
        // Newest first, at most a buffer's worth of lines: the end of a busy day is what matters.
        const result = await api.logs.v1Day(id, date, { order: 'desc', end: capacity, signal: ctl.signal });
        if (ctl.signal.aborted || get().source !== 'v1') return;
        v1Raw = result;
        set({ v1: { date, loading: false, error: null, lines: result.lines, skipped: result.skipped, problems: result.problems, kept: 0, truncated: result.lines + result.skipped >= capacity } });
        reloadV1Filtered();
      } catch (error) {
        if (ctl.signal.aborted) return;
        set((s) => ({ v1: s.v1 ? { ...s.v1, loading: false, error: errorMessage(error) } : null }));
      }
    }

    async function runExport(file: string, format: ExportFormat, overwrite: boolean, records: LogEntry[]): Promise<void> {
      try {
        const r = await writeExport(file, records, { format, overwrite, showSecrets: settings.showSecrets });
        set({ lastExport: r });
        const rel = path.relative(cwd, file);
        const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
        ui.getState().setStatus(`exported ${r.records.toLocaleString('en-US')} record${r.records === 1 ? '' : 's'} (${format.toUpperCase()}, ${formatBytes(r.bytes)}) to ${shown}`, 'info', 20_000);
      } catch (error) {
        if (error instanceof ExportExistsError) {
          ui.getState().ask({
            kind: 'question',
            title: `${file} already exists`,
            detail: `Replace it with these ${records.length.toLocaleString('en-US')} records? (no keeps the file and lets you pick another name)`,
            lines: [],
            yesLabel: 'replace',
            onYes: () => runExport(file, format, true, records),
            onNo: () => set({ prompt: { kind: 'export', text: textOf(file), format, error: 'that file exists: change the name, or enter again to be asked to replace it', records: records.length } }),
          });
          return;
        }
        ui.getState().setStatus(`export to ${file} failed: ${errorMessage(error)}`, 'error', null);
      }
    }

    model.onScanProgress = () => {
      viewDirty = true;
      schedule();
    };

    function selectedEntry(): LogEntry | null {
      const s = get();
      if (s.detail) return s.detail.entry;
      return s.view.rows.find((r) => r.pos === s.view.selected)?.entry ?? null;
    }

    return {
      zoneId: null,
      zoneName: null,
      zoneProblem: null,
      picker: { zones: [], withoutLogging: 0, loading: false, error: null, loadedAt: null },
      source: 'live',
      windowKey: '15m',
      filter: emptyDraft(),
      form: null,
      local: { editing: false, text: emptyText, error: null, pattern: null, mode: 'filter', context: 0, matches: 0, counting: false },
      wrap: false,
      timeMode: 'short',
      showStats: false,
      following: true,
      newWhilePaused: 0,
      evictedWhilePaused: 0,
      newMatchesWhilePaused: 0,
      view: { rows: [], total: 0, selected: 0, offset: 0, version: 0 },
      layout: streamLayout(80, 'short'),
      live: null,
      v1: null,
      stats: null,
      detail: null,
      prompt: null,
      lastExport: null,

      attach(arg) {
        if (arg === null) {
          void get().loadPicker();
          return () => pickerAbort?.abort();
        }
        const id = Number(arg);
        if (get().zoneId !== id) {
          stopEngine();
          v1Abort?.abort();
          v1Raw = null;
          lastCoveredTo = null;
          zoneChecked = null;
          model.reset(capacity);
          model.setPattern(null);
          anchor = null;
          set({
            zoneId: id, zoneName: null, zoneProblem: null, source: 'live', filter: emptyDraft(), form: null, v1: null, detail: null, prompt: null,
            following: true, ...resetNew(), stats: null, live: null,
            local: { editing: false, text: emptyText, error: null, pattern: null, mode: 'filter', context: 0, matches: 0, counting: false },
          });
          lastStatsVersion = -1;
        }
        attached = true;
        refreshView();
        if (get().source === 'live') void checkZoneAndStart(id);
        ticker = setInterval(() => schedule(), 1000);
        ticker.unref?.();
        return () => {
          attached = false;
          zoneAbort?.abort();
          stopEngine();
          if (ticker) clearInterval(ticker);
          ticker = null;
          if (frameTimer) clearTimeout(frameTimer);
          frameTimer = null;
        };
      },

      async loadPicker() {
        pickerAbort?.abort();
        const ctl = new AbortController();
        pickerAbort = ctl;
        set((s) => ({ picker: { ...s.picker, loading: true, error: null } }));
        try {
          const all = await api.pullZones.list(ctl.signal);
          if (ctl.signal.aborted) return;
          const zones = all
            .filter((z) => z.EnableLogging === true)
            .map((z) => ({ id: z.Id, name: z.Name ?? '', hostname: z.Hostnames.find((h) => !h.IsSystemHostname)?.Value ?? z.Hostnames[0]?.Value ?? '' }));
          set({ picker: { zones, withoutLogging: all.length - zones.length, loading: false, error: null, loadedAt: now() } });
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
        refreshView({ layout: streamLayout(width, s.timeMode) });
      },

      move(kind) {
        const s = get();
        if (s.view.total === 0 && model.total === 0) return;
        if (kind === 'bottom') {
          anchor = null;
          refreshView({ following: true, ...resetNew() });
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
        const entry = model.entryAt(target);
        anchor = entry ? { entry, time: model.timeAt(target) } : null;
        anchorRow = Math.max(0, targetRow);
        const pausing = s.following;
        refreshView({ following: false, ...(pausing ? resetNew() : {}) });
      },

      togglePause() {
        const s = get();
        if (s.following) {
          refreshView({ following: false, ...resetNew() });
        } else {
          anchor = null;
          refreshView({ following: true, ...resetNew() });
        }
      },

      pollNow() {
        if (engine) {
          engine.pollNow();
          ui.getState().setStatus('polling now', 'info', 2000);
        } else if (get().source === 'v1' && get().v1) void loadV1(get().v1!.date);
      },

      setWindow(key) {
        const s = get();
        if (s.source === 'v1') {
          ui.getState().setStatus('the time window applies to the live follow; esc leaves the v1 day first', 'info', 5000);
          return;
        }
        if (s.windowKey === key && engine) return;
        set({ windowKey: key });
        restart();
        ui.getState().setStatus(`following from ${key} ago`, 'info', 3000);
      },

      toggleWrap() {
        refreshView({ wrap: !get().wrap });
      },

      cycleTime() {
        const next: Record<TimeMode, TimeMode> = { short: 'full', full: 'off', off: 'short' };
        const timeMode = next[get().timeMode];
        refreshView({ timeMode, layout: streamLayout(viewport.width, timeMode) });
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
        model.setPattern(p, s.following ? null : anchor?.time ?? null);
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
        const entry = model.entryAt(target);
        anchor = entry ? { entry, time: model.timeAt(target) } : null;
        anchorRow = Math.floor(viewport.height / 2);
        refreshView({ following: false, ...(s.following ? resetNew() : {}) });
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
        const draft = draftOfForm(form);
        const errors = validateDraft(draft);
        if (errors) {
          const first = FILTER_FIELDS.findIndex((f) => errors[f.id] !== undefined);
          set({ form: { ...form, errors, focus: first >= 0 ? first : form.focus } });
          ui.getState().setStatus(`not sent: ${Object.values(errors).join('; ')}`, 'error', 10_000);
          return false;
        }
        const changed = FILTER_FIELDS.some((f) => draft[f.id] !== get().filter[f.id]);
        set({ form: null, filter: draft });
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
        set({ filter: emptyDraft(), form: null });
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
        const e = selectedEntry();
        if (!e) return { error: 'no record selected' };
        if (kind === 'id') {
          if (e.requestId === null) return { error: 'this record has no request id' };
          return { text: e.requestId, what: `request id ${e.requestId}` };
        }
        return { text: JSON.stringify(exportRecord(e, settings.showSecrets)), what: `the record of ${e.requestId ?? e.timestamp} as JSON` };
      },

      openExport() {
        const s = get();
        if (s.zoneId === null) return;
        model.finishScan();
        const records = model.filtering ? model.matches : model.buffer.length;
        const label = s.source === 'v1' && s.v1 ? `${s.zoneId}-v1-${s.v1.date}` : String(s.zoneId);
        set({ prompt: { kind: 'export', text: textOf(defaultExportPath(cwd, label, 'ndjson', now())), format: 'ndjson', error: null, records } });
      },

      openV1() {
        if (get().zoneId === null || get().zoneProblem) return;
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
        const records = model.exportRecords();
        set({ prompt: null });
        void runExport(file, format, false, records);
      },

      cancelPrompt() {
        set({ prompt: null });
      },

      closeV1() {
        if (get().source !== 'v1') return false;
        v1Abort?.abort();
        v1Raw = null;
        set({ source: 'live', v1: null });
        restart();
        return true;
      },
    };
  });
  return store;
}

/** For the detail view and copies: the authorization header masked unless secrets are shown. */
export function maskFor(showSecrets: boolean): (secret: string) => string {
  return showSecrets ? (s) => s : (s) => maskSecret(s);
}
