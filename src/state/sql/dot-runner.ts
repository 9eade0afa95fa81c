import fs from 'node:fs';
import path from 'node:path';
import { splitStatements } from '../../api/database/index';
import { ApiError } from '../../api/errors';
import { DOT_COMMANDS, type DotCommand } from '../../sql-repl/dot-commands';
import { DUMP_OBJECTS_QUERY, dumpLines, dumpObjectsFromRows, HAS_SEQUENCE_QUERY, selectAllQuery, SEQUENCE_QUERY } from '../../sql-repl/schema-sql';
import { describeExisting, existingAt, replaceQuestion } from '../../config/user-file';
import { errorMessage } from '../domain-stores';
import type { SqlContext } from './context';
import type { OutputFile } from './output-file';
import { failureText, type StatementRunner } from './statements';

const KEY_HELP = [
  'keys: enter runs a complete statement, else starts a new line',
  '      tab completes · up/down and ctrl-r: history (up after an error: the failed statement)',
  '      ctrl-c cancels the running statement or clears the input; it never leaves',
  '      ctrl-d on an empty input (or .quit) leaves · ctrl-x ctrl-e: the input in $EDITOR',
  '      esc: to the results: j/k pgup/pgdn g/G move the selected row, d shows it,',
  '      x expanded (that result), w wide, h/l sideways, [ ] others',
  '      i back to the input · esc again leaves · q quits',
];

