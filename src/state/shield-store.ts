import path from 'node:path';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError } from '../api/errors';
import type { ApiGuardian, ApiGuardianPatch, ShieldPageInfo, ShieldZone } from '../api/shield';
import { emptyText, type TextState } from '../keys/text-edit';
import { SpecProblem } from '../shield-spec/document';
import { checkDocument, type SpecCheck } from '../shield-spec/limits';
import { readSpecFile, SpecFileError } from '../shield-spec/read-file';
import { polledSlice } from './polled-slice';
import { watchUnsent } from './unsent-guard';
import { overLimits, specChange } from './shield-spec-change';
import { errorMessage, type StoreDeps } from './domain-stores';
import { cycleField, describePatch, patchBefore, pendingPatch, toggleEnabled, type EnumField } from './shield-draft';

/** The cause of the status line that refused a spec over the plan limits (over once another file is checked). */
const SPEC_REFUSED = 'shield:spec-refused';

/** An error answer as the screen shows it: the message and the server's errorKey. */
export interface ShownError {
  message: string;
  code: string | null;
  status: number | null;
}

/** The server's answer to the last change (or its absence, for an unknown outcome). */
export interface ChangeResult {
  tone: 'ok' | 'warn' | 'error';
  text: string;
  code: string | null;
  at: number;
}

export interface SpecPanel {
  input: TextState;
  /** The path field has the keyboard. */
  editing: boolean;
  checking: boolean;
  /** Why the file cannot be used (missing, unreadable, not OpenAPI...). */
  error: string | null;
  /** The checked file: its text is what will be sent. */
  file: { path: string; bytes: number; text: string } | null;
  check: SpecCheck | null;
}

export interface ShieldState {
  // zones list
  page: number;
  perPage: number;
  zones: ShieldZone[];
  pageInfo: ShieldPageInfo | null;
  zonesAt: number | null;
  zonesError: string | null;
  zonesLoading: boolean;
  // one zone's API Guardian
  openZoneId: number | null;
  guardian: ApiGuardian | null;
  guardianAt: number | null;
  guardianError: ShownError | null;
  guardianLoading: boolean;
  draft: ApiGuardianPatch;
  lastResult: ChangeResult | null;
  spec: SpecPanel | null;
  paused: boolean;

  watchZones(): () => void;
  goToPage(page: number): void;
  openZone(id: number): void;
  closeZone(): void;
  watchGuardian(): () => void;
  refresh(): Promise<void>;
  togglePause(): void;

  toggleEnabled(): void;
  cycle(field: EnumField): void;
  discardDraft(): boolean;
  /** Opens the one confirm path with exactly the fields that PATCH will send. */
  reviewChanges(): boolean;

  openSpec(): void;
  editSpecPath(): void;
  /** esc in the path field: back to the last result, or closes the panel when there is none. */
  cancelSpecEdit(): void;
  setSpecInput(text: TextState): void;
  closeSpec(): void;
  checkSpec(): Promise<void>;
  /** Opens the confirm path for the checked spec; `force` sends one the local check finds over the limits. */
  reviewSpec(force: boolean): boolean;
}

export type ShieldStore = StoreApi<ShieldState>;

export interface ShieldStoreOptions {
  perPage?: number;
  /** Relative spec paths are read from here (default: the working directory). */
  cwd?: string;
}

export const DEFAULT_ZONES_PER_PAGE = 50;

function shown(error: unknown): ShownError {
  if (error instanceof ApiError) return { message: error.message, code: error.code, status: error.status };
  return { message: errorMessage(error), code: null, status: null };
}

export { hasSpec } from './shield-spec-change';

