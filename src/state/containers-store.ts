import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ContainerLimits } from '../api/containers';
import { createPoller, type Poller } from './poller';
import { errorMessage, refreshIntervalMs, type StoreDeps } from './session';

/** Magic Containers: limits and usage (the apps list and region settings come next to it). */
export interface ContainersState {
  limits: ContainerLimits | null;
  limitsAt: number | null;
  limitsError: string | null;
  limitsLoading: boolean;
  paused: boolean;
  /** Starts live refresh of the limits; the returned function stops it (screen unmount). */
  watchLimits(): () => void;
  refreshLimits(): Promise<void>;
  togglePause(): void;
}

export type ContainersStore = StoreApi<ContainersState>;

export function createContainersStore(deps: StoreDeps): ContainersStore {
  const { api, ui } = deps;
  let poller: Poller | null = null;
  let watchers = 0;
  const store = createStore<ContainersState>()((set, get) => ({
    limits: null,
    limitsAt: null,
    limitsError: null,
    limitsLoading: false,
    paused: false,
    watchLimits() {
      watchers += 1;
      if (!poller) {
        poller = createPoller<ContainerLimits>({
          intervalMs: refreshIntervalMs(deps.settings),
          now: deps.now,
          task: (signal) => api.containers.getLimits(signal),
          onSuccess: (limits, at) => {
            set({ limits, limitsAt: at, limitsError: null });
            ui.getState().recordSuccess(at);
          },
          onError: (error, at) => {
            const message = errorMessage(error);
            set({ limitsError: message });
            ui.getState().recordError(message, at);
          },
          onState: (s) => set({ limitsLoading: s.inFlight }),
        });
      }
      if (get().paused) {
        poller.pause();
        ui.getState().setPaused(true);
      }
      poller.start();
      if (get().limitsAt !== null) ui.getState().recordSuccess(get().limitsAt!);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        watchers -= 1;
        if (watchers === 0) poller?.stop();
      };
    },
    async refreshLimits() {
      if (poller?.state.running) return poller.refreshNow();
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
    togglePause() {
      const paused = !get().paused;
      set({ paused });
      ui.getState().setPaused(paused);
      if (paused) poller?.pause();
      else poller?.resume();
    },
  }));
  return store;
}
