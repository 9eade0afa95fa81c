import { createStore, type StoreApi } from 'zustand/vanilla';
import { emptyText, type TextState } from '../keys/text-edit';
import { diffValues } from '../text/diff';
import { isApiError } from '../api/errors';
import { defaultTableView, type TableView } from '../text/table-model';
import type { RawRecord } from '../text/raw-record';
import type { RequestStatus, StatusLevel, StatusMessage } from '../text/status';
import { discardQuestion, type ConfirmRequest } from './confirm-request';

/** One screen on the stack. `key` is unique per visit, so two visits keep separate view state. */
export interface ScreenInstance {
  key: string;
  id: string;
  arg: string | null;
  /** The visit this one replaced (`:`): esc goes back to it. */
  previous?: ScreenInstance;
}

export type { ConfirmRequest } from './confirm-request';

export type Overlay =
  { kind: 'help'; scroll: number } | { kind: 'confirm'; request: ConfirmRequest } | { kind: 'record'; record: RawRecord; scroll: number } | null;

export interface FilterState {
  text: TextState;
  editing: boolean;
}

export interface PaletteState {
  open: boolean;
  text: TextState;
  /** Index into the suggestions, -1 = none chosen with the arrows. */
  selected: number;
}

export interface MutationRequest {
  title: string;
  /** The record as it is now (for the diff). */
  before: unknown;
  /** What will be sent. */
  after: unknown;
  /** `after` is a partial body (PATCH): fields it leaves out are not shown as removed. */
  patch?: boolean;
  send: () => Promise<void>;
  /** Shown in the status bar when the request succeeded. */
  successMessage?: string;
}

export interface UiState {
  readOnly: boolean;
  /** What made it read-only, in the user's words (null when not read-only). */
  readOnlySource: string | null;
  stack: ScreenInstance[];
  palette: PaletteState;
  overlay: Overlay;
  status: StatusMessage | null;
  request: RequestStatus;
  filters: Record<string, FilterState>;
  /** The table whose filter field has the keyboard, or null. */
  editingFilter: string | null;
  views: Record<string, TableView>;
  /** Work that quitting would lose: id -> description. q asks first while this is not empty. */
  pending: Record<string, string>;
  /** Edits made on a screen and not sent yet: id -> description (kept in step by state/unsent-guard.ts). */
  unsent: Record<string, string>;
  /** Problems found at start-up (config keys, flags); all listed in help, the first in the status bar. */
  warnings: string[];
  /** The last call for the user's attention (bell and desktop notification; app/ writes them), by sequence. */
  attention: AttentionRequest | null;
  /**
   * Opens text in the user's editor ($VISUAL, $EDITOR, else vi) with the terminal handed over,
   * and returns what was saved; set by app/, which owns the terminal (null: no terminal).
   */
  externalEditor: ExternalEditor | null;

  /** Drills down: pushes the screen (or goes back to it when it is on the stack already). */
  navigate(id: string, arg?: string | null): void;
  /**
   * `:` (as in k9s): the screen replaces the one on top (home stays under it), so the stack does
   * not grow without end; esc then goes back one step, to the screen it replaced.
   */
  open(id: string, arg?: string | null): void;
  /** esc: back to the screen the top one replaced, else the one under it. */
  back(): boolean;
  /** What the breadcrumb calls a screen visit, when its screen knows better than its argument ("logs shop-assets"). */
  crumbs: Record<string, string>;
  setCrumb(instanceKey: string, label: string | null): void;
  openPalette(): void;
  closePalette(): void;
  setPaletteText(text: TextState): void;
  setPaletteSelected(index: number): void;
  openHelp(): void;
  scrollHelp(delta: number): void;
  closeOverlay(): void;
  /** The raw view (`d`): one row's record as the server sent it. */
  showRecord(record: RawRecord): void;
  /** Scrolls the raw view to a line (the view keeps it in range). */
  scrollRecord(to: number): void;
  ask(request: ConfirmRequest): void;
  /** The one path for every change to the platform: read-only check, diff, confirm, send. */
  confirmMutation(request: MutationRequest): boolean;
  /** A status line for the visible screen (changing screens clears it); `cause`: see StatusMessage. */
  setStatus(text: string, level?: StatusLevel, ttlMs?: number | null, cause?: string): void;
  /** Clears the status line; with `cause`, only a message about that cause. */
  clearStatus(cause?: string): void;
  recordSuccess(at?: number): void;
  recordError(message: string, at?: number): void;
  setPaused(paused: boolean): void;
  resetRequest(): void;
  startFilter(viewKey: string): void;
  setFilterText(viewKey: string, text: TextState): void;
  endFilter(keep: boolean): void;
  clearFilter(viewKey: string): void;
  setView(viewKey: string, patch: Partial<TableView>): void;
  setPending(id: string, description: string | null): void;
  setUnsent(id: string, description: string | null): void;
  setWarnings(warnings: string[]): void;
  /** Rings the bell and, where the terminal shows them, sends a desktop notification. */
  callAttention(title: string, body: string): void;
  setExternalEditor(editor: ExternalEditor | null): void;
  requestQuit(): void;
  interrupt(): void;
}

