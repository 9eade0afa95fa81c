import type { StoreApi } from 'zustand/vanilla';
import type { SessionStatus, StatementResult } from '../../api/database/index';
import type { KeyEvent } from '../../keys/key-event';
import type { Schema } from '../../sql-repl/completion';
import type { EditorState } from '../../sql-repl/editor';
import type { HistorySearch } from '../../sql-repl/history';
import type { OutputMode } from '../../sql-repl/output-modes';
import type { LogsRecordSource, LogsSnapshot } from './logs-backend';
import type { StoreSnapshot } from './store-backend';

/** One thing in the transcript. Result rows stay in the StatementResult: never copied. */
export type Entry =
  | { id: number; kind: 'input'; prompt: string; text: string }
  | { id: number; kind: 'result'; result: StatementResult; mode: OutputMode; summary: string; expandedFrom?: OutputMode }
  | { id: number; kind: 'message'; level: 'ok' | 'info' | 'warn' | 'error'; text: string }
  | { id: number; kind: 'text'; lines: string[] }
  | { id: number; kind: 'words'; words: string[]; empty: string };

/** An entry before it gets its id (Omit over a union would merge its members). */
export type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;

export type MessageLevel = 'ok' | 'info' | 'warn' | 'error';

export type LeaveThen = 'back' | 'quit';

export interface BrowseState {
  /** The entry shown full screen; null = the newest one that has lines. */
  entryId: number | null;
  top: number;
  h: number;
  /** The selected row of a result (the rows of text and lists are not selected). */
  row: number;
}

export interface SqlState {
  phase: 'idle' | 'ready' | 'failed';
  connectError: string | null;
  /** Database name for the prompt (burrow-demo). */
  label: string;
  url: string;
  status: SessionStatus | null;
  editor: EditorState;
  focus: 'editor' | 'results';
  history: string[];
  /** Walking the history with up/down: the entry shown, null = the draft. */
  historyIndex: number | null;
  draft: string;
  search: HistorySearch | null;
  /** Candidates of the last Tab, shown under the prompt until the next key. */
  completions: string[] | null;
  schema: Schema;
  entries: Entry[];
  /** Transcript lines scrolled up from the bottom. */
  scroll: number;
  browse: BrowseState;
  mode: OutputMode;
  /** `.x` turned expanded records on: the mode to go back to. */
  expandedFrom: OutputMode | null;
  timer: boolean;
  outputFile: string | null;
  running: { since: number; what: string } | null;
  queued: number;
  leavePrompt: { then: LeaveThen } | null;
  /** Rows the transcript has on screen, set by the view (for page keys). */
  pageLines: number;
  /** The logs table when the shell runs on the logs screen's records; null on the database. */
  logs: LogsSnapshot | null;
  /** The log store (ClickHouse) when the shell runs on it (`:sql store`); null otherwise. */
  store: StoreSnapshot | null;

  start(): void;
  /** The logs shell: where its records come from (the logs screen's buffer); set before start. */
  bindLogs(source: LogsRecordSource): void;
  /** The logs table follows its buffer (synced every second) or not; on: synced now too. */
  followLogs(on: boolean): void;
  /** A key for the editor (the layer's text handler). True = consumed. */
  key(ev: KeyEvent): boolean;
  /** Runs a complete input, or starts a new line; resolves when what it started has finished. */
  enter(): Promise<void>;
  tab(): void;
  reverseSearch(): void;
  /** Ctrl-C in the editor: cancels the query, the search or the input; with none, says how to leave. Never quits. */
  interrupt(): boolean;
  /** Ctrl-C while the leave question is open: the question is dropped and the shell stays. */
  interruptLeave(): void;
  cancel(): void;
  setFocus(focus: 'editor' | 'results'): void;
  setPageLines(n: number): void;
  scrollTranscript(delta: number): void;
  browseMove(patch: Partial<BrowseState>): void;
  browseEntry(dir: -1 | 1): void;
  leave(then: LeaveThen): void;
  /** `.x`: expanded records (mode line) on, off, or toggled (null) for the next queries. */
  setExpanded(on: boolean | null): void;
  /** `x` on a result: that result drawn expanded, or back as it was. */
  toggleBrowsedExpanded(): void;
  /** `.edit` (the last input) or ctrl-x ctrl-e (the input typed) in $VISUAL/$EDITOR; what is saved becomes the input. */
  editExternally(what: 'input' | 'last'): void;
  answerLeave(choice: 'commit' | 'rollback' | 'stay'): Promise<void>;
  /** Runs input as if typed (SQL or a dot-command); resolves when it has finished. */
  submit(text: string): Promise<void>;
  dispose(): Promise<{ rolledBack: boolean }>;
  /**
   * Points the shell at another database (the databases screen's enter, with a session token).
   * Refused ('transaction') while a transaction is open; otherwise the current session is closed.
   */
  switchDatabase(url: string, token: string): Promise<'switched' | 'transaction'>;
}

export interface SqlStoreOptions {
  /** `burrow sql` at a terminal: .quit and ctrl-d quit the program instead of going back a screen. */
  standalone?: boolean;
  /** The database is the built-in emulator's (its history key ignores the random port). */
  emulator?: boolean;
  env?: Record<string, string | undefined>;
  /** Ask the management API for the database's name (needs an API key). */
  lookupName?: boolean;
  keepAliveMs?: number;
  cwd?: string;
  /** The shell runs on the logs screen's records (an in-process DuckDB table `logs`), not on the database. */
  logs?: boolean;
  /** The shell runs on the log store (ClickHouse), `:sql store`. */
  store?: boolean;
}

export type SqlStore = StoreApi<SqlState>;