export function createShieldStore(deps: StoreDeps, options: ShieldStoreOptions = {}): ShieldStore {
  const { api, ui } = deps;
  const cwd = options.cwd ?? process.cwd();

  const store = createStore<ShieldState>()((set, get) => {
    const mirrorPause = { setPaused: (paused: boolean) => set({ paused }), paused: () => get().paused };
    const zonesPolled = polledSlice(deps, {
      fetch: (signal) => api.shield.listZones(get().page, get().perPage, signal),
      loaded: (res, at) => set({ zones: res.zones, pageInfo: res.page, zonesAt: at, zonesError: null }),
      failed: (message) => set({ zonesError: message }),
      ...mirrorPause,
      loadedAt: () => get().zonesAt,
      onState: (s) => set({ zonesLoading: s.inFlight }),
    });
    /** The zone of the last API Guardian request (one at a time): an answer for a zone closed since is dropped. */
    let guardianAsked: number | null = null;
    const guardianPolled = polledSlice(deps, {
      fetch: (signal) => {
        const id = (guardianAsked = get().openZoneId);
        return id === null ? Promise.resolve(null) : api.shield.getApiGuardian(id, signal).then((guardian) => ({ id, guardian }));
      },
      loaded: (read, at) => {
        if (read === null || get().openZoneId !== read.id) return;
        const { guardian } = read;
        set((s) => ({ guardian, guardianAt: at, guardianError: null, draft: pendingPatch(guardian.configuration, s.draft) }));
      },
      failed: (_message, _at, error) => {
        if (get().openZoneId === guardianAsked) set({ guardianError: shown(error) });
      },
      ...mirrorPause,
      loadedAt: () => get().guardianAt,
      onState: (s) => set({ guardianLoading: s.inFlight }),
    });
    const result = (tone: ChangeResult['tone'], text: string, code: string | null = null) => set({ lastResult: { tone, text, code, at: deps.now() } });

    /** After a mutation whose answer was lost: never retried, the state is read again instead. */
    const unknownOutcome = async (what: string): Promise<string> => {
      set({ draft: {} });
      await get().refresh();
      const text = `unknown outcome: ${what} was sent but no answer came (it was not retried); refreshed state shown, check it`;
      result('warn', text);
      return text;
    };

    return {
      page: 1,
      perPage: options.perPage ?? DEFAULT_ZONES_PER_PAGE,
      zones: [],
      pageInfo: null,
      zonesAt: null,
      zonesError: null,
      zonesLoading: false,
      openZoneId: null,
      guardian: null,
      guardianAt: null,
      guardianError: null,
      guardianLoading: false,
      draft: {},
      lastResult: null,
      spec: null,
      paused: false,

      watchZones: zonesPolled.watch,
      goToPage(page) {
        const info = get().pageInfo;
        const last = Math.max(1, info?.totalPages ?? 1);
        const next = Math.min(Math.max(1, page), last);
        if (next === get().page) {
          ui.getState().setStatus(page < 1 ? 'this is the first page' : `this is the last page (${last})`, 'info', 3000);
          return;
        }
        set({ page: next });
        // stop() drops the answer for the old page that may be in flight; start() asks for the new one
        const poller = zonesPolled.current;
        if (poller?.state.running) {
          poller.stop();
          poller.start();
        }
      },
      openZone(id) {
        if (get().openZoneId !== id) set({ guardian: null, guardianAt: null, guardianError: null, draft: {}, lastResult: null, spec: null });
        set({ openZoneId: id });
      },
      closeZone() {
        set({ openZoneId: null, spec: null, draft: {} });
      },
      watchGuardian() {
        if (get().openZoneId === null) return () => {};
        return guardianPolled.watch();
      },
      refresh: () => (get().openZoneId !== null ? guardianPolled.refresh() : zonesPolled.refresh()),
      togglePause() {
        // one switch for both views: each slice mirrors it in `paused` and the status bar
        zonesPolled.togglePause();
        guardianPolled.togglePause();
      },

      // a new edit, a discard or a new spec makes the last result old news: it is not shown again after
      toggleEnabled() {
        const g = get().guardian;
        if (!g) return;
        set({ draft: toggleEnabled(g.configuration, get().draft), lastResult: null });
      },
      cycle(field) {
        const g = get().guardian;
        if (!g) return;
        set({ draft: cycleField(g.configuration, get().draft, field), lastResult: null });
      },
      discardDraft() {
        if (Object.keys(get().draft).length === 0) return false;
        set({ draft: {}, lastResult: null });
        ui.getState().setStatus('changes discarded: nothing was sent', 'info', 4000);
        return true;
      },
      reviewChanges() {
        const { guardian: g, openZoneId: id, draft } = get();
        if (!g || id === null) {
          ui.getState().setStatus('the API Guardian settings are not loaded yet', 'warn', 4000);
          return false;
        }
        const patch = pendingPatch(g.configuration, draft);
        let outcome = `API Guardian of shield zone ${id} updated`;
        return ui.getState().confirmMutation({
          title: `Update the API Guardian of shield zone ${id} (PATCH): ${describePatch(patch)}`,
          before: patchBefore(g.configuration, patch),
          after: patch,
          patch: true,
          // read after send() resolves, so it can say what happened
          get successMessage() {
            return outcome;
          },
          send: async () => {
            try {
              const configuration = await api.shield.updateApiGuardian(id, patch);
              if (get().openZoneId === id) {
                set((s) => ({
                  guardian: s.guardian ? { ...s.guardian, configuration } : s.guardian,
                  draft: pendingPatch(configuration, s.draft),
                }));
                result('ok', `saved; the server's answer: ${describePatch(patch, configuration)}`);
              }
              await get().refresh();
            } catch (error) {
              if (error instanceof ApiError && error.kind === 'unknown-outcome') {
                outcome = await unknownOutcome(`PATCH of ${Object.keys(patch).join(', ')}`);
                return;
              }
              const e = shown(error);
              result('error', `not saved: ${e.message}`, e.code);
              await get().refresh();
              throw error;
            }
          },
        });
      },

      openSpec() {
        // another file is about to be checked: the refusal of the last one is over
        ui.getState().clearStatus(SPEC_REFUSED);
        const prev = get().spec;
        set({ spec: { input: prev?.input ?? emptyText, editing: true, checking: false, error: null, file: null, check: null }, lastResult: null });
      },
      editSpecPath() {
        const s = get().spec;
        if (s) set({ spec: { ...s, editing: true } });
      },
      cancelSpecEdit() {
        const s = get().spec;
        if (!s) return;
        if (s.check || s.error) set({ spec: { ...s, editing: false } });
        else set({ spec: null });
      },
      setSpecInput(input) {
        const s = get().spec;
        if (s) set({ spec: { ...s, input } });
      },
      closeSpec() {
        set({ spec: null });
      },
      async checkSpec() {
        const s = get().spec;
        const g = get().guardian;
        if (!s) return;
        if (!g) {
          set({
            spec: {
              ...s,
              editing: false,
              error: "the zone's plan limits are not loaded yet: wait for the API Guardian settings, then press o again",
              check: null,
              file: null,
            },
          });
          return;
        }
        ui.getState().clearStatus(SPEC_REFUSED);
        set({ spec: { ...s, editing: false, checking: true, error: null, check: null, file: null } });
        let next: Partial<SpecPanel>;
        try {
          const file = await readSpecFile(s.input.value, cwd);
          // the YAML parser loads on the first check, not at start-up
          const { readOpenApi } = await import('../shield-spec/read-text');
          const check = checkDocument(readOpenApi(file.text), g.configuration);
          next = { file: { path: file.path, bytes: file.bytes, text: file.text }, check };
        } catch (e) {
          if (e instanceof SpecFileError) next = { error: e.message };
          else if (e instanceof SpecProblem) next = { error: `${s.input.value.trim()} is not a usable OpenAPI 3 document: ${e.message}` };
          else next = { error: errorMessage(e) };
        }
        const now = get().spec;
        if (now) set({ spec: { ...now, checking: false, ...next } });
      },
      reviewSpec(force) {
        const { spec, guardian: g, openZoneId: id } = get();
        if (!spec?.check || !spec.file || !g || id === null) {
          ui.getState().setStatus('check a spec file first: o, type its path, enter', 'warn', 5000);
          return false;
        }
        const check = spec.check;
        if (!check.withinLimits && !force) {
          ui.getState().setStatus(
            `not sent: the spec is over the plan limits (${overLimits(check)}); the zone would refuse it. F sends it anyway`,
            'error',
            10_000,
            SPEC_REFUSED,
          );
          return false;
        }
        const file = spec.file;
        const change = specChange(id, g, file, check);
        const replace = change.replace;
        let outcome = `spec ${replace ? 'replaced' : 'uploaded'}: ${check.title} ${check.version}`;
        return ui.getState().confirmMutation({
          title: change.title,
          before: change.before,
          after: change.after,
          patch: true,
          get successMessage() {
            return outcome;
          },
          send: async () => {
            try {
              const guardian = replace ? await api.shield.replaceSpec(id, file.text) : await api.shield.uploadSpec(id, file.text);
              if (get().openZoneId === id) {
                set({ guardian, spec: null });
                result(
                  'ok',
                  `spec ${replace ? 'replaced' : 'uploaded'}: ${guardian.configuration.title ?? '?'} ${guardian.configuration.version ?? ''}, ${guardian.endpoints.length} endpoints`,
                );
              }
              await get().refresh();
            } catch (error) {
              if (error instanceof ApiError && error.kind === 'unknown-outcome') {
                set({ spec: null });
                outcome = await unknownOutcome(`the ${replace ? 'PATCH' : 'POST'} of ${path.basename(file.path)}`);
                return;
              }
              const e = shown(error);
              result('error', `spec not ${replace ? 'replaced' : 'uploaded'}: ${e.message}`, e.code);
              await get().refresh();
              throw error;
            }
          },
        });
      },
    };
  });
  watchUnsent(ui, 'shield', store, (s) => {
    const n = Object.keys(s.draft).length;
    return n === 0 || s.openZoneId === null ? null : `API Guardian of shield zone ${s.openZoneId}: ${n} edit${n === 1 ? '' : 's'} not sent yet`;
  });
  return store;
}