export type ExternalEditor = (text: string, extension: string) => { text: string } | { error: string };

export interface AttentionRequest {
  seq: number;
  title: string;
  /** Outside text may be in it (record data): the writer makes it safe. */
  body: string;
}

export interface UiStoreOptions {
  readOnly: boolean;
  /** What made it read-only ("--read-only", "profile prod"). */
  readOnlySource?: string | null;
  home: string;
  /** Called once the user really quits. */
  onQuit: () => void;
  now?: () => number;
}

export type UiStore = StoreApi<UiState>;

/** The cause of messages about the whole console (start-up warnings): they stay when the screen changes. */
const CONSOLE_CAUSE = 'console';

/** A screen's message ends with the screen: what the status line keeps when another is shown. */
function screenless(status: StatusMessage | null): StatusMessage | null {
  return status?.cause === CONSOLE_CAUSE ? status : null;
}

let instanceCounter = 0;
function instance(id: string, arg: string | null): ScreenInstance {
  instanceCounter += 1;
  return { key: `${id}#${instanceCounter}`, id, arg };
}

const STACK_LIMIT = 12;

export function createUiStore(options: UiStoreOptions): UiStore {
  const now = options.now ?? Date.now;
  const closedPalette: PaletteState = { open: false, text: emptyText, selected: -1 };
  return createStore<UiState>()((set, get) => ({
    readOnly: options.readOnly,
    readOnlySource: options.readOnly ? (options.readOnlySource ?? '--read-only') : null,
    stack: [instance(options.home, null)],
    palette: closedPalette,
    overlay: null,
    status: null,
    request: { lastSuccessAt: null, lastError: null, lastErrorAt: null, paused: false },
    filters: {},
    editingFilter: null,
    views: {},
    pending: {},
    unsent: {},
    warnings: [],
    attention: null,
    externalEditor: null,

    crumbs: {},
    setCrumb(instanceKey, label) {
      const crumbs = get().crumbs;
      if ((crumbs[instanceKey] ?? null) === label) return;
      const next = { ...crumbs };
      if (label === null) delete next[instanceKey];
      else next[instanceKey] = label;
      set({ crumbs: next });
    },
    open(id, arg = null) {
      const { stack } = get();
      const top = stack[stack.length - 1]!;
      if (top.id === id && top.arg === arg) return;
      const existing = stack.findIndex((s) => s.id === id && s.arg === arg);
      if (existing >= 0 || stack.length === 1 || id === options.home) {
        get().navigate(id, arg);
        return;
      }
      const { previous: _older, ...replaced } = top;
      const next = [...stack.slice(0, -1), { ...instance(id, arg), previous: replaced }];
      set({ stack: next, editingFilter: null, request: { lastSuccessAt: null, lastError: null, lastErrorAt: null, paused: false } });
    },
    navigate(id, arg = null) {
      const { stack } = get();
      const top = stack[stack.length - 1]!;
      if (top.id === id && top.arg === arg) return;
      // Going to a screen already on the stack goes back to it instead of growing the stack.
      const existing = stack.findIndex((s) => s.id === id && s.arg === arg);
      const next = existing >= 0 ? stack.slice(0, existing + 1) : [...stack, instance(id, arg)].slice(-STACK_LIMIT);
      set({
        stack: next,
        editingFilter: null,
        request: { lastSuccessAt: null, lastError: null, lastErrorAt: null, paused: false },
        status: screenless(get().status),
      });
    },
    back() {
      const { stack } = get();
      if (stack.length <= 1) return false;
      const top = stack[stack.length - 1]!;
      if (top.previous) {
        set({
          stack: [...stack.slice(0, -1), top.previous],
          editingFilter: null,
          request: { lastSuccessAt: null, lastError: null, lastErrorAt: null, paused: false },
          status: screenless(get().status),
        });
        return true;
      }
      set({
        stack: stack.slice(0, -1),
        editingFilter: null,
        request: { lastSuccessAt: null, lastError: null, lastErrorAt: null, paused: false },
        status: screenless(get().status),
      });
      return true;
    },
    openPalette() {
      set({ palette: { open: true, text: emptyText, selected: -1 } });
    },
    closePalette() {
      set({ palette: closedPalette });
    },
    setPaletteText(text) {
      set((s) => ({ palette: { ...s.palette, text, selected: -1 } }));
    },
    setPaletteSelected(index) {
      set((s) => ({ palette: { ...s.palette, selected: index } }));
    },
    openHelp() {
      set({ overlay: { kind: 'help', scroll: 0 }, palette: closedPalette });
    },
    scrollHelp(delta) {
      const o = get().overlay;
      if (o?.kind !== 'help') return;
      set({ overlay: { kind: 'help', scroll: Math.max(0, o.scroll + delta) } });
    },
    closeOverlay() {
      set({ overlay: null });
    },
    showRecord(record) {
      set({ overlay: { kind: 'record', record, scroll: 0 }, palette: closedPalette });
    },
    scrollRecord(to) {
      const o = get().overlay;
      if (o?.kind !== 'record') return;
      set({ overlay: { ...o, scroll: Math.max(0, to) } });
    },
    ask(request) {
      set({ overlay: { kind: 'confirm', request }, palette: closedPalette });
    },
    confirmMutation(request) {
      const s = get();
      if (s.readOnly) {
        const how = s.readOnlySource?.startsWith('profile ') ? `set readOnly: false in ${s.readOnlySource}` : 'start without --read-only';
        s.setStatus(`${readOnlyLabel(s)}: "${request.title}" is not allowed (${how} to change things)`, 'error', 10_000);
        return false;
      }
      const lines = diffValues(request.before, request.after, { patch: request.patch });
      if (lines.length === 0) {
        s.setStatus('nothing to send: no field changed', 'info', 6000);
        return false;
      }
      const pendingId = `mutation-${now()}-${Math.random().toString(36).slice(2, 8)}`;
      s.ask({
        kind: 'mutation',
        title: request.title,
        lines,
        yesLabel: 'send',
        onYes: async () => {
          get().setPending(pendingId, request.title);
          get().setStatus(`${request.title}: sending…`, 'info', null);
          try {
            await request.send();
            get().setStatus(request.successMessage ?? `${request.title}: done`, 'info', 8000);
          } catch (error) {
            // A lost answer is not a failure: the change may have been applied. Say exactly that.
            const unknown = isApiError(error) && error.kind === 'unknown-outcome';
            get().setStatus(
              unknown ? `${request.title}: ${error.message}` : `${request.title} failed: ${(error as Error).message}`,
              unknown ? 'warn' : 'error',
              null,
            );
          } finally {
            get().setPending(pendingId, null);
          }
        },
      });
      return true;
    },
    setStatus(text, level = 'info', ttlMs = level === 'info' ? 6000 : null, cause) {
      set({ status: { text, level, at: now(), ttlMs, ...(cause ? { cause } : {}) } });
    },
    clearStatus(cause) {
      const s = get().status;
      if (s && (cause === undefined || s.cause === cause)) set({ status: null });
    },
    recordSuccess(at = now()) {
      set((s) => ({ request: { ...s.request, lastSuccessAt: at, lastError: null, lastErrorAt: null } }));
    },
    recordError(message, at = now()) {
      set((s) => ({ request: { ...s.request, lastError: message, lastErrorAt: at } }));
    },
    setPaused(paused) {
      set((s) => ({ request: { ...s.request, paused } }));
    },
    resetRequest() {
      set({ request: { lastSuccessAt: null, lastError: null, lastErrorAt: null, paused: false } });
    },
    startFilter(viewKey) {
      set((s) => ({
        editingFilter: viewKey,
        filters: { ...s.filters, [viewKey]: { text: s.filters[viewKey]?.text ?? emptyText, editing: true } },
      }));
    },
    setFilterText(viewKey, text) {
      set((s) => ({ filters: { ...s.filters, [viewKey]: { text, editing: s.filters[viewKey]?.editing ?? false } } }));
    },
    endFilter(keep) {
      const key = get().editingFilter;
      if (key === null) return;
      set((s) => ({
        editingFilter: null,
        filters: { ...s.filters, [key]: { text: keep ? (s.filters[key]?.text ?? emptyText) : emptyText, editing: false } },
      }));
    },
    clearFilter(viewKey) {
      set((s) => ({ filters: { ...s.filters, [viewKey]: { text: emptyText, editing: false } } }));
    },
    setView(viewKey, patch) {
      set((s) => ({ views: { ...s.views, [viewKey]: { ...(s.views[viewKey] ?? defaultTableView), ...patch } } }));
    },
    setPending(id, description) {
      set((s) => {
        const pending = { ...s.pending };
        if (description === null) delete pending[id];
        else pending[id] = description;
        return { pending };
      });
    },
    setUnsent(id, description) {
      if ((get().unsent[id] ?? null) === description) return;
      set((s) => {
        const unsent = { ...s.unsent };
        if (description === null) delete unsent[id];
        else unsent[id] = description;
        return { unsent };
      });
    },
    setWarnings(warnings) {
      set({ warnings });
      if (warnings.length === 1) get().setStatus(`warning: ${warnings[0]}`, 'warn', null, CONSOLE_CAUSE);
      else if (warnings.length > 1) get().setStatus(`${warnings.length} warnings (all in ? help): ${warnings[0]}`, 'warn', null, CONSOLE_CAUSE);
    },
    setExternalEditor(editor) {
      set({ externalEditor: editor });
    },
    callAttention(title, body) {
      set((s) => ({ attention: { seq: (s.attention?.seq ?? 0) + 1, title, body } }));
    },
    requestQuit() {
      const unsent = Object.values(get().unsent);
      if (unsent.length > 0) {
        // the same question as leaving one screen with edits (state/unsent-guard.ts), then the pending check
        get().ask(
          discardQuestion(unsent, 'quit', () => {
            set({ unsent: {} });
            get().requestQuit();
          }),
        );
        return;
      }
      const pending = Object.values(get().pending);
      if (pending.length === 0) {
        options.onQuit();
        return;
      }
      get().ask({
        kind: 'quit',
        title: 'Quit burrow?',
        detail: `${pending.length} thing${pending.length === 1 ? ' is' : 's are'} still pending: ${pending.join('; ')}`,
        lines: [],
        yesLabel: 'quit',
        onYes: () => options.onQuit(),
      });
    },
    interrupt() {
      const o = get().overlay;
      if (o?.kind === 'confirm' && o.request.kind === 'quit') {
        options.onQuit();
        return;
      }
      get().requestQuit();
    },
  }));
}

/** "read-only mode" (--read-only), or "read-only (profile prod)" when the profile says so. */
export function readOnlyLabel(s: Pick<UiState, 'readOnlySource'>): string {
  return s.readOnlySource?.startsWith('profile ') ? `read-only (${s.readOnlySource})` : 'read-only mode';
}

/** The instance on top of the stack: the visible screen. */
export function topScreen(s: Pick<UiState, 'stack'>): ScreenInstance {
  return s.stack[s.stack.length - 1]!;
}
