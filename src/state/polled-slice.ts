import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Api } from '../api/index';
import { createPoller, sharedPoller, statusBarHooks, type Poller, type PollerState, type SharedPoller } from './poller';
import { errorMessage, refreshIntervalMs, type StoreDeps } from './domain-stores';

/** What a polled store gives its screen: live refresh while watched, refresh now, pause. */
export interface PolledSlice {
  /** Live refresh while a view watches; returns the way out. */
  watch(): () => void;
  /** Reads now (through the poller when it runs, so requests never overlap). */
  refresh(): Promise<void>;
  togglePause(): void;
  /** The poller while a view watches (null otherwise). */
  readonly current: Poller | null;
}

export interface PolledSliceOptions<T> {
  fetch(signal?: AbortSignal): Promise<T>;
  /**
   * Puts a result in the store (the status bar's "updated" time is recorded here). A result read
   * in parts may return the first part's error: the status bar shows it instead.
   */
  loaded(result: T, at: number): string | null | void;
  /** Puts an error in the store (the status bar shows it too); `error` for a store that keeps more than the message. */
  failed(message: string, at: number, error: unknown): void;
  /** The store's mirror of the pause switch, and its last load time. */
  setPaused(paused: boolean): void;
  paused(): boolean;
  loadedAt(): number | null;
  /** After every change of the poller's state (a request in flight: `state.inFlight`). */
  onState?(state: PollerState): void;
  /** When the last view stops watching (abort what the views started). */
  onLastLeave?(): void;
}

/**
 * The poller block every polled store had: a shared poller on the settings' interval (started by
 * the first view that watches, paused with the status bar's badge), refresh, and the status bar's
 * success and error records.
 */
export function polledSlice<T>(deps: StoreDeps, o: PolledSliceOptions<T>): PolledSlice {
  const { ui } = deps;
  let polling: SharedPoller | null = null;
  const onSuccess = (result: T, at: number) => {
    const partFailed = o.loaded(result, at);
    if (partFailed) ui.getState().recordError(partFailed, at);
    else ui.getState().recordSuccess(at);
  };
  const onError = (error: unknown, at: number) => {
    const message = errorMessage(error);
    o.failed(message, at, error);
    ui.getState().recordError(message, at);
  };
  const shared = () =>
    (polling ??= sharedPoller({
      create: () =>
        createPoller<T>({
          intervalMs: refreshIntervalMs(deps.settings),
          now: deps.now,
          timers: deps.timers,
          task: o.fetch,
          onSuccess,
          onError,
          onState: o.onState,
        }),
      ...statusBarHooks(ui, { setPaused: o.setPaused, paused: o.paused, loadedAt: o.loadedAt }),
      onLastLeave: o.onLastLeave,
    }));
  return {
    watch: () => shared().watch(),
    async refresh() {
      if (polling?.current?.state.running) return polling.current.refreshNow();
      try {
        onSuccess(await o.fetch(), deps.now());
      } catch (error) {
        onError(error, deps.now());
      }
    },
    togglePause: () => {
      shared().togglePaused();
    },
    get current() {
      return polling?.current ?? null;
    },
  };
}

/** What a polled list screen reads: its rows and the poll's state, and the actions of every list. */
export interface PolledList<T> {
  rows: T[];
  loadedAt: number | null;
  error: string | null;
  paused: boolean;
  watch(): () => void;
  refresh(): Promise<void>;
  togglePause(): void;
}

/**
 * A whole store for a list that is read in one request and refreshed on the settings' interval:
 * a simple resource's screen needs no store file of its own. Keep the result in a module
 * constant (the console keeps one store per creator).
 */
export function polledListStore<T>(fetch: (api: Api, signal?: AbortSignal) => Promise<T[]>): (deps: StoreDeps) => StoreApi<PolledList<T>> {
  return (deps) =>
    createStore<PolledList<T>>()((set, get) => {
      const polled = polledSlice<T[]>(deps, {
        fetch: (signal) => fetch(deps.api, signal),
        loaded: (rows, at) => set({ rows, loadedAt: at, error: null }),
        failed: (message) => set({ error: message }),
        setPaused: (paused) => set({ paused }),
        paused: () => get().paused,
        loadedAt: () => get().loadedAt,
      });
      return { rows: [], loadedAt: null, error: null, paused: false, watch: polled.watch, refresh: polled.refresh, togglePause: polled.togglePause };
    });
}
