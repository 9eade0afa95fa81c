import { createStore } from 'zustand/vanilla';
import { DatabaseSession, isComplete, splitStatements, type SessionStatus } from '../../api/database/index';
import { sameDatabaseUrl } from '../../api/database-management';
import { stateDir } from '../../config/paths';
import { databaseLabel, keepAliveFromEnv } from '../../sql-repl/database-label';
import { isDotCommandInput, parseDotCommand } from '../../sql-repl/dot-commands';
import { editorOf, emptyEditor, insertText } from '../../sql-repl/editor';
import { historyKey, historyPath } from '../../sql-repl/history-file';
import { errorMessage, type StoreDeps } from '../domain-stores';
import { createSqlContext } from './context';
import { createDotRunner } from './dot-runner';
import { editorKeyActions } from './editor-keys';
import { createInputHistory } from './input-history';
import { JobQueue } from './job-queue';
import { createLeaveGuard } from './leave';
import { OutputFile } from './output-file';
import { createStatementRunner } from './statements';
import { transcriptActions } from './transcript';
import type { SqlState, SqlStore, SqlStoreOptions } from './types';
import { hranaCatalog } from './backend';
import { LogsBackend, type LogsRecordSource } from './logs-backend';
import { StoreBackend } from './store-backend';
import { parseStoreUrl } from '../../config/store-url';
import { readOnlyWords } from '../../sql-repl/read-only';

export type { BrowseState, Entry, LeaveThen, NewEntry, SqlState, SqlStore, SqlStoreOptions } from './types';

const NO_DATABASE =
  'no database configured: set SERVICE_DATABASE_URL and SERVICE_DATABASE_AUTH_TOKEN (or BUNNY_DATABASE_URL / BUNNY_DATABASE_AUTH_TOKEN, ' +
  'or databaseUrl / databaseToken in the profile), or start burrow with --demo to use the built-in emulator';

/** `:sql store` with no store configured: how to configure one. */
export const NO_STORE =
  'no log store configured: start burrow with --store-url clickhouse://[user@]host[:port][/database], or set BURROW_LOG_STORE ' +
  '(or logStore: in the profile); a password goes in BURROW_LOG_STORE_PASSWORD or logStorePassword: in the profile, never in the URL';

/**
 * The SQL shell's store. Its parts live in ./sql: the shared context (transcript push, confirm),
 * the statement runner (checks before sending, results, failures), the dot-command interpreter,
 * `.output` files, the input history, the job queue, the leave guard and the editor's keys. This
 * file connects them to the session and runs what is entered.
 */
