import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LoadBalancer } from '../api/load-balancers';
import { polledSlice } from './polled-slice';
import type { StoreDeps } from './domain-stores';

/** Load balancer profiles: the list, and one profile read through GET /loadbalancer/{id}. */
export interface LoadBalancersState {
  rows: LoadBalancer[];
  loadedAt: number | null;
  error: string | null;
  paused: boolean;
  /** The open profile's id, or null on the list. */
  profileId: number | null;
  profile: LoadBalancer | null;
  profileError: string | null;

  /** Live refresh of what is shown (the list, or the open profile); returns the stop function. */
  watch(): () => void;
  refresh(): Promise<void>;
  togglePause(): void;
  openProfile(id: number): void;
  closeProfile(): void;
}

export type LoadBalancersStore = StoreApi<LoadBalancersState>;

type Polled = { kind: 'list'; rows: LoadBalancer[] } | { kind: 'profile'; id: number; profile: LoadBalancer };

export function createLoadBalancersStore(deps: StoreDeps): LoadBalancersStore {
  const { api } = deps;

  return createStore<LoadBalancersState>()((set, get) => {
    const fetch = async (signal?: AbortSignal): Promise<Polled> => {
      const id = get().profileId;
      if (id !== null) return { kind: 'profile', id, profile: await api.loadBalancers.get(id, signal) };
      return { kind: 'list', rows: await api.loadBalancers.listAll(signal) };
    };
    const polled = polledSlice<Polled>(deps, {
      fetch,
      loaded: (r, at) => {
        if (r.kind === 'list') set({ rows: r.rows, loadedAt: at, error: null });
        else if (get().profileId === r.id) {
          // Keep the list row in step with the profile just read.
          set((s) => ({ profile: r.profile, profileError: null, rows: s.rows.map((l) => (l.LoadBalancerId === r.id ? r.profile : l)) }));
        }
      },
      failed: (message) => {
        if (get().profileId !== null) set({ profileError: message });
        else set({ error: message });
      },
      // the pause switch lives in the shared poller; `paused` in this store mirrors it for the screen
      setPaused: (paused) => set({ paused }),
      paused: () => get().paused,
      loadedAt: () => get().loadedAt,
    });

    return {
      rows: [],
      loadedAt: null,
      error: null,
      paused: false,
      profileId: null,
      profile: null,
      profileError: null,

      watch: polled.watch,
      refresh: polled.refresh,
      togglePause: polled.togglePause,
      openProfile(id) {
        const listed = get().rows.find((l) => l.LoadBalancerId === id) ?? null;
        // Show the listed copy at once; the GET replaces it when it answers.
        set({ profileId: id, profile: listed, profileError: null });
        void (async () => {
          const poller = polled.current;
          if (poller?.state.running) {
            // A list request may be in flight: let it finish, then read the profile.
            await poller.refreshNow();
            if (get().profileId === id && get().profile === listed) await poller.refreshNow();
          } else await get().refresh();
        })();
      },
      closeProfile() {
        set({ profileId: null, profile: null, profileError: null });
      },
    };
  });
}
