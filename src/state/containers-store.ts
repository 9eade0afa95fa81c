import { createStore, type StoreApi } from 'zustand/vanilla';
import type { App, ContainerLimits, CursorPage, Region, RegionSettings } from '../api/containers';
import type { AppDetail, AppOverview, VolumesAnswer } from '../api/containers-workload';
import { ApiError, isApiError } from '../api/errors';
import { emptyText, textOf, type TextState } from '../keys/text-edit';
import {
  baseForDiff,
  bumpMax,
  deleteSelector,
  draftBody,
  draftFrom,
  hasMessages,
  isDirty,
  mapServerErrors,
  putSelector,
  toggleAllowed,
  toggleRequired,
  validateDraft,
  type FieldMessages,
  type RegionDraft,
  type SelectorRow,
} from './containers-region-draft';
import { polledSlice } from './polled-slice';
import { errorMessage, refreshIntervalMs, type StoreDeps } from './domain-stores';
import { watchUnsent } from './unsent-guard';

/** Applications asked for per page (the API allows 1..1000, default 20). */
export const APPS_PAGE_SIZE = 50;

export interface AppsList {
  items: App[];
  /** Pass back for the next page; null when everything is loaded. */
  cursor: string | null;
  totalItems: number | null;
  /** A next page is being loaded (loadMoreApps). */
  loading: boolean;
  error: string | null;
  /** Null until the first page arrived. */
  loadedAt: number | null;
}

export type EditorFocus = 'regions' | 'selectors';

/** A node selector row being typed: the key first, then the value. */
export interface SelectorEdit {
  index: number | null;
  field: 'key' | 'value';
  key: TextState;
  value: TextState;
}

export type SaveOutcome =
  | { kind: 'saved'; at: number }
  | { kind: 'failed'; message: string }
  /** The PUT was sent and its answer lost: it may or may not have been applied (never retried). */
  | { kind: 'unknown'; message: string };

/** What the app runs and where (read-only context for the editor); each part null until loaded. */
export interface AppWorkload {
  detail: AppDetail | null;
  overview: AppOverview | null;
  volumes: VolumesAnswer | null;
  error: string | null;
}

export interface RegionEditor {
  app: App;
  workload: AppWorkload;
  /** The full read-only details list (`i`) in place of the region checklist. */
  showDetails: boolean;
  settings: RegionSettings | null;
  settingsError: string | null;
  draft: RegionDraft | null;
  /** Validation errors the server answered, mapped to the editor's fields. */
  serverErrors: FieldMessages;
  outcome: SaveOutcome | null;
  focus: EditorFocus;
  selectorEdit: SelectorEdit | null;
}

/** Magic Containers: limits and usage, the applications list, and one app's region settings editor. */
export interface ContainersState {
  limits: ContainerLimits | null;
  limitsAt: number | null;
  limitsError: string | null;
  limitsLoading: boolean;
  paused: boolean;
  apps: AppsList;
  regions: Region[] | null;
  regionsError: string | null;
  editor: RegionEditor | null;

  /** Starts live refresh (limits, apps, and the open editor's settings); returns the stop function. */
  watch(): () => void;
  /** Same as watch (kept for the limits panel). */
  watchLimits(): () => void;
  refresh(): Promise<void>;
  refreshLimits(): Promise<void>;
  togglePause(): void;
  /** Loads the next page of applications, if there is one and none is loading. */
  loadMoreApps(): Promise<void>;

  openEditor(app: App): void;
  closeEditor(): void;
  /** Throws the draft away and starts again from the current settings. */
  resetDraft(): void;
  toggleAllowed(regionId: string): void;
  toggleRequired(regionId: string): void;
  bumpMax(delta: number): void;
  setFocus(focus: EditorFocus): void;
  toggleDetails(): void;
  startSelectorEdit(index: number | null): void;
  setSelectorText(text: TextState): void;
  /** Enter in the selector field: from the key to the value, then into the draft. */
  selectorEnter(): void;
  cancelSelectorEdit(): void;
  deleteSelector(index: number): void;
  /** Validates, then asks through the one confirm path with the diff, then PUTs. */
  save(): void;
}

