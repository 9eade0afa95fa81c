import { leadingTokens, SqlError, StreamLostError, type SqlStatement, type StatementResult } from '../../api/database/index';
import { ApiError } from '../../api/errors';
import { destructiveReason } from '../../sql-repl/destructive';
import { editorOf } from '../../sql-repl/editor';
import { isStreamedMode, ResultTextStream, resultText, summaryText } from '../../sql-repl/output-modes';
import { firstWriter, readOnlyRefusal, readOnlyWords } from '../../sql-repl/read-only';
import { LogsSqlRefusal } from '../../logs-sql/engine';
import { oneLine, UncertainStatements } from '../../sql-repl/uncertain';
import { errorMessage } from '../domain-stores';
import { terminalSafe } from '../../text/terminal-safe';
import type { SqlContext } from './context';
import { isPlainRead, runCursorResult } from './cursor-result';
import type { OutputFile } from './output-file';
import type { PagedRows } from './paged-rows';

export function explainHttp(error: ApiError): string {
  if (error.status === 401)
    return `${error.message}: the database refused the token (revoked, expired or for another database); create one with burrow db tokens create`;
  if (error.status === 403) return `${error.message}: the token is not allowed to do this on this database`;
  return error.message;
}

export function failureText(error: ApiError, where: string): string {
  if (error instanceof SqlError) return `error ${error.message}${where}`;
  if (error instanceof StreamLostError) return error.message;
  return `error: ${explainHttp(error)}${where}`;
}

function firstWord(sql: string): string {
  return (leadingTokens(sql, 1)[0] ?? '').toUpperCase();
}

/** Statements after which the store's tables and columns are read again (for completion). */
const STORE_DDL = new Set(['CREATE', 'DROP', 'ALTER', 'RENAME', 'ATTACH', 'DETACH']);

export interface StatementRunner {
  /**
   * Runs statements on the session, each result shown as it arrives; stops at the first error.
   * `origin` names the file of a .read (null: typed, so a failed input is recalled by ↑; it is
   * not put back in the editor, where the next statement typed would be added to it).
   * False when a statement failed or was refused (the inputs queued behind it are then skipped).
   */
  run(source: string, statements: SqlStatement[], origin: string | null): Promise<boolean>;
  /** Reads the schema for completion again (after DDL). */
  loadSchema(): Promise<void>;
}

/**
 * The checks before SQL is sent (read-only mode, statements whose last outcome is unknown,
 * destructive statements) and what is shown of each result and failure.
 */