/** The dot-command interpreter: settings of the shell, `.output` and `.read` files, and the database's own listings. */
export function createDotRunner(ctx: SqlContext, output: OutputFile, statements: StatementRunner): (cmd: DotCommand) => Promise<void> {
  const { get, set, message, push } = ctx;

  /** Handles the commands that need no database; false = not one of them. */
  const local = async (cmd: DotCommand): Promise<boolean> => {
    const s = get();
    switch (cmd.name) {
      case 'help':
        push({ kind: 'text', lines: [...DOT_COMMANDS.map((c) => `${c.usage.padEnd(18)} ${c.summary}`), ...KEY_HELP] });
        return true;
      case 'mode':
        if (cmd.mode === null) message('info', `mode ${s.mode} (use .mode table|box|csv|json|line|markdown)`);
        else {
          set({ mode: cmd.mode });
          message('info', `mode ${cmd.mode}`);
        }
        return true;
      case 'timer':
        if (cmd.on === null) message('info', `timer ${s.timer ? 'on' : 'off'}`);
        else {
          set({ timer: cmd.on });
          message('info', `timer ${cmd.on ? 'on' : 'off'}`);
        }
        return true;
      case 'quit':
        get().leave(ctx.options.standalone ? 'quit' : 'back');
        return true;
      case 'expanded':
        get().setExpanded(cmd.on);
        return true;
      case 'edit':
        get().editExternally('last');
        return true;
      case 'output': {
        output.close();
        if (cmd.file === null) {
          const was = s.outputFile;
          set({ outputFile: null });
          message('info', was ? `results go to the screen again (${was} is closed)` : 'results go to the screen');
          return true;
        }
        const target = path.resolve(ctx.cwd, cmd.file);
        let replace = false;
        try {
          const existing = existingAt(target);
          if (existing?.kind === 'other') throw new Error(`${cmd.file} ${describeExisting(existing)}, not a file`);
          if (existing) {
            // ask, naming a link as a link: replacing it replaces the link, never what it points to
            const q = replaceQuestion(cmd.file, existing);
            if (!(await ctx.confirm(q.title, q.detail, 'replace'))) {
              set({ outputFile: null });
              message('info', `${cmd.file} is left as it is; results go to the screen`);
              return true;
            }
            replace = true;
          }
          output.start(ctx.cwd, cmd.file, replace);
          set({ outputFile: cmd.file });
          message('info', `results go to ${cmd.file} (in mode ${s.mode}) until .output alone`);
        } catch (error) {
          set({ outputFile: null });
          message('error', `cannot write ${cmd.file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
        }
        return true;
      }
      case 'read': {
        let content: string;
        try {
          content = fs.readFileSync(path.resolve(ctx.cwd, cmd.file), 'utf8');
        } catch (error) {
          message('error', `cannot read ${cmd.file}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
          return true;
        }
        const all = splitStatements(content);
        const complete = all.filter((st) => st.complete);
        const cut = all.find((st) => !st.complete);
        if (cut) message('warn', `${cmd.file} ends inside a statement (line ${cut.line}, no closing ;): that one is not run`);
        message('info', `.read ${cmd.file}: ${complete.length} statement${complete.length === 1 ? '' : 's'}`);
        await statements.run(content, complete, cmd.file);
        return true;
      }
      default:
        return false;
    }
  };

  /** The commands that ask the database. */
  const remote = async (cmd: DotCommand, signal: AbortSignal): Promise<void> => {
    const catalog = ctx.catalog!;
    switch (cmd.name) {
      case 'tables': {
        const words = await catalog.tables(cmd.pattern, signal);
        push({ kind: 'words', words, empty: cmd.pattern ? `no table or view matches ${cmd.pattern}` : 'no tables' });
        return;
      }
      case 'indexes': {
        if (ctx.store) {
          message('info', "ClickHouse has no indexes to list: a table's sorting key (ORDER BY) and primary key are in .schema and .describe");
          return;
        }
        const words = await catalog.indexes(cmd.pattern, signal);
        push({ kind: 'words', words, empty: cmd.pattern ? `no index on a table matching ${cmd.pattern}` : 'no indexes' });
        return;
      }
      case 'schema': {
        const texts = await catalog.schemaText(cmd.pattern, signal);
        if (texts.length === 0) message('info', cmd.pattern ? `nothing matches ${cmd.pattern}` : 'the database is empty');
        else push({ kind: 'text', lines: texts.flatMap((text) => `${text};`.split('\n')) });
        return;
      }
      case 'describe': {
        const r = await catalog.describe(cmd.table, signal);
        if (r.rows.length === 0) message('error', `no table or view named ${cmd.table} (.tables lists them)`);
        else
          push({
            kind: 'result',
            result: r,
            mode: get().mode === 'box' ? 'box' : 'table',
            summary: `${cmd.table}: ${r.rows.length} column${r.rows.length === 1 ? '' : 's'}`,
          });
        return;
      }
      case 'dump': {
        if (ctx.store) {
          message(
            'error',
            '.dump writes a database out as SQL: not for the log store. Export rows with .mode csv and .output FILE, then SELECT ... FROM the table',
          );
          return;
        }
        if (!ctx.db) {
          message(
            'error',
            '.dump writes a database out as SQL: not for the logs table. Export rows with .mode csv and .output FILE, then SELECT ... FROM logs',
          );
          return;
        }
        const db = ctx.db;
        const query = (sql: string, args: (string | null)[] = []) => db.execute(sql, args, { signal });
        const objects = dumpObjectsFromRows((await query(DUMP_OBJECTS_QUERY, [cmd.pattern])).rows);
        if (objects.length === 0 && cmd.pattern) {
          message('error', `no table matches ${cmd.pattern}`);
          return;
        }
        const hasSeq = Number((await query(HAS_SEQUENCE_QUERY)).rows[0]?.[0] ?? 0) > 0;
        const sequence = hasSeq ? (await query(SEQUENCE_QUERY, [cmd.pattern])).rows : [];
        const lines: string[] = [];
        for await (const line of dumpLines(objects, async (t) => (await query(selectAllQuery(t))).rows, sequence)) lines.push(line);
        if (output.open && get().outputFile) {
          output.write(lines);
          message('ok', `dump written to ${get().outputFile} (${lines.length} lines)`);
        } else push({ kind: 'text', lines });
        return;
      }
      default:
        return;
    }
  };

  return async (cmd) => {
    if (await local(cmd)) return;
    if (!ctx.catalog) return;
    const abort = new AbortController();
    ctx.abort = abort;
    set({ running: { since: ctx.deps.now(), what: `.${cmd.name}` } });
    try {
      await remote(cmd, abort.signal);
    } catch (error) {
      if (error instanceof ApiError) message(error.kind === 'aborted' ? 'warn' : 'error', error.kind === 'aborted' ? 'cancelled' : failureText(error, ''));
      else if (ctx.logs) message('error', `error: ${errorMessage(error).split('\n')[0]}`);
      else if (ctx.store) message(abort.signal.aborted ? 'warn' : 'error', errorMessage(error));
      else throw error;
    } finally {
      ctx.abort = null;
      set({ running: null });
    }
  };
}