export type ContainersStore = StoreApi<ContainersState>;

interface PollResult {
  limits: PromiseSettledResult<ContainerLimits>;
  apps: PromiseSettledResult<{ page: CursorPage<App>; asked: number }>;
  regions: PromiseSettledResult<Region[]> | null;
  settings: { appId: string; result: PromiseSettledResult<RegionSettings | null> } | null;
  workload: { appId: string; result: WorkloadResult } | null;
}

type WorkloadResult = [PromiseSettledResult<AppDetail>, PromiseSettledResult<AppOverview>, PromiseSettledResult<VolumesAnswer>];
const emptyWorkload: AppWorkload = { detail: null, overview: null, volumes: null, error: null };

const emptyApps: AppsList = { items: [], cursor: null, totalItems: null, loading: false, error: null, loadedAt: null };

/** The refreshed first `asked` apps, followed by any loaded after them meanwhile (no duplicates). */
function mergeRefreshed(current: AppsList, page: CursorPage<App>, asked: number): Pick<AppsList, 'items' | 'cursor' | 'totalItems'> {
  if (current.items.length <= asked) return { items: page.items, cursor: page.cursor, totalItems: page.totalItems };
  const ids = new Set(page.items.map((a) => a.id));
  const tail = current.items.slice(asked).filter((a) => !ids.has(a.id));
  return { items: [...page.items, ...tail], cursor: current.cursor, totalItems: page.totalItems };
}

export interface ContainersStoreOptions {
  /** Applications per page (1..1000). */
  pageSize?: number;
}

/** The console's containers store (used through useDomainStore). */
export function createContainersStore(deps: StoreDeps): ContainersStore {
  return createContainersStoreWith(deps);
}