export function createStatementRunner(ctx: SqlContext, output: OutputFile, recall: (text: string) => void): StatementRunner {
  const { get, set, message } = ctx;
  const uncertain = new UncertainStatements();

  const restoreInput = (text: string) => {
    // only into an empty editor: never over what was typed meanwhile
    if (get().editor.text === '') ctx.setEditor(editorOf(text.replace(/\s+$/, '')));
  };
  /** A failed input: the newest history entry (↑ brings it back to edit), never into the editor. */
  const recallInput = (text: string) => recall(text.replace(/\s+$/, ''));

  const showResult = (r: StatementResult) => {
    const { mode, timer, outputFile } = get();
    const summary = summaryText(
      { columns: r.columns, rowCount: r.rows.length, rowsAffected: r.rowsAffected, lastInsertRowid: r.lastInsertRowid, durationMs: r.durationMs },
      timer,
    );
    if (r.columns.length === 0) {
      message('ok', summary);
      return;
    }
    if (output.open && outputFile) {
      try {
        output.write(resultText(r, mode));
        message('ok', `${summary} · written to ${outputFile} (${mode})`);
      } catch (error) {
        message('error', `cannot write to ${outputFile}: ${errorMessage(error)}`);
      }
      return;
    }
    ctx.push({ kind: 'result', result: r, mode, summary });
  };

  /**
   * A read outside a transaction comes through a cursor: any size, a bounded window of rows in
   * memory. False when it cannot (the server has no cursor): the caller runs it as before.
   */
  const runThroughCursor = async (sql: string, signal: AbortSignal): Promise<boolean> => {
    const target = ctx.cursorTarget;
    if (!target || get().status?.transaction || (output.open && get().outputFile) || !isPlainRead(sql)) return false;
    let id: number | null = null;
    let shown: { result: StatementResult; rows: PagedRows } | null = null;
    const summary = () => {
      if (!shown) return '';
      const { result, rows } = shown;
      if (rows.stopped) return `${rows.count.toLocaleString('en-US')} rows read before it stopped: run it again for the rest`;
      if (!rows.done) return `${rows.count.toLocaleString('en-US')} rows so far…`;
      return summaryText({ columns: result.columns, rowCount: rows.count, rowsAffected: 0, lastInsertRowid: null, durationMs: result.durationMs }, get().timer);
    };
    return runCursorResult({ ...target, signal }, sql, {
      now: ctx.deps.now,
      show(result, rows) {
        shown = { result, rows };
        if (result.columns.length === 0) {
          message('ok', summaryText({ columns: [], rowCount: 0, rowsAffected: 0, lastInsertRowid: null, durationMs: result.durationMs }, get().timer));
          return;
        }
        ctx.push({ kind: 'result', result, mode: get().mode, summary: summary() });
        id = get().entries.at(-1)?.id ?? null;
      },
      changed() {
        // a new entry object: the view's caches of lines (kept per entry) are made again
        set({ entries: get().entries.map((e) => (e.id === id && e.kind === 'result' ? { ...e, summary: summary() } : e)) });
      },
      pageFailed(error) {
        message('error', `cannot read those rows again: ${errorMessage(error)}`);
      },
    });
  };

  /** Tables and views made in the logs shell live only as long as the console: quitting asks first. */
  const guardOwnTables = () => {
    const own = get()
      .schema.tables.filter((t) => t.name !== 'logs')
      .map((t) => terminalSafe(t.name));
    const text =
      own.length === 0
        ? null
        : own.length === 1
          ? `table ${own[0]} in :sql logs`
          : `${own.length} tables in :sql logs (${own.slice(0, 3).join(', ')}${own.length > 3 ? ', …' : ''})`;
    ctx.deps.ui.getState().setPending('sql:logs-tables', text);
  };

  const loadSchema = async () => {
    if (!ctx.catalog) return;
    try {
      set({ schema: await ctx.catalog.schema() });
      if (ctx.logs) guardOwnTables();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) message('error', explainHttp(error));
      // completion falls back to keywords; the error shows with the first statement anyway
    }
  };

  /** Read-only mode refuses before asking anything: a question about a write it will not run misleads. */
  const readOnlyRefused = async (statements: SqlStatement[]): Promise<boolean> => {
    if (!ctx.deps.ui.getState().readOnly || !ctx.db) return false;
    let refusal: string | null;
    try {
      const writer = await firstWriter(ctx.db, statements);
      refusal = writer ? readOnlyRefusal(writer.statement.text, ctx.deps.ui.getState().readOnlySource) : null;
    } catch (error) {
      // read-only mode runs nothing it could not check
      refusal = `${readOnlyWords(ctx.deps.ui.getState().readOnlySource)}: the statements could not be checked, so nothing was run: ${errorMessage(error)}`;
    }
    if (refusal) message('error', refusal);
    return refusal !== null;
  };

  /** A statement whose answer was lost is sent again only after its own yes. */
  const repeatRefused = async (statements: SqlStatement[]): Promise<boolean> => {
    const repeated = statements.filter((s) => uncertain.has(s.text));
    if (repeated.length === 0) return false;
    const what = repeated.length > 1 ? `${repeated.length} statements` : `"${oneLine(repeated[0]!.text)}"`;
    const yes = await ctx.confirm(
      `${what} may already have run: the last time, the connection failed after sending it`,
      'Send it again? Check the data first: running a write twice applies it twice.',
      'send again',
    );
    if (!yes) {
      message('warn', 'not sent again');
      return true;
    }
    for (const s of repeated) uncertain.forget(s.text);
    return false;
  };

  const destructiveRefused = async (statements: SqlStatement[]): Promise<boolean> => {
    const dangers = statements.map((s) => destructiveReason(s.text)).filter((r): r is string => r !== null);
    if (dangers.length === 0) return false;
    const more = dangers.length > 1 ? ` (and ${dangers.length - 1} more: ${dangers.slice(1).join('; ')})` : '';
    const inTx = get().status?.transaction ? ' A transaction is open: ROLLBACK can still undo it.' : ' It cannot be undone.';
    const yes = await ctx.confirm(`${dangers[0]}${more}`, `Run it?${inTx}`, 'run it');
    if (!yes) message('warn', 'not run (the input is back in the editor)');
    return !yes;
  };

  /** Asks the destructive check, then marks the run as started: its abort, or null when refused (the input given back). */
  const beginRun = async (source: string, statements: SqlStatement[], origin: string | null): Promise<AbortController | null> => {
    if (await destructiveRefused(statements)) {
      if (origin === null) restoreInput(source);
      return null;
    }
    const abort = new AbortController();
    ctx.abort = abort;
    set({ running: { since: ctx.deps.now(), what: statements.length > 1 ? `${statements.length} statements` : statements[0]!.text.slice(0, 60) } });
    return abort;
  };

  /**
   * The logs table's engine: local, so no read-only mode (nothing reaches the platform), no
   * transaction and no lost answers; the destructive check still asks (about the user's own tables).
   */
  const runOnLogs = async (source: string, statements: SqlStatement[], origin: string | null) => {
    const logs = ctx.logs!;
    const abort = await beginRun(source, statements, origin);
    if (!abort) return false;
    let ddl = false;
    try {
      await logs.refresh();
      for (let i = 0; i < statements.length; i++) {
        const s = statements[i]!;
        if (abort.signal.aborted) {
          message('warn', `cancelled${statements.length > 1 ? ` (${i} of ${statements.length} statements had finished)` : ''}`);
          return true;
        }
        try {
          let id: number | null = null;
          await logs.run(
            s.text,
            abort.signal,
            (r, paged) => {
              showResult(r);
              if (paged) id = get().entries.at(-1)?.id ?? null;
            },
            {
              whole: Boolean(output.open && get().outputFile),
              // a new entry object: the view's caches of lines (kept per entry) are made again
              onPage: () => set({ entries: get().entries.map((e) => (e.id === id && e.kind === 'result' ? { ...e } : e)) }),
              onPageError: (error) => message('error', `cannot read those rows again: ${errorMessage(error)}`),
            },
          );
        } catch (error) {
          const where = statements.length > 1 || origin ? ` (statement ${i + 1} of ${statements.length}${origin ? ` in ${origin}` : ''}, line ${s.line})` : '';
          if (abort.signal.aborted) message('warn', `cancelled${where}`);
          else message('error', error instanceof LogsSqlRefusal ? `${error.message}${where}` : `error: ${errorMessage(error).split('\n')[0]}${where}`);
          if (statements.length - i - 1 > 0) message('warn', `the ${statements.length - i - 1} statement(s) after it did not run`);
          if (origin === null && !abort.signal.aborted) recallInput(source.slice(s.start));
          return abort.signal.aborted;
        }
        const w = firstWord(s.text);
        if (w === 'CREATE' || w === 'DROP' || w === 'ALTER') ddl = true;
      }
      return true;
    } catch (error) {
      message('error', `the logs table is not available: ${errorMessage(error)}`);
      return false;
    } finally {
      ctx.abort = null;
      set({ running: null });
      if (ddl) await loadSchema();
    }
  };

  /**
   * The log store (ClickHouse): no transaction; in read-only mode the server itself refuses
   * writes (`readonly = 2`, set by the store's session); the destructive check asks. A result streams into the grid page by page; ctrl-c
   * drops the request and stops the query on the server (KILL QUERY), and says so.
   */
  const runOnStore = async (source: string, statements: SqlStatement[], origin: string | null) => {
    const store = ctx.store!;
    const abort = await beginRun(source, statements, origin);
    if (!abort) return false;
    let ddl = false;
    try {
      for (let i = 0; i < statements.length; i++) {
        const s = statements[i]!;
        if (abort.signal.aborted) {
          message('warn', `cancelled${statements.length > 1 ? ` (${i} of ${statements.length} statements had finished)` : ''}`);
          return true;
        }
        let id: number | null = null;
        let shown: { result: StatementResult; rows: PagedRows } | null = null;
        const summary = () => {
          if (!shown) return '';
          const { result, rows } = shown;
          if (rows.stopped) return `${rows.count.toLocaleString('en-US')} rows read before it stopped: run it again for the rest`;
          if (!rows.done) return `${rows.count.toLocaleString('en-US')} rows so far…`;
          return summaryText(
            { columns: result.columns, rowCount: rows.count, rowsAffected: 0, lastInsertRowid: null, durationMs: result.durationMs },
            get().timer,
          );
        };
        const refresh = () => set({ entries: get().entries.map((e) => (e.id === id && e.kind === 'result' ? { ...e, summary: summary() } : e)) });
        const { mode, outputFile } = get();
        try {
          if (output.open && outputFile && isStreamedMode(mode)) {
            // csv, json and line go to the file as the rows arrive: an export of any size
            let text: ResultTextStream | null = null;
            const r = await store.export(s.text, abort.signal, {
              head: (columns) => {
                text = new ResultTextStream(columns, mode);
                output.write(text.begin());
              },
              rows: (rows) => void output.write(text!.rows(rows)),
            });
            const done = summaryText({ columns: r.columns, rowCount: r.rows, rowsAffected: 0, lastInsertRowid: null, durationMs: r.durationMs }, get().timer);
            if (text) output.write((text as ResultTextStream).end());
            message('ok', r.columns.length ? `${done} · written to ${outputFile} (${mode})` : done);
            if (STORE_DDL.has(firstWord(s.text))) ddl = true;
            continue;
          }
          await store.run(
            s.text,
            abort.signal,
            {
              show(result, paged) {
                if (!paged) {
                  showResult(result);
                  return;
                }
                shown = { result, rows: paged };
                ctx.push({ kind: 'result', result, mode: get().mode, summary: summary() });
                id = get().entries.at(-1)?.id ?? null;
              },
              // a new entry object: the view's caches of lines (kept per entry) are made again
              changed: refresh,
              pageFailed: (error) => message('error', `cannot read those rows again: ${errorMessage(error)}`),
            },
            Boolean(output.open && get().outputFile),
          );
        } catch (error) {
          const where = statements.length > 1 || origin ? ` (statement ${i + 1} of ${statements.length}${origin ? ` in ${origin}` : ''}, line ${s.line})` : '';
          if (abort.signal.aborted) message('warn', `${errorMessage(error)}${where}`);
          else message('error', `${errorMessage(error)}${where}`);
          if (statements.length - i - 1 > 0) message('warn', `the ${statements.length - i - 1} statement(s) after it did not run`);
          if (origin === null && !abort.signal.aborted) recallInput(source.slice(s.start));
          return abort.signal.aborted;
        }
        if (STORE_DDL.has(firstWord(s.text))) ddl = true;
      }
      return true;
    } finally {
      ctx.abort = null;
      set({ running: null });
      if (ddl) await loadSchema();
    }
  };

  const run = async (source: string, statements: SqlStatement[], origin: string | null) => {
    if (ctx.logs) return runOnLogs(source, statements, origin);
    if (ctx.store) return runOnStore(source, statements, origin);
    const db = ctx.db;
    if (!db || statements.length === 0) return true;
    if (await readOnlyRefused(statements)) {
      if (origin === null) recallInput(source);
      return false;
    }
    if (await repeatRefused(statements)) return false;
    const abort = await beginRun(source, statements, origin);
    if (!abort) return false;
    let ran = 0;
    let ddl = false;
    let ok = true;
    try {
      if (statements.length === 1 && (await runThroughCursor(statements[0]!.text, abort.signal))) return true;
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
        if (origin === null) recallInput(source.slice(s.start));
        ok = false;
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ok = error.kind === 'aborted';
      if (error instanceof StreamLostError) message('error', error.message);
      else if (error.kind === 'unknown-outcome') {
        // never back into the input: one Enter (or text typed after it) would send it again
        const sent = statements.slice(ran);
        for (const s of sent) uncertain.remember(s.text);
        message(
          'error',
          `${error.message}${sent.length > 1 ? ` (statements ${ran + 1} to ${statements.length} of this input)` : ''} It is not put back in the input: check the data before running it again (sending it again asks first).`,
        );
      } else if (error.kind === 'aborted') {
        // a write cancelled after it left may still run on the server: the same rule as a lost answer
        const writes = statements.slice(ran).filter((s) => uncertain.remember(s.text)).length;
        const done = statements.length > 1 ? ` (${ran} of ${statements.length} statements had finished)` : '';
        message(
          'warn',
          `cancelled${done}${writes ? `: the server may have run ${writes > 1 ? 'the writes' : 'the write'} anyway; sending ${writes > 1 ? 'them' : 'it'} again asks first` : ''}`,
        );
      } else {
        message('error', failureText(error, ''));
        if (origin === null) recallInput(source.slice(statements[ran]?.start ?? 0));
      }
    } finally {
      ctx.abort = null;
      set({ running: null });
    }
    if (ddl) await loadSchema();
    return ok;
  };

  return { run, loadSchema };
}
