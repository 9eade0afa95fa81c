import fs from 'node:fs';
import path from 'node:path';
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  DatabaseSession, isComplete, leadingTokens, splitStatements, SqlError, StreamLostError,
  type SessionStatus, type SqlStatement, type StatementResult,
} from '../api/database/index';
import { sameDatabaseUrl } from '../api/database-management';
import { ApiError } from '../api/errors';
import { stateDir } from '../config/paths';
import { redact } from '../config/redact';
import type { KeyEvent } from '../keys/key-event';
import { commonPrefix, complete, type Schema } from '../sql-repl/completion';
import { databaseLabel, keepAliveFromEnv } from '../sql-repl/database-label';
import { destructiveReason } from '../sql-repl/destructive';
import { firstWriter, readOnlyRefusal } from '../sql-repl/read-only';
import { oneLine, UncertainStatements } from '../sql-repl/uncertain';
import { DOT_COMMANDS, isDotCommandInput, parseDotCommand, type DotCommand } from '../sql-repl/dot-commands';
import { editKey, editorOf, emptyEditor, insertText, moveLine, onFirstLine, onLastLine, replaceRange, type EditorState } from '../sql-repl/editor';
import { addHistory, historyStep, searchOlder, searchType, type HistorySearch } from '../sql-repl/history';
import { appendHistory, historyKey, historyPath, loadHistory } from '../sql-repl/history-file';
import { resultText, summaryText, type OutputMode } from '../sql-repl/output-modes';
import {
  DESCRIBE_QUERY, DUMP_OBJECTS_QUERY, dumpLines, dumpObjectsFromRows, HAS_SEQUENCE_QUERY, INDEXES_QUERY, SCHEMA_QUERY,
  SCHEMA_TEXT_QUERY, schemaFromRows, selectAllQuery, SEQUENCE_QUERY, TABLES_QUERY,
} from '../sql-repl/schema-sql';
import { errorMessage, type StoreDeps } from './session';

/** One thing in the transcript. Result rows stay in the StatementResult: never copied. */
export type Entry =
  | { id: number; kind: 'input'; prompt: string; text: string }
  | { id: number; kind: 'result'; result: StatementResult; mode: OutputMode; summary: string }
  | { id: number; kind: 'message'; level: 'ok' | 'info' | 'warn' | 'error'; text: string }
  | { id: number; kind: 'text'; lines: string[] }
  | { id: number; kind: 'words'; words: string[]; empty: string };

/** An entry before it gets its id (Omit over a union would merge its members). */
export type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;

export type LeaveThen = 'back' | 'quit';

export interface BrowseState {
  /** The entry shown full screen; null = the newest one that has lines. */
  entryId: number | null;
  top: number;
  h: number;
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
  timer: boolean;
  outputFile: string | null;
  running: { since: number; what: string } | null;
  queued: number;
  leavePrompt: { then: LeaveThen } | null;
  /** Rows the transcript has on screen, set by the view (for page keys). */
  pageLines: number;

  start(): void;
  /** A key for the editor (the layer's text handler). True = consumed. */
  key(ev: KeyEvent): boolean;
  /** Runs a complete input, or starts a new line; resolves when what it started has finished. */
  enter(): Promise<void>;
  tab(): void;
  reverseSearch(): void;
  /** Ctrl-C in the editor: cancels the query, the search or the input; false = pass it on (quit). */
  interrupt(): boolean;
  /**
   * Ctrl-C while the leave question is open. After a first ctrl-c asked it, this is the second:
   * quit at once, as ctrl-c twice does everywhere (closing the session rolls the transaction back).
   */
  interruptLeave(): void;
  cancel(): void;
  setFocus(focus: 'editor' | 'results'): void;
  setPageLines(n: number): void;
  scrollTranscript(delta: number): void;
  browseMove(patch: Partial<BrowseState>): void;
  browseEntry(dir: -1 | 1): void;
  leave(then: LeaveThen): void;
  answerLeave(choice: 'commit' | 'rollback' | 'stay'): Promise<void>;
  /** Runs input as if typed (SQL or a dot-command); resolves when it has finished. */
  submit(text: string): Promise<void>;
  dispose(): Promise<{ rolledBack: boolean }>;
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
}

export type SqlStore = StoreApi<SqlState>;

const MAX_ENTRIES = 400;
const TX_PENDING = 'sql:transaction';

