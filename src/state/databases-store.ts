import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Database } from '../api/database-management';
import type { DatabaseUsage } from '../api/database-usage';
import { polledSlice } from './polled-slice';
import { errorMessage, type StoreDeps } from './domain-stores';

/** A token made from this console (the platform cannot list tokens: these are the ones known here). */
export interface MadeToken {
  access: 'read-only' | 'full-access';
  expiresAt: string | null;
  createdAt: number;
  /** The whole token, shown once: only for the newest one, until the pane closes. */
  token: string | null;
}

/** Expiries offered when making a token from the tokens pane. */
export const TOKEN_EXPIRIES: { label: string; ms: number | null }[] = [
  { label: '1 day', ms: 86_400_000 },
  { label: '30 days', ms: 30 * 86_400_000 },
  { label: '1 year', ms: 365 * 86_400_000 },
  { label: 'never', ms: null },
];

/** One database of the account with its usage over the last 30 days (null when that call failed). */
export interface DatabaseRow {
  db: Database;
  usage: DatabaseUsage | null;
}

export interface DatabasesState {
  rows: DatabaseRow[];
  loadedAt: number | null;
  error: string | null;
  paused: boolean;
  watch(): () => void;
  refresh(): Promise<void>;
  togglePause(): void;
  /** Why the last enter did not open the database, or null. */
  openError: string | null;
  /**
   * Makes a session token for the database (1 hour; read-only in read-only mode): the platform
   * can only revoke all of a database's tokens at once, so it is left to expire.
   */
  sessionToken(db: Database): Promise<{ token: string; expiresAt: string | null; access: 'read-only' | 'full-access' } | null>;
  setOpenError(message: string | null): void;

  /** The row the table has selected (its database id). */
  selectedId: string | null;
  select(id: string | null): void;
  /** The tokens pane: the database it is open on, or null. */
  tokensFor: string | null;
  /** Index into TOKEN_EXPIRIES for the next token made. */
  expiry: number;
  made: Record<string, MadeToken[]>;
  tokenError: string | null;
  openTokens(): void;
  closeTokens(): void;
  cycleExpiry(): void;
  createToken(access: 'read-only' | 'full-access'): Promise<void>;
  /** Invalidates every token of the open database (the caller has asked first). */
  invalidateTokens(): Promise<void>;
}

export type DatabasesStore = StoreApi<DatabasesState>;

const USAGE_WINDOW_MS = 30 * 24 * 3_600_000;
export const SESSION_TOKEN_MS = 3_600_000;

/** The account's databases (all pages) and each one's usage, refreshed on the settings' interval. */
export function createDatabasesStore(deps: StoreDeps): DatabasesStore {
  const { api, ui } = deps;
  return createStore<DatabasesState>()((set, get) => {
    const fetch = async (signal?: AbortSignal): Promise<DatabaseRow[]> => {
      const dbs = await api.databases.list(signal);
      const to = new Date(deps.now());
      const from = new Date(to.getTime() - USAGE_WINDOW_MS);
      // usage is extra: a database whose usage cannot be read is still listed
      return Promise.all(dbs.map(async (db) => ({ db, usage: await api.databaseUsage.usage(db.id, from, to, signal).catch(() => null) })));
    };
    const polled = polledSlice<DatabaseRow[]>(deps, {
      fetch,
      loaded: (rows, at) => set({ rows, loadedAt: at, error: null }),
      failed: (message) => set({ error: message }),
      setPaused: (paused) => set({ paused }),
      paused: () => get().paused,
      loadedAt: () => get().loadedAt,
    });
    return {
      rows: [],
      loadedAt: null,
      error: null,
      paused: false,
      watch: polled.watch,
      refresh: polled.refresh,
      togglePause: polled.togglePause,
      openError: null,
      async sessionToken(db) {
        const access = ui.getState().readOnly ? 'read-only' : 'full-access';
        try {
          const made = await api.databases.generateToken(db.id, access, new Date(deps.now() + SESSION_TOKEN_MS));
          set({ openError: null });
          return { token: made.token, expiresAt: made.expiresAt, access };
        } catch (error) {
          set({ openError: `could not make a session token for ${db.name}: ${errorMessage(error)}` });
          return null;
        }
      },
      setOpenError: (message) => set({ openError: message }),

      selectedId: null,
      select: (id) => set({ selectedId: id }),
      tokensFor: null,
      expiry: 1,
      made: {},
      tokenError: null,
      openTokens() {
        const id = get().selectedId;
        if (id !== null) set({ tokensFor: id, tokenError: null });
      },
      closeTokens() {
        // the whole token is shown only while the pane that made it is open
        const made = Object.fromEntries(Object.entries(get().made).map(([k, list]) => [k, list.map((t) => ({ ...t, token: null }))]));
        set({ tokensFor: null, made, tokenError: null });
      },
      cycleExpiry: () => set((st) => ({ expiry: (st.expiry + 1) % TOKEN_EXPIRIES.length })),
      async createToken(access) {
        const id = get().tokensFor;
        if (id === null) return;
        const ms = TOKEN_EXPIRIES[get().expiry]!.ms;
        try {
          const t = await api.databases.generateToken(id, access, ms === null ? null : new Date(deps.now() + ms));
          set((st) => ({
            tokenError: null,
            made: {
              ...st.made,
              [id]: [{ access, expiresAt: t.expiresAt, createdAt: deps.now(), token: t.token }, ...(st.made[id] ?? []).map((x) => ({ ...x, token: null }))],
            },
          }));
        } catch (error) {
          set({ tokenError: `could not make the token: ${errorMessage(error)}` });
        }
      },
      async invalidateTokens() {
        const id = get().tokensFor;
        if (id === null) return;
        try {
          await api.databases.revokeTokens(id);
          set((st) => ({ tokenError: null, made: { ...st.made, [id]: [] } }));
          ui.getState().setStatus('every token of the database was invalidated', 'info');
        } catch (error) {
          set({ tokenError: `could not invalidate the tokens: ${errorMessage(error)}` });
        }
      },
    };
  });
}