export function createSqlStoreWith(deps: StoreDeps, options: SqlStoreOptions = {}): SqlStore {
  return createStore<SqlState>()((set, get) => {
    const ctx = createSqlContext(get, set, deps, options);
    // another database chosen on the databases screen (null: the session's own)
    let target: { url: string; token: string } | null = null;
    let logsSource: LogsRecordSource = () => null;
    const output = new OutputFile();
    const history = createInputHistory(ctx);
    const statements = createStatementRunner(ctx, output, (text) => {
      // ↑ first brings back the part that failed (the whole input is already in the history)
      if (get().history.at(-1) !== text.trim()) history.remember(text);
    });
    const runDot = createDotRunner(ctx, output, statements);
    const leave = createLeaveGuard(ctx);
    const jobs = new JobQueue(
      (queued) => set({ queued }),
      (error) => ctx.message('error', `unexpected error: ${errorMessage(error)}`),
    );

    /** After a failed input, what was typed behind it is not run as if nothing happened. */
    const skipQueued = () => {
      const skipped = jobs.clear();
      if (skipped)
        ctx.message('warn', `${skipped} queued input${skipped === 1 ? '' : 's'} skipped: the one before failed (↑ recalls ${skipped === 1 ? 'it' : 'them'})`);
    };

    const onStatus = (s: SessionStatus) => {
      set({ status: s });
      leave.onStatus(s);
      if (s.lossPending && s.lost) {
        ctx.db?.acknowledgeLoss();
        ctx.message('error', `the connection lost the open transaction: it was rolled back by the server (${s.lost.reason}). Nothing since BEGIN was kept.`);
      }
    };

    // The database's name for the prompt, from the management API. No deadline of its own: the
    // HTTP client's timeouts and retries apply, and closing the shell cancels it (a 5 s deadline
    // gave up on a busy machine and the prompt kept host:port for the whole session).
    let nameLookup: AbortController | null = null;
    const lookupName = async () => {
      if (!options.lookupName || !ctx.db) return;
      nameLookup?.abort();
      const lookup = (nameLookup = new AbortController());
      const url = get().url;
      try {
        const list = await deps.api.databases.list(lookup.signal);
        const found = list.find((d) => sameDatabaseUrl(d.url, url));
        if (found && get().url === url) set({ label: found.name });
      } catch {
        // the host-based label stays
      } finally {
        if (nameLookup === lookup) nameLookup = null;
      }
    };

    /** `:sql store`: ClickHouse, the store `burrow ship` writes to (its URL as `burrow logs --store` reads it). */
    const startOnStore = () => {
      const text = deps.settings.logStore;
      if (!text) {
        set({ phase: 'failed', connectError: NO_STORE });
        return;
      }
      let backend: StoreBackend;
      try {
        const ui = deps.ui.getState();
        const readOnly = ui.readOnly ? readOnlyWords(ui.readOnlySource) : null;
        backend = new StoreBackend(parseStoreUrl(text), deps.settings.logStorePassword, (snapshot) => set({ store: snapshot }), deps.now, readOnly);
      } catch (error) {
        set({ phase: 'failed', connectError: errorMessage(error) });
        return;
      }
      ctx.store = backend;
      ctx.catalog = backend.catalog;
      const { where, database } = backend.state;
      set({ phase: 'ready', url: where, label: `ch:${database}`, store: backend.state });
      history.open(historyPath(stateDir(ctx.env), historyKey(where.replace(/^clickhouses?:/, 'https:'))));
      const reads = deps.ui.getState().readOnly ? ` · ${readOnlyWords(deps.ui.getState().readOnlySource)}: reads only` : '';
      ctx.message('info', `SQL on the log store ${where} (ClickHouse)${reads} · .tables lists its tables · .help lists the commands`);
      backend.connect().then(
        () => statements.loadSchema(),
        (error: unknown) => ctx.message('error', errorMessage(error)),
      );
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
      browse: { entryId: null, top: 0, h: 0, row: 0 },
      mode: 'table',
      expandedFrom: null,
      timer: true,
      outputFile: null,
      running: null,
      queued: 0,
      leavePrompt: null,
      pageLines: 10,
      logs: null,
      store: null,

      ...transcriptActions(ctx),
      ...editorKeyActions(ctx, history),
      ...leave.actions,
      reverseSearch: history.reverseSearch,

      bindLogs(source) {
        logsSource = source;
        ctx.logs?.setSource(source);
      },

      followLogs(on) {
        const logs = ctx.logs;
        if (!logs) return;
        logs.follow(on);
        if (on) logs.refresh().catch(() => undefined);
      },

      start() {
        if (get().phase !== 'idle') return;
        if (options.logs) {
          const logs = new LogsBackend(logsSource, (snapshot) => set({ logs: snapshot }), deps.now);
          ctx.logs = logs;
          ctx.catalog = logs.catalog;
          set({ phase: 'ready', url: 'logs', label: 'logs', logs: logs.state });
          history.open(historyPath(stateDir(ctx.env), 'logs-table'));
          ctx.message(
            'info',
            "SQL on the logs screen's records: the table logs (.schema logs lists its columns; your own TEMP tables and views are allowed) · .help lists the commands",
          );
          void statements.loadSchema();
          return;
        }
        if (options.store) {
          startOnStore();
          return;
        }
        const url = target?.url ?? deps.settings.databaseUrl;
        if (!url) {
          set({ phase: 'failed', connectError: NO_DATABASE });
          return;
        }
        let db: DatabaseSession;
        try {
          const authToken = target?.token ?? deps.settings.databaseToken;
          db = new DatabaseSession({ url, authToken, keepAliveMs: options.keepAliveMs ?? keepAliveFromEnv(ctx.env) });
          ctx.cursorTarget = { url, authToken: authToken ?? null };
        } catch (error) {
          set({ phase: 'failed', connectError: errorMessage(error) });
          return;
        }
        ctx.db = db;
        ctx.catalog = hranaCatalog(db);
        db.subscribe(onStatus);
        // the emulator's port changes every run: its history is kept under "emulator"
        const key = options.emulator ? historyKey(`http://emulator${new URL(db.url).pathname}`) : historyKey(db.url);
        const access = db.tokenAccess === 'read-only' ? ' · READ-ONLY token: reads only' : '';
        set({ phase: 'ready', url: db.url, label: databaseLabel(db.url), status: db.status() });
        history.open(historyPath(stateDir(ctx.env), key));
        ctx.message('info', `SQL shell on ${db.url}${access} · .help lists the commands and keys`);
        void statements.loadSchema();
        void lookupName();
      },

      async enter() {
        const text = get().editor.text;
        if (text.trim() === '') {
          ctx.setEditor(emptyEditor);
          return;
        }
        if (isDotCommandInput(text)) {
          history.remember(text);
          ctx.setEditor(emptyEditor);
          ctx.push({ kind: 'input', prompt: ctx.prompt(), text: text.trim() });
          const parsed = parseDotCommand(text);
          if (!parsed.ok) {
            ctx.message('error', parsed.message);
            return;
          }
          return jobs.enqueue(() => runDot(parsed.command));
        }
        if (!isComplete(text)) {
          ctx.setEditor(insertText(get().editor, '\n'));
          return;
        }
        return get().submit(text);
      },

      async submit(text) {
        if (isDotCommandInput(text)) {
          ctx.setEditor(editorOf(text));
          return get().enter();
        }
        history.remember(text);
        ctx.setEditor(emptyEditor);
        ctx.push({ kind: 'input', prompt: ctx.prompt(), text: text.replace(/\s+$/, '') });
        if (get().phase !== 'ready') {
          ctx.message('error', get().connectError ?? NO_DATABASE);
          return;
        }
        const complete = splitStatements(text).filter((st) => st.complete);
        return jobs.enqueue(async () => {
          if (!(await statements.run(text, complete, null))) skipQueued();
        });
      },

      cancel() {
        const dropped = jobs.clear();
        if (dropped) ctx.message('warn', `${dropped} queued input${dropped === 1 ? '' : 's'} dropped`);
        ctx.abort?.abort();
      },

      async switchDatabase(url, token) {
        if (ctx.db?.status().transaction) return 'transaction';
        const closing = ctx.db;
        ctx.db = null;
        get().cancel();
        await closing?.close().catch(() => undefined);
        target = { url, token };
        set({ phase: 'idle', connectError: null, schema: { tables: [] } });
        get().start();
        return 'switched';
      },

      async dispose() {
        nameLookup?.abort();
        get().cancel();
        output.close();
        leave.release();
        ctx.logs?.close();
        ctx.logs = null;
        ctx.store?.close();
        ctx.store = null;
        const closing = ctx.db;
        if (!closing) return { rolledBack: false };
        ctx.db = null;
        return closing.close().catch(() => ({ rolledBack: false }));
      },
    };
  });
}

/** The console's SQL shell on the logs screen's records (`:sql logs`): its own transcript and history. */
export function createLogsSqlStore(deps: StoreDeps): SqlStore {
  return createSqlStoreWith(deps, { logs: true });
}

/** The console's SQL shell on the log store (`:sql store`): ClickHouse, with its own transcript and history. */
export function createStoreSqlStore(deps: StoreDeps): SqlStore {
  return createSqlStoreWith(deps, { store: true });
}

/** The console's SQL store (one per session: leaving :sql keeps the session and its transaction). */
export function createSqlStore(deps: StoreDeps): SqlStore {
  return createSqlStoreWith(deps, { emulator: deps.settings.target === 'emulator', lookupName: true });
}
