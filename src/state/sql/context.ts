import type { StoreApi } from 'zustand/vanilla';
import type { DatabaseSession } from '../../api/database/index';
import { redact } from '../../config/redact';
import type { EditorState } from '../../sql-repl/editor';
import type { StoreDeps } from '../domain-stores';
import type { SqlCatalog } from './backend';
import type { LogsBackend } from './logs-backend';
import type { StoreBackend } from './store-backend';
import type { Entry, MessageLevel, NewEntry, SqlState, SqlStoreOptions } from './types';

const MAX_ENTRIES = 400;

/**
 * What the parts of the SQL store share: the state, the database session, the transcript's
 * push and message, and the one confirmation path.
 */
export interface SqlContext {
  get: () => SqlState;
  set: StoreApi<SqlState>['setState'];
  deps: StoreDeps;
  options: SqlStoreOptions;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The session once started; null before, after dispose, or when it could not be made. */
  db: DatabaseSession | null;
  /** The logs table's engine when the shell runs on the logs screen's records (then db is null). */
  logs: LogsBackend | null;
  /** The log store's engine when the shell runs on ClickHouse (then db and logs are null). */
  store: StoreBackend | null;
  /** The catalog of whichever engine the shell runs on (null before start). */
  catalog: SqlCatalog | null;
  /** Where reads go through a cursor (the session's URL and token); null: never. */
  cursorTarget: { url: string; authToken: string | null } | null;
  /** What runs now (a statement or a dot-command) can be cancelled through this. */
  abort: AbortController | null;
  push(...entries: NewEntry[]): void;
  /** A message line in the transcript (secrets masked). */
  message(level: MessageLevel, text: string): void;
  /** The prompt as the input's echo shows it: `burrow-demo*>` inside a transaction. */
  prompt(): string;
  setEditor(editor: EditorState): void;
  /** Waits for the answer of the console's one confirmation path. */
  confirm(title: string, detail: string, yesLabel: string): Promise<boolean>;
}

export function createSqlContext(get: () => SqlState, set: StoreApi<SqlState>['setState'], deps: StoreDeps, options: SqlStoreOptions): SqlContext {
  let nextId = 1;
  const ctx: SqlContext = {
    get,
    set,
    deps,
    options,
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    db: null,
    logs: null,
    store: null,
    catalog: null,
    cursorTarget: null,
    abort: null,
    push(...entries) {
      const added = entries.map((e) => ({ ...e, id: nextId++ }) as Entry);
      const all = [...get().entries, ...added];
      set({ entries: all.length > MAX_ENTRIES ? all.slice(all.length - MAX_ENTRIES) : all, scroll: 0 });
    },
    message(level, text) {
      ctx.push({ kind: 'message', level, text: redact(text) });
    },
    prompt() {
      return `${get().label}${get().status?.transaction ? '*' : ''}>`;
    },
    setEditor(editor) {
      set({ editor, completions: null });
    },
    confirm(title, detail, yesLabel) {
      return new Promise<boolean>((resolve) => {
        deps.ui.getState().ask({ kind: 'question', title, detail, lines: [], yesLabel, onYes: () => resolve(true), onNo: () => resolve(false) });
      });
    },
  };
  return ctx;
}