export function createContainersStoreWith(deps: StoreDeps, options: ContainersStoreOptions = {}): ContainersStore {
  const { api, ui } = deps;
  const pageSize = options.pageSize ?? APPS_PAGE_SIZE;
  let editorLoad: AbortController | null = null;
  /** Node selectors burrow sent per app since the console started (the API does not return them). */
  const sentSelectors = new Map<string, SelectorRow[]>();

  const store = createStore<ContainersState>()((set, get) => {
    const setEditor = (patch: Partial<RegionEditor>) => {
      const e = get().editor;
      if (e) set({ editor: { ...e, ...patch } });
    };
    /** A draft change: server messages and the last outcome no longer apply. */
    const editDraft = (f: (d: RegionDraft) => RegionDraft) => {
      const e = get().editor;
      if (!e?.draft) return;
      set({ editor: { ...e, draft: f(e.draft), serverErrors: {}, outcome: null } });
    };
    const applySettings = (appId: string, settings: RegionSettings) => {
      const e = get().editor;
      if (!e || e.app.id !== appId) return;
      const keep = e.draft && e.settings && isDirty(e.draft, e.settings);
      set({
        editor: {
          ...e,
          settings,
          settingsError: null,
          draft: keep ? e.draft : draftFrom(settings, sentSelectors.get(appId) ?? null),
        },
      });
    };

    const fetchWorkload = (appId: string, signal: AbortSignal): Promise<WorkloadResult> =>
      Promise.allSettled([api.containers.getApp(appId, signal), api.containers.getAppOverview(appId, signal), api.containers.listVolumes(appId, signal)]);
    /** Keeps the last good part when a refresh of it fails; the first failure's message is kept. */
    const applyWorkload = (appId: string, [detail, overview, volumes]: WorkloadResult): string | null => {
      const e = get().editor;
      const failed = [detail, overview, volumes].find((r) => r.status === 'rejected');
      const error = failed ? errorMessage(failed.reason) : null;
      if (!e || e.app.id !== appId) return error;
      const w = e.workload;
      setEditor({
        workload: {
          detail: detail.status === 'fulfilled' ? detail.value : w.detail,
          overview: overview.status === 'fulfilled' ? overview.value : w.overview,
          volumes: volumes.status === 'fulfilled' ? volumes.value : w.volumes,
          error,
        },
      });
      return error;
    };

    const poll = async (signal: AbortSignal): Promise<PollResult> => {
      const editor = get().editor;
      const asked = Math.min(1000, Math.max(pageSize, get().apps.items.length));
      const [limits, apps, regions, settings, workload] = await Promise.allSettled([
        api.containers.getLimits(signal),
        api.containers.listApps({ limit: asked }, signal).then((page) => ({ page, asked })),
        editor ? api.containers.listAllRegions(signal) : Promise.resolve([]),
        editor ? api.containers.getRegionSettings(editor.app.id, signal) : Promise.resolve(null),
        editor ? fetchWorkload(editor.app.id, signal) : Promise.resolve(null),
      ]);
      return {
        limits,
        apps,
        regions: editor ? regions : null,
        settings: editor ? { appId: editor.app.id, result: settings } : null,
        workload: editor && workload.status === 'fulfilled' && workload.value ? { appId: editor.app.id, result: workload.value } : null,
      };
    };

    const onPolled = (r: PollResult, at: number) => {
      const errors: string[] = [];
      if (r.limits.status === 'fulfilled') set({ limits: r.limits.value, limitsAt: at, limitsError: null });
      else {
        const m = errorMessage(r.limits.reason);
        set({ limitsError: m });
        errors.push(m);
      }
      if (r.apps.status === 'fulfilled') {
        const { page, asked } = r.apps.value;
        set((s) => ({ apps: { ...s.apps, ...mergeRefreshed(s.apps, page, asked), error: null, loadedAt: at } }));
      } else {
        const m = errorMessage(r.apps.reason);
        set((s) => ({ apps: { ...s.apps, error: m } }));
        errors.push(m);
      }
      if (r.regions?.status === 'fulfilled') set({ regions: r.regions.value, regionsError: null });
      else if (r.regions?.status === 'rejected') {
        const m = errorMessage(r.regions.reason);
        set({ regionsError: m });
        errors.push(m);
      }
      if (r.settings) {
        if (r.settings.result.status === 'fulfilled') {
          if (r.settings.result.value) applySettings(r.settings.appId, r.settings.result.value);
        } else {
          const m = errorMessage(r.settings.result.reason);
          if (get().editor?.app.id === r.settings.appId) setEditor({ settingsError: m });
          errors.push(m);
        }
      }
      if (r.workload) {
        const m = applyWorkload(r.workload.appId, r.workload.result);
        if (m) errors.push(m);
      }
      return errors[0] ?? null;
    };

    const loadEditor = async (appId: string) => {
      editorLoad?.abort();
      const ctl = new AbortController();
      editorLoad = ctl;
      const [settings, regions, workload] = await Promise.allSettled([
        api.containers.getRegionSettings(appId, ctl.signal),
        get().regions ? Promise.resolve(get().regions!) : api.containers.listAllRegions(ctl.signal),
        fetchWorkload(appId, ctl.signal),
      ]);
      if (ctl.signal.aborted || get().editor?.app.id !== appId) return;
      if (workload.status === 'fulfilled') applyWorkload(appId, workload.value);
      if (regions.status === 'fulfilled') set({ regions: regions.value, regionsError: null });
      else set({ regionsError: errorMessage(regions.reason) });
      if (settings.status === 'fulfilled') applySettings(appId, settings.value);
      else {
        setEditor({ settingsError: errorMessage(settings.reason) });
        ui.getState().recordError(errorMessage(settings.reason));
      }
    };

    const polled = polledSlice<PollResult>(deps, {
      fetch: (signal) => poll(signal ?? new AbortController().signal),
      loaded: onPolled,
      // the parts fail one by one (onPolled); a failure of the whole read is only the status bar's
      failed: () => {},
      setPaused: (paused) => set({ paused }),
      paused: () => get().paused,
      loadedAt: () => get().limitsAt,
      onState: (s) => set({ limitsLoading: s.inFlight }),
      onLastLeave: () => editorLoad?.abort(),
    });

    return {
      limits: null,
      limitsAt: null,
      limitsError: null,
      limitsLoading: false,
      paused: false,
      apps: emptyApps,
      regions: null,
      regionsError: null,
      editor: null,

      watch: polled.watch,
      watchLimits() {
        return get().watch();
      },
      refresh: polled.refresh,
      async refreshLimits() {
        if (polled.current?.state.running) return polled.current.refreshNow();
        try {
          const limits = await api.containers.getLimits();
          const at = deps.now();
          set({ limits, limitsAt: at, limitsError: null });
          ui.getState().recordSuccess(at);
        } catch (error) {
          const message = errorMessage(error);
          set({ limitsError: message });
          ui.getState().recordError(message);
        }
      },
      togglePause: polled.togglePause,
      async loadMoreApps() {
        const apps = get().apps;
        if (apps.loading || apps.cursor === null || apps.loadedAt === null) return;
        set({ apps: { ...apps, loading: true } });
        try {
          const page = await api.containers.listApps({ limit: pageSize, cursor: apps.cursor });
          set((s) => {
            const ids = new Set(s.apps.items.map((a) => a.id));
            return {
              apps: {
                ...s.apps,
                items: [...s.apps.items, ...page.items.filter((a) => !ids.has(a.id))],
                cursor: page.cursor,
                totalItems: page.totalItems ?? s.apps.totalItems,
                loading: false,
                error: null,
              },
            };
          });
        } catch (error) {
          const m = errorMessage(error);
          set((s) => ({ apps: { ...s.apps, loading: false, error: m } }));
          ui.getState().recordError(m);
        }
      },

      openEditor(app) {
        set({
          editor: {
            app,
            workload: emptyWorkload,
            showDetails: false,
            settings: null,
            settingsError: null,
            draft: null,
            serverErrors: {},
            outcome: null,
            focus: 'regions',
            selectorEdit: null,
          },
        });
        void loadEditor(app.id);
      },
      closeEditor() {
        editorLoad?.abort();
        set({ editor: null });
      },
      resetDraft() {
        const e = get().editor;
        if (!e?.settings) return;
        set({ editor: { ...e, draft: draftFrom(e.settings, sentSelectors.get(e.app.id) ?? null), serverErrors: {}, outcome: null, selectorEdit: null } });
      },
      toggleAllowed(regionId) {
        editDraft((d) => toggleAllowed(d, regionId));
      },
      toggleRequired(regionId) {
        editDraft((d) => toggleRequired(d, regionId));
      },
      bumpMax(delta) {
        editDraft((d) => bumpMax(d, delta, get().limits?.maxNumberOfRegionsPerApplication ?? null));
      },
      setFocus(focus) {
        setEditor({ focus });
      },
      toggleDetails() {
        const e = get().editor;
        if (e) setEditor({ showDetails: !e.showDetails });
      },
      startSelectorEdit(index) {
        const e = get().editor;
        if (!e?.draft) return;
        const row = index === null ? null : (e.draft.selectors[index] ?? null);
        setEditor({
          focus: 'selectors',
          selectorEdit: { index: row ? index : null, field: 'key', key: row ? textOf(row.key) : emptyText, value: row ? textOf(row.value) : emptyText },
        });
      },
      setSelectorText(text) {
        const edit = get().editor?.selectorEdit;
        if (!edit) return;
        setEditor({ selectorEdit: { ...edit, [edit.field]: text } });
      },
      selectorEnter() {
        const edit = get().editor?.selectorEdit;
        if (!edit) return;
        if (edit.field === 'key') {
          if (edit.key.value.trim() === '') {
            ui.getState().setStatus('a node selector needs a key (esc cancels)', 'warn', 5000);
            return;
          }
          setEditor({ selectorEdit: { ...edit, field: 'value' } });
          return;
        }
        setEditor({ selectorEdit: null });
        editDraft((d) => putSelector(d, edit.index, { key: edit.key.value, value: edit.value.value }));
      },
      cancelSelectorEdit() {
        setEditor({ selectorEdit: null });
      },
      deleteSelector(index) {
        editDraft((d) => deleteSelector(d, index));
      },

      save() {
        const e = get().editor;
        if (!e) return;
        if (!e.settings || !e.draft) {
          ui.getState().setStatus('the region settings are not loaded yet', 'warn', 5000);
          return;
        }
        const problems = validateDraft(e.draft, get().limits, get().regions);
        if (hasMessages(problems)) {
          ui.getState().setStatus('not sent: fix the fields marked ✖ first', 'error', 8000);
          return;
        }
        const appId = e.app.id;
        const draft = e.draft;
        const body = draftBody(draft);
        const name = e.app.name ?? appId;
        ui.getState().confirmMutation({
          title: `Save region settings (${name})`,
          before: baseForDiff(e.settings, draft),
          after: body,
          successMessage: `region settings of ${name} saved`,
          send: async () => {
            try {
              await api.containers.putRegionSettings(appId, body);
            } catch (error) {
              const message = errorMessage(error);
              if (isApiError(error) && error.kind === 'unknown-outcome') {
                // Never retried: the settings are read back instead, so the user sees what the platform has.
                let fresh: RegionSettings | null = null;
                try {
                  fresh = await api.containers.getRegionSettings(appId);
                } catch {
                  // the read-back failed too: say so below
                }
                const text = fresh
                  ? 'unknown outcome: the PUT of the region settings was sent but no answer came (it was not retried); refreshed state shown, check it'
                  : `${message}; reading the settings back failed too, refresh (r) to see them`;
                const now = get().editor;
                if (now?.app.id === appId) {
                  setEditor(
                    fresh
                      ? {
                          settings: fresh,
                          draft: draftFrom(fresh, sentSelectors.get(appId) ?? null),
                          serverErrors: {},
                          outcome: { kind: 'unknown', message: text },
                        }
                      : { outcome: { kind: 'unknown', message: text } },
                  );
                }
                throw new ApiError({ kind: 'unknown-outcome', message: text, method: 'PUT', path: error.path ?? undefined, cause: error });
              }
              if (get().editor?.app.id === appId) {
                const fields = isApiError(error) ? error.fieldErrors : [];
                setEditor({ serverErrors: mapServerErrors(fields, message), outcome: { kind: 'failed', message } });
              }
              throw error;
            }
            if (body.nodeSelectors)
              sentSelectors.set(
                appId,
                draft.selectors.map((s) => ({ ...s })),
              );
            // The PUT answers an empty 200: read the settings back to show what the platform has now.
            let fresh: RegionSettings | null = null;
            try {
              fresh = await api.containers.getRegionSettings(appId);
            } catch (error) {
              ui.getState().recordError(`saved, but reading the settings back failed: ${errorMessage(error)}`);
            }
            const now = get().editor;
            if (now?.app.id !== appId || !now.settings) return;
            // Without the read-back, show what the platform accepted until the next refresh.
            const settings: RegionSettings = fresh ?? {
              ...now.settings,
              allowedRegionIds: [...draft.allowed],
              requiredRegionIds: [...draft.required],
              maxAllowedRegions: draft.maxAllowedRegions ?? now.settings.maxAllowedRegions,
            };
            set({
              editor: {
                ...now,
                settings,
                draft: draftFrom(settings, sentSelectors.get(appId) ?? null),
                serverErrors: {},
                outcome: { kind: 'saved', at: deps.now() },
              },
            });
          },
        });
      },
    };
  });
  watchUnsent(ui, 'containers', store, ({ editor: e }) =>
    e?.draft && e.settings && isDirty(e.draft, e.settings) ? `region settings of ${e.app.name ?? e.app.id}: changes not sent yet` : null,
  );
  return store;
}