const NO_DATABASE =
  'no database configured: set SERVICE_DATABASE_URL and SERVICE_DATABASE_AUTH_TOKEN (or BUNNY_DATABASE_URL / BUNNY_DATABASE_AUTH_TOKEN, ' +
  'or databaseUrl / databaseToken in the profile), or start burrow with --demo to use the built-in emulator';

const KEY_HELP = [
  'keys: enter runs a complete statement, else starts a new line',
  '      tab completes · up/down and ctrl-r: history · ctrl-c cancels or clears',
  '      esc: to the results: j/k pgup/pgdn g/G move, h/l sideways, [ ] others',
  '      i back to the input · esc again leaves · q quits',
];

function explainHttp(error: ApiError): string {
  if (error.status === 401) return `${error.message}: the database refused the token (revoked, expired or for another database); create one with burrow db tokens create`;
  if (error.status === 403) return `${error.message}: the token is not allowed to do this on this database`;
  return error.message;
}

function firstWord(sql: string): string {
  return (leadingTokens(sql, 1)[0] ?? '').toUpperCase();
}

export function createSqlStoreWith(deps: StoreDeps, options: SqlStoreOptions = {}): SqlStore {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const ui = deps.ui;
  let db: DatabaseSession | null = null;
  let nextId = 1;
  let historyFile: string | null = null;
  let historyWarned = false;
  let abort: AbortController | null = null;
  let outputFd: number | null = null;
  const queue: (() => Promise<void>)[] = [];
  let draining = false;
  const uncertain = new UncertainStatements();

  return createStore<SqlState>()((set, get) => {
    const push = (...entries: NewEntry[]) => {
      const added = entries.map((e) => ({ ...e, id: nextId++ }) as Entry);
      const all = [...get().entries, ...added];
      set({ entries: all.length > MAX_ENTRIES ? all.slice(all.length - MAX_ENTRIES) : all, scroll: 0 });
    };
    const message = (level: 'ok' | 'info' | 'warn' | 'error', text: string) => push({ kind: 'message', level, text: redact(text) });
    const prompt = () => `${get().label}${get().status?.transaction ? '*' : ''}>`;

    const setEditor = (editor: EditorState) => set({ editor, completions: null });

    const rememberInput = (text: string) => {
      set((s) => ({ history: addHistory(s.history, text), historyIndex: null, draft: '' }));
      if (!historyFile) return;
      try {
        appendHistory(historyFile, text.trim());
      } catch (error) {
        if (!historyWarned) message('warn', `history is not saved: ${errorMessage(error)}`);
        historyWarned = true;
      }
    };

    let txOpen = false;
    const onStatus = (s: SessionStatus) => {
      set({ status: s });
      if (Boolean(s.transaction) !== txOpen) {
        txOpen = Boolean(s.transaction);
        ui.getState().setPending(TX_PENDING, txOpen ? `an open SQL transaction on ${get().label} (quitting rolls it back)` : null);
      }
      if (s.lossPending && s.lost) {
        db?.acknowledgeLoss();
        message('error', `the connection lost the open transaction: it was rolled back by the server (${s.lost.reason}). Nothing since BEGIN was kept.`);
      }
    };

    const loadSchema = async () => {
      if (!db) return;
      try {
        const r = await db.execute(SCHEMA_QUERY);
        set({ schema: schemaFromRows(r.rows) });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) message('error', explainHttp(error));
        // completion falls back to keywords; the error shows with the first statement anyway
      }
    };

    const lookupName = async () => {
      if (!options.lookupName || !db) return;
      try {
        const list = await deps.api.databases.list(AbortSignal.timeout(5000));
        const found = list.find((d) => sameDatabaseUrl(d.url, get().url));
        if (found) set({ label: found.name });
      } catch {
        // the host-based label stays
      }
    };

    /** Waits for the one confirmation path's answer. */
    const confirm = (title: string, detail: string, yesLabel: string) =>
      new Promise<boolean>((resolve) => {
        ui.getState().ask({ kind: 'question', title, detail, lines: [], yesLabel, onYes: () => resolve(true), onNo: () => resolve(false) });
      });

    const writeOutput = (lines: Iterable<string>): number => {
      let n = 0;
      let chunk = '';
      for (const line of lines) {
        chunk += `${line}\n`;
        n++;
        if (chunk.length > 64 * 1024) {
          fs.writeSync(outputFd!, chunk);
          chunk = '';
        }
      }
      if (chunk) fs.writeSync(outputFd!, chunk);
      return n;
    };

    const showResult = (r: StatementResult) => {
      const { mode, timer, outputFile } = get();
      const summary = summaryText({ columns: r.columns, rowCount: r.rows.length, rowsAffected: r.rowsAffected, lastInsertRowid: r.lastInsertRowid, durationMs: r.durationMs }, timer);
      if (r.columns.length === 0) {
        message('ok', summary);
        return;
      }
      if (outputFd !== null && outputFile) {
        try {
          writeOutput(resultText(r, mode));
          message('ok', `${summary} · written to ${outputFile} (${mode})`);
        } catch (error) {
          message('error', `cannot write to ${outputFile}: ${errorMessage(error)}`);
        }
        return;
      }
      push({ kind: 'result', result: r, mode, summary });
    };

    const restoreInput = (text: string) => {
      // only into an empty editor: never over what was typed meanwhile
      if (get().editor.text === '') setEditor(editorOf(text.replace(/\s+$/, '')));
    };

    const failureText = (error: ApiError, where: string) => {
      if (error instanceof SqlError) return `error ${error.message}${where}`;
      if (error instanceof StreamLostError) return error.message;
      return `error: ${explainHttp(error)}${where}`;
    };

    /** Runs statements on the session, each result shown as it arrives; stops at the first error. */
    const runStatements = async (source: string, statements: SqlStatement[], origin: string | null) => {
      if (!db) return;
      if (statements.length === 0) return;
      // read-only mode refuses before asking anything: a question about a write it will not run misleads
      if (ui.getState().readOnly) {
        let refusal: string | null;
        try {
          const writer = await firstWriter(db, statements);
          refusal = writer ? readOnlyRefusal(writer.statement.text) : null;
        } catch (error) {
          // read-only mode runs nothing it could not check
          refusal = `read-only mode (--read-only): the statements could not be checked, so nothing was run: ${errorMessage(error)}`;
        }
        if (refusal) {
          message('error', refusal);
          if (origin === null) restoreInput(source);
          return;
        }
      }
      const repeated = statements.filter((s) => uncertain.has(s.text));
      if (repeated.length) {
        const what = repeated.length > 1 ? `${repeated.length} statements` : `"${oneLine(repeated[0]!.text)}"`;
        const yes = await confirm(`${what} may already have run: the last time, the connection failed after sending it`, 'Send it again? Check the data first: running a write twice applies it twice.', 'send again');
        if (!yes) {
          message('warn', 'not sent again');
          return;
        }
        for (const s of repeated) uncertain.forget(s.text);
      }
      const dangers = statements.map((s) => destructiveReason(s.text)).filter((r): r is string => r !== null);
      if (dangers.length) {
        const more = dangers.length > 1 ? ` (and ${dangers.length - 1} more: ${dangers.slice(1).join('; ')})` : '';
        const inTx = get().status?.transaction ? ' A transaction is open: ROLLBACK can still undo it.' : ' It cannot be undone.';
        const yes = await confirm(`${dangers[0]}${more}`, `Run it?${inTx}`, 'run it');
        if (!yes) {
          message('warn', 'not run (the input is back in the editor)');
          if (origin === null) restoreInput(source);
          return;
        }
      }
      abort = new AbortController();
      set({ running: { since: deps.now(), what: statements.length > 1 ? `${statements.length} statements` : statements[0]!.text.slice(0, 60) } });
      let ran = 0;
      let ddl = false;
      try {
        const outcome = await db.run(statements, {
          signal: abort.signal,
          onResult: (i, r) => {
            ran = i + 1;
            const w = firstWord(statements[i]!.text);
            if (w === 'CREATE' || w === 'DROP' || w === 'ALTER' || w === 'ROLLBACK') ddl = true;
            showResult(r);
          },
        });
        if (outcome.failed) {
          const i = outcome.failed.index;
          const s = statements[i]!;
          const where = statements.length > 1 || origin ? ` (statement ${i + 1} of ${statements.length}${origin ? ` in ${origin}` : ''}, line ${s.line})` : '';
          message('error', failureText(outcome.failed.error, where));
          if (statements.length - i - 1 > 0) message('warn', `the ${statements.length - i - 1} statement(s) after it did not run`);
          if (origin === null) restoreInput(source.slice(s.start));
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error instanceof StreamLostError) message('error', error.message);
        else if (error.kind === 'unknown-outcome') {
          // never back into the input: one Enter (or text typed after it) would send it again
          const sent = statements.slice(ran);
          for (const s of sent) uncertain.remember(s.text);
          message('error', `${error.message}${sent.length > 1 ? ` (statements ${ran + 1} to ${statements.length} of this input)` : ''} It is not put back in the input: check the data before running it again (sending it again asks first).`);
        } else if (error.kind === 'aborted') message('warn', `cancelled${statements.length > 1 ? ` (${ran} of ${statements.length} statements had finished)` : ''}`);
        else {
          message('error', failureText(error, ''));
          if (origin === null) restoreInput(source.slice(statements[ran]?.start ?? 0));
        }
      } finally {
        abort = null;
        set({ running: null });
      }
      if (ddl) await loadSchema();
    };

    const query = async (sql: string, args: (string | null)[] = []) => {
      const r = await db!.execute(sql, args);
      return r;
    };

    const runDot = async (cmd: DotCommand) => {
      const s = get();
      switch (cmd.name) {
        case 'help':
          push({
            kind: 'text',
            lines: [...DOT_COMMANDS.map((c) => `${c.usage.padEnd(18)} ${c.summary}`), ...KEY_HELP],
          });
          return;
        case 'mode':
          if (cmd.mode === null) message('info', `mode ${s.mode} (use .mode table|box|csv|json|line|markdown)`);
          else {
            set({ mode: cmd.mode });
            message('info', `mode ${cmd.mode}`);
          }
          return;
        case 'timer':
          if (cmd.on === null) message('info', `timer ${s.timer ? 'on' : 'off'}`);
          else {
            set({ timer: cmd.on });
            message('info', `timer ${cmd.on ? 'on' : 'off'}`);
          }
          return;
        case 'quit':
          get().leave(options.standalone ? 'quit' : 'back');
          return;
        case 'output': {
          if (outputFd !== null) {
            try {
              fs.closeSync(outputFd);
            } catch {
              // already closed
            }
            outputFd = null;
          }
          if (cmd.file === null) {
            const was = s.outputFile;
            set({ outputFile: null });
            message('info', was ? `results go to the screen again (${was} is closed)` : 'results go to the screen');
            return;
          }
          const file = path.resolve(cwd, cmd.file);
          try {
            outputFd = fs.openSync(file, 'w', 0o600);
            set({ outputFile: cmd.file });
            message('info', `results go to ${cmd.file} (in mode ${s.mode}) until .output alone`);
          } catch (error) {
            set({ outputFile: null });
            message('error', `cannot write ${cmd.file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
          }
          return;
        }
        case 'read': {
          let content: string;
          try {
            content = fs.readFileSync(path.resolve(cwd, cmd.file), 'utf8');
          } catch (error) {
            message('error', `cannot read ${cmd.file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
            return;
          }
          const all = splitStatements(content);
          const statements = all.filter((st) => st.complete);
          const cut = all.find((st) => !st.complete);
          if (cut) message('warn', `${cmd.file} ends inside a statement (line ${cut.line}, no closing ;): that one is not run`);
          message('info', `.read ${cmd.file}: ${statements.length} statement${statements.length === 1 ? '' : 's'}`);
          await runStatements(content, statements, cmd.file);
          return;
        }
        default:
          break;
      }
      // the rest ask the database
      if (!db) return;
      abort = new AbortController();
      set({ running: { since: deps.now(), what: `.${cmd.name}` } });
      try {
        switch (cmd.name) {
          case 'tables': {
            const r = await query(TABLES_QUERY, [cmd.pattern]);
            push({ kind: 'words', words: r.rows.map((row) => String(row[0])), empty: cmd.pattern ? `no table or view matches ${cmd.pattern}` : 'no tables' });
            break;
          }
          case 'indexes': {
            const r = await query(INDEXES_QUERY, [cmd.pattern]);
            push({ kind: 'words', words: r.rows.map((row) => String(row[0])), empty: cmd.pattern ? `no index on a table matching ${cmd.pattern}` : 'no indexes' });
            break;
          }
          case 'schema': {
            const r = await query(SCHEMA_TEXT_QUERY, [cmd.pattern]);
            if (r.rows.length === 0) message('info', cmd.pattern ? `nothing matches ${cmd.pattern}` : 'the database is empty');
            else push({ kind: 'text', lines: r.rows.flatMap((row) => `${String(row[0])};`.split('\n')) });
            break;
          }
          case 'describe': {
            const r = await query(DESCRIBE_QUERY, [cmd.table]);
            if (r.rows.length === 0) message('error', `no table or view named ${cmd.table} (.tables lists them)`);
            else push({ kind: 'result', result: r, mode: get().mode === 'box' ? 'box' : 'table', summary: `${cmd.table}: ${r.rows.length} column${r.rows.length === 1 ? '' : 's'}` });
            break;
          }
          case 'dump': {
            const objects = dumpObjectsFromRows((await query(DUMP_OBJECTS_QUERY, [cmd.pattern])).rows);
            if (objects.length === 0 && cmd.pattern) {
              message('error', `no table matches ${cmd.pattern}`);
              break;
            }
            const hasSeq = Number((await query(HAS_SEQUENCE_QUERY)).rows[0]?.[0] ?? 0) > 0;
            const sequence = hasSeq ? (await query(SEQUENCE_QUERY, [cmd.pattern])).rows : [];
            const lines: string[] = [];
            for await (const line of dumpLines(objects, async (t) => (await query(selectAllQuery(t))).rows, sequence)) lines.push(line);
            if (outputFd !== null && get().outputFile) {
              writeOutput(lines);
              message('ok', `dump written to ${get().outputFile} (${lines.length} lines)`);
            } else push({ kind: 'text', lines });
            break;
          }
        }
      } catch (error) {
        if (error instanceof ApiError) message(error.kind === 'aborted' ? 'warn' : 'error', error.kind === 'aborted' ? 'cancelled' : failureText(error, ''));
        else throw error;
      } finally {
        abort = null;
        set({ running: null });
      }
    };

    const drain = async () => {
      if (draining) return;
      draining = true;
      try {
        while (queue.length) {
          set({ queued: queue.length - 1 });
          const job = queue.shift()!;
          try {
            await job();
          } catch (error) {
            message('error', `unexpected error: ${errorMessage(error)}`);
          }
        }
      } finally {
        draining = false;
        set({ queued: 0 });
      }
    };

    const enqueue = (job: () => Promise<void>): Promise<void> =>
      new Promise<void>((resolve) => {
        queue.push(() => job().finally(resolve));
        if (draining) set({ queued: queue.length });
        void drain();
      });

    const leaveNow = (then: LeaveThen) => {
      set({ leavePrompt: null });
      if (then === 'quit') ui.getState().requestQuit();
      else if (!ui.getState().back()) ui.getState().requestQuit();
    };

    const searchKey = (ev: KeyEvent): boolean => {
      const s = get();
      const search = s.search!;
      if (ev.text !== null) {
        set({ search: searchType(s.history, search, search.query + ev.text) });
        return true;
      }
      switch (ev.name) {
        case 'backspace':
          set({ search: searchType(s.history, null, search.query.slice(0, -1)) });
          return true;
        case 'esc':
        case 'ctrl-g':
          set({ search: null });
          return true;
        default: {
          // any other key takes the match into the editor and then does what it does there
          const found = search.match >= 0 ? s.history[search.match]! : s.editor.text;
          set({ search: null, historyIndex: null });
          setEditor(editorOf(found));
          if (ev.name === 'enter') {
            void get().enter();
            return true;
          }
          return get().key(ev);
        }
      }
    };

    return {
      phase: 'idle',
      connectError: null,
      label: 'sql',
      url: '',
      status: null,
      editor: emptyEditor,
      focus: 'editor',
      history: [],
      historyIndex: null,
      draft: '',
      search: null,
      completions: null,
      schema: { tables: [] },
      entries: [],
      scroll: 0,
      browse: { entryId: null, top: 0, h: 0 },
      mode: 'table',
      timer: true,
      outputFile: null,
      running: null,
      queued: 0,
      leavePrompt: null,
      pageLines: 10,

      start() {
        if (get().phase !== 'idle') return;
        const url = deps.settings.databaseUrl;
        if (!url) {
          set({ phase: 'failed', connectError: NO_DATABASE });
          return;
        }
        try {
          db = new DatabaseSession({ url, authToken: deps.settings.databaseToken, keepAliveMs: options.keepAliveMs ?? keepAliveFromEnv(env) });
        } catch (error) {
          set({ phase: 'failed', connectError: errorMessage(error) });
          return;
        }
        db.subscribe(onStatus);
        // the emulator's port changes every run: its history is kept under "emulator"
        const key = options.emulator ? historyKey(`http://emulator${new URL(db.url).pathname}`) : historyKey(db.url);
        historyFile = historyPath(stateDir(env), key);
        const access = db.tokenAccess === 'read-only' ? ' · READ-ONLY token: reads only' : '';
        set({ phase: 'ready', url: db.url, label: databaseLabel(db.url), status: db.status(), history: loadHistory(historyFile) });
        message('info', `SQL shell on ${db.url}${access} · .help lists the commands and keys`);
        void loadSchema();
        void lookupName();
      },

      key(ev) {
        const s = get();
        if (s.search) return searchKey(ev);
        if (s.completions && ev.name !== 'tab') set({ completions: null });
        switch (ev.name) {
          case 'enter':
            void get().enter();
            return true;
          case 'up':
          case 'down': {
            const dir = ev.name === 'up' ? -1 : 1;
            const moved = (dir < 0 ? onFirstLine(s.editor) : onLastLine(s.editor)) ? null : moveLine(s.editor, dir);
            if (moved) {
              setEditor(moved);
              return true;
            }
            const next = historyStep(s.history, s.historyIndex, dir);
            if (next === undefined) return true;
            const draft = s.historyIndex === null ? s.editor.text : s.draft;
            const text = next === null ? draft : s.history[next]!;
            set({ historyIndex: next, draft });
            setEditor(editorOf(text));
            return true;
          }
          case 'pgup':
            get().scrollTranscript(Math.max(1, s.pageLines - 2));
            return true;
          case 'pgdn':
            get().scrollTranscript(-Math.max(1, s.pageLines - 2));
            return true;
          case 'esc': {
            // back one level: to the results, or with none yet, off the screen
            const browsable = s.entries.some((e) => e.kind === 'result' || e.kind === 'text' || e.kind === 'words');
            if (browsable) get().setFocus('results');
            else if (ui.getState().stack.length > 1) get().leave('back');
            else ui.getState().setStatus('no results to browse yet; .quit or ctrl-d leaves', 'info', 4000);
            return true;
          }
          case 'ctrl-d':
            if (s.editor.text === '') {
              get().leave(options.standalone ? 'quit' : 'back');
              return true;
            }
            break;
          default:
            break;
        }
        const next = editKey(s.editor, ev);
        if (!next) return false;
        setEditor(next);
        return true;
      },

      async enter() {
        const s = get();
        const text = s.editor.text;
        if (text.trim() === '') {
          setEditor(emptyEditor);
          return;
        }
        if (isDotCommandInput(text)) {
          rememberInput(text);
          setEditor(emptyEditor);
          push({ kind: 'input', prompt: prompt(), text: text.trim() });
          const parsed = parseDotCommand(text);
          if (!parsed.ok) {
            message('error', parsed.message);
            return;
          }
          return enqueue(() => runDot(parsed.command));
        }
        if (!isComplete(text)) {
          setEditor(insertText(s.editor, '\n'));
          return;
        }
        return get().submit(text);
      },

      async submit(text) {
        if (isDotCommandInput(text)) {
          setEditor(editorOf(text));
          return get().enter();
        }
        rememberInput(text);
        setEditor(emptyEditor);
        push({ kind: 'input', prompt: prompt(), text: text.replace(/\s+$/, '') });
        if (get().phase !== 'ready') {
          message('error', get().connectError ?? NO_DATABASE);
          return;
        }
        const statements = splitStatements(text).filter((st) => st.complete);
        return enqueue(() => runStatements(text, statements, null));
      },

      tab() {
        const s = get();
        if (s.search) return;
        const c = complete(s.editor.text, s.editor.cursor, s.schema);
        if (c.candidates.length === 0) {
          set({ completions: [] });
          return;
        }
        if (c.candidates.length === 1) {
          setEditor(replaceRange(s.editor, c.start, c.end, c.candidates[0]!));
          return;
        }
        const typed = s.editor.text.slice(c.start, c.end);
        const common = commonPrefix(c.candidates);
        const editor = common.length > typed.length ? replaceRange(s.editor, c.start, c.end, common) : s.editor;
        set({ editor, completions: c.candidates });
      },

      reverseSearch() {
        const s = get();
        if (s.search) set({ search: searchOlder(s.history, s.search) });
        else set({ search: { query: '', match: -1, failed: false }, completions: null });
      },

      interrupt() {
        const s = get();
        if (s.running) {
          get().cancel();
          return true;
        }
        if (s.search) {
          set({ search: null });
          return true;
        }
        if (s.editor.text !== '') {
          set({ historyIndex: null, draft: '' });
          setEditor(emptyEditor);
          return true;
        }
        if (s.status?.transaction) {
          get().leave('quit');
          return true;
        }
        return false;
      },

      interruptLeave() {
        const p = get().leavePrompt;
        set({ leavePrompt: null });
        if (p?.then !== 'quit') {
          // the question came from esc or ctrl-d: this ctrl-c is the first one
          ui.getState().interrupt();
          return;
        }
        // the question was this ctrl-c's first press: not asked again by the console's quit question
        ui.getState().setPending(TX_PENDING, null);
        ui.getState().requestQuit();
        if (txOpen) ui.getState().setPending(TX_PENDING, `an open SQL transaction on ${get().label} (quitting rolls it back)`);
      },

      cancel() {
        const dropped = queue.length;
        queue.length = 0;
        if (dropped) message('warn', `${dropped} queued input${dropped === 1 ? '' : 's'} dropped`);
        abort?.abort();
      },

      setFocus(focus) {
        if (focus === 'results') set({ focus, browse: { entryId: null, top: 0, h: 0 }, completions: null });
        else set({ focus });
      },

      setPageLines(n) {
        if (n !== get().pageLines) set({ pageLines: n });
      },

      scrollTranscript(delta) {
        set((s) => ({ scroll: Math.max(0, s.scroll + delta) }));
      },

      browseMove(patch) {
        set((s) => ({ browse: { ...s.browse, ...patch } }));
      },

      browseEntry(dir) {
        const s = get();
        const browsable = s.entries.filter((e) => e.kind === 'result' || e.kind === 'text' || e.kind === 'words');
        if (browsable.length === 0) return;
        const current = s.browse.entryId ?? browsable[browsable.length - 1]!.id;
        const at = browsable.findIndex((e) => e.id === current);
        const next = browsable[Math.max(0, Math.min(browsable.length - 1, (at < 0 ? browsable.length - 1 : at) + dir))]!;
        set({ browse: { entryId: next.id, top: 0, h: 0 } });
      },

      leave(then) {
        if (get().status?.transaction) {
          set({ leavePrompt: { then } });
          return;
        }
        leaveNow(then);
      },

      async answerLeave(choice) {
        const p = get().leavePrompt;
        if (!p) return;
        if (choice === 'stay') {
          set({ leavePrompt: null });
          return;
        }
        set({ leavePrompt: null });
        if (!db) return leaveNow(p.then);
        try {
          set({ running: { since: deps.now(), what: choice === 'commit' ? 'COMMIT' : 'ROLLBACK' } });
          await (choice === 'commit' ? db.commit() : db.rollback());
          message('ok', choice === 'commit' ? 'committed' : 'rolled back');
        } catch (error) {
          if (error instanceof StreamLostError) {
            message('error', error.message);
          } else {
            message('error', `${choice === 'commit' ? 'COMMIT' : 'ROLLBACK'} failed: ${errorMessage(error)}; the transaction is still open`);
            set({ running: null });
            return;
          }
        } finally {
          set({ running: null });
        }
        leaveNow(p.then);
      },

      async dispose() {
        get().cancel();
        if (outputFd !== null) {
          try {
            fs.closeSync(outputFd);
          } catch {
            // already closed
          }
          outputFd = null;
        }
        ui.getState().setPending(TX_PENDING, null);
        if (!db) return { rolledBack: false };
        const closing = db;
        db = null;
        return closing.close().catch(() => ({ rolledBack: false }));
      },
    };
  });
}

/** The console's SQL store (one per session: leaving :sql keeps the session and its transaction). */
export function createSqlStore(deps: StoreDeps): SqlStore {
  return createSqlStoreWith(deps, { emulator: deps.settings.target === 'emulator', lookupName: true });
}
