import { createStore, type StoreApi } from 'zustand/vanilla';
import { VIDEO_LIBRARY_SECRET_FIELDS, type VideoLibrary, type VideoLibraryPage } from '../api/video-libraries';
import { registerSecret } from '../config/redact';
import { textOf, type TextState } from '../keys/text-edit';
import { polledSlice } from './polled-slice';
import { errorMessage, type StoreDeps } from './domain-stores';

export const DEFAULT_PAGE_SIZE = 100;
export const MIN_PAGE_SIZE = 5;
export const MAX_PAGE_SIZE = 1000;
/** Sorting loads every library up to this many (10 requests of 1000); past it the sort says it covers only the loaded ones. */
export const SORT_LOAD_LIMIT = 10_000;
/** How long a revealed library key stays readable. */
export const REVEAL_MS = 5000;

export type VideosField = 'search' | 'pageSize';

/** The one-line field being typed (server-side search or the page size), with its problem. */
export interface VideosFieldState {
  kind: VideosField;
  text: TextState;
  error: string | null;
}

export interface Revealed {
  libraryId: number;
  field: string;
  until: number;
}

export interface VideosState {
  items: VideoLibrary[];
  /** Pages of `pageSize` loaded so far (page 1..pagesLoaded). */
  pagesLoaded: number;
  pageSize: number;
  /** Sent as `search`; empty = every library. */
  search: string;
  totalItems: number | null;
  hasMore: boolean;
  /** Which form the server answered in (paginated object or plain array). */
  form: VideoLibraryPage['form'] | null;
  /** A next page is being loaded. */
  loadingMore: boolean;
  /** Every library is being loaded, so a sort covers the whole set (loadAll). */
  loadingAll: boolean;
  /** Page 1 is being (re)loaded after the search or the page size changed. */
  reloading: boolean;
  loadedAt: number | null;
  error: string | null;
  paused: boolean;
  field: VideosFieldState | null;
  detailId: number | null;
  revealed: Revealed | null;

  watch(): () => void;
  refresh(): Promise<void>;
  togglePause(): void;
  loadMore(): Promise<void>;
  /** Loads the rest of the list (up to `limit` libraries, 1000 per request), so a sort covers all of it. */
  loadAll(limit?: number): Promise<void>;
  openField(kind: VideosField): void;
  setFieldText(text: TextState): void;
  /** Checks the field; on success applies it (reloads from page 1) and closes it. */
  applyField(): void;
  cancelField(): void;
  openDetail(id: number): void;
  closeDetail(): void;
  reveal(libraryId: number, field: string): void;
}

export type VideosStore = StoreApi<VideosState>;

/** Parses a page size typed by the user, or says what is allowed. */
export function parsePageSize(text: string): { ok: true; value: number } | { ok: false; message: string } {
  const t = text.trim();
  const n = /^\d{1,7}$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isInteger(n) || n < MIN_PAGE_SIZE || n > MAX_PAGE_SIZE) {
    return { ok: false, message: `page size must be a whole number from ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE}${t ? `, got "${t.slice(0, 20)}"` : ''}` };
  }
  return { ok: true, value: n };
}

/** Checks a search term typed by the user (what the client accepts). */
export function checkSearch(text: string): string | null {
  return text.length > 200 ? `search must be at most 200 characters (got ${text.length})` : null;
}

/** Refreshed items first, then any loaded after them meanwhile, without duplicates. */
function merge(current: VideoLibrary[], refreshed: VideoLibrary[]): VideoLibrary[] {
  if (current.length <= refreshed.length) return refreshed;
  const ids = new Set(refreshed.map((l) => l.Id));
  return [...refreshed, ...current.slice(refreshed.length).filter((l) => !ids.has(l.Id))];
}

function remember(items: VideoLibrary[]): void {
  for (const l of items) for (const f of VIDEO_LIBRARY_SECRET_FIELDS) registerSecret(l[f]);
}

interface Loaded {
  generation: number;
  items: VideoLibrary[];
  pages: number;
  totalItems: number;
  hasMore: boolean;
  form: VideoLibraryPage['form'];
}

export function createVideosStore(deps: StoreDeps): VideosStore {
  const { api, ui } = deps;
  /** Bumped when the search or page size changes: answers to older requests are dropped. */
  let generation = 0;

  return createStore<VideosState>()((set, get) => {
    /** Reloads the pages loaded so far: one request while that is at most 1000 libraries. */
    const fetchLoaded = async (signal?: AbortSignal): Promise<Loaded> => {
      const gen = generation;
      const { pageSize, search } = get();
      const pages = Math.max(1, get().pagesLoaded);
      if (pages * pageSize <= MAX_PAGE_SIZE) {
        const res = await api.videoLibraries.listPage(1, pages * pageSize, search || null, signal);
        return { generation: gen, items: res.items, pages, totalItems: res.totalItems, hasMore: res.hasMoreItems, form: res.form };
      }
      // the same rows in requests of 1000 (the most the API gives), not `pages` requests of pageSize
      const wanted = pages * pageSize;
      const items: VideoLibrary[] = [];
      let last: VideoLibraryPage | null = null;
      for (let p = 1; (p - 1) * MAX_PAGE_SIZE < wanted; p++) {
        last = await api.videoLibraries.listPage(p, MAX_PAGE_SIZE, search || null, signal);
        items.push(...last.items);
        if (!last.hasMoreItems || last.items.length === 0) break;
      }
      const hasMore = items.length > wanted || last!.hasMoreItems;
      return { generation: gen, items: items.slice(0, wanted), pages, totalItems: last!.totalItems, hasMore, form: last!.form };
    };

    const onLoaded = (r: Loaded, at: number) => {
      if (r.generation !== generation) return;
      remember(r.items);
      set((s) => ({
        items: merge(s.items, r.items),
        pagesLoaded: Math.max(s.pagesLoaded, r.pages),
        totalItems: r.totalItems,
        hasMore: s.items.length > r.items.length ? s.hasMore : r.hasMore,
        form: r.form,
        loadedAt: at,
        error: null,
        reloading: false,
      }));
    };

    /** After the search or page size changed: drop everything, load page 1 now. */
    const restart = () => {
      generation += 1;
      set({
        items: [],
        pagesLoaded: 0,
        totalItems: null,
        hasMore: false,
        loadedAt: null,
        error: null,
        reloading: true,
        loadingMore: false,
        loadingAll: false,
        detailId: null,
      });
      void get().refresh();
    };

    const polled = polledSlice<Loaded>(deps, {
      fetch: fetchLoaded,
      loaded: onLoaded,
      failed: (message) => set({ error: message, reloading: false }),
      setPaused: (paused) => set({ paused }),
      paused: () => get().paused,
      loadedAt: () => get().loadedAt,
    });

    return {
      items: [],
      pagesLoaded: 0,
      pageSize: DEFAULT_PAGE_SIZE,
      search: '',
      totalItems: null,
      hasMore: false,
      form: null,
      loadingMore: false,
      loadingAll: false,
      reloading: false,
      loadedAt: null,
      error: null,
      paused: false,
      field: null,
      detailId: null,
      revealed: null,

      watch: polled.watch,
      async refresh() {
        await polled.refresh();
        // a request for the old search may have been in flight: it was dropped, so ask again
        if (get().loadedAt === null) await polled.current?.refreshNow();
      },
      togglePause: polled.togglePause,
      async loadAll(limit = SORT_LOAD_LIMIT) {
        const s = get();
        if (s.loadingAll || s.reloading || !s.hasMore || s.loadedAt === null || s.items.length >= limit) return;
        const gen = generation;
        set({ loadingAll: true });
        try {
          const items: VideoLibrary[] = [];
          let last: VideoLibraryPage | null = null;
          // one request at a time: the rate limit is the API client's; 420 libraries are one request
          for (let p = 1; items.length < limit; p++) {
            last = await api.videoLibraries.listPage(p, MAX_PAGE_SIZE, s.search || null);
            if (gen !== generation) return;
            items.push(...last.items);
            if (!last.hasMoreItems || last.items.length === 0) break;
          }
          remember(items);
          const hasMore = last!.hasMoreItems && last!.items.length > 0;
          set({
            items,
            pagesLoaded: Math.ceil(items.length / get().pageSize),
            totalItems: last!.totalItems,
            hasMore,
            form: last!.form,
            loadingAll: false,
            error: null,
          });
        } catch (error) {
          if (gen !== generation) return;
          const message = errorMessage(error);
          set({ loadingAll: false, error: message });
          ui.getState().recordError(message);
        }
      },
      async loadMore() {
        const s = get();
        if (s.loadingMore || s.loadingAll || s.reloading || !s.hasMore || s.loadedAt === null) return;
        const gen = generation;
        const page = s.pagesLoaded + 1;
        set({ loadingMore: true });
        try {
          const res = await api.videoLibraries.listPage(page, s.pageSize, s.search || null);
          if (gen !== generation) return;
          remember(res.items);
          set((st) => {
            const ids = new Set(st.items.map((l) => l.Id));
            return {
              items: [...st.items, ...res.items.filter((l) => !ids.has(l.Id))],
              pagesLoaded: page,
              totalItems: res.totalItems,
              hasMore: res.hasMoreItems && res.items.length > 0,
              form: res.form,
              loadingMore: false,
              error: null,
            };
          });
        } catch (error) {
          if (gen !== generation) return;
          const message = errorMessage(error);
          set({ loadingMore: false, error: message });
          ui.getState().recordError(message);
        }
      },
      openField(kind) {
        const s = get();
        // The search opens with the current term to edit; the page size empty (the current one is the placeholder).
        set({ field: { kind, text: kind === 'search' ? textOf(s.search) : textOf(''), error: null } });
      },
      setFieldText(text) {
        const f = get().field;
        if (f) set({ field: { ...f, text, error: null } });
      },
      applyField() {
        const f = get().field;
        if (!f) return;
        if (f.kind === 'pageSize') {
          if (f.text.value.trim() === '') {
            set({ field: null });
            return;
          }
          const parsed = parsePageSize(f.text.value);
          if (!parsed.ok) {
            set({ field: { ...f, error: parsed.message } });
            return;
          }
          set({ field: null });
          if (parsed.value !== get().pageSize) {
            set({ pageSize: parsed.value });
            restart();
          }
          return;
        }
        const problem = checkSearch(f.text.value);
        if (problem) {
          set({ field: { ...f, error: problem } });
          return;
        }
        const search = f.text.value.trim();
        set({ field: null });
        if (search !== get().search) {
          set({ search });
          restart();
        }
      },
      cancelField() {
        set({ field: null });
      },
      openDetail(id) {
        set({ detailId: id, revealed: null });
      },
      closeDetail() {
        set({ detailId: null, revealed: null });
      },
      reveal(libraryId, field) {
        set({ revealed: { libraryId, field, until: deps.now() + REVEAL_MS } });
      },
    };
  });
}
