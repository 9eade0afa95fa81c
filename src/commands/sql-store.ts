import { splitStatements } from '../api/database/index';
import type { SqlValue } from '../api/database/values';
import { StoreSql, StoreSqlError } from '../log-ship/store-sql';
import { readOnlyWords } from '../sql-repl/read-only';
import { terminalSafeLines } from '../text/terminal-safe';
import { ResultPrinter, type SqlOutputFormat } from './sql-output';
import { parseStoreUrl, StoreUrlError, type StoreUrl } from '../config/store-url';
import { type CommandContext, UsageError } from './types';

/** The log store of the flags and settings: --store-url, else BURROW_LOG_STORE or logStore: (as `burrow logs --store` reads it). */
function storeFromFlags(ctx: CommandContext): StoreUrl {
  const text = (typeof ctx.values['store-url'] === 'string' ? ctx.values['store-url'] : null) ?? ctx.settings.logStore;
  if (!text)
    throw new UsageError('--store: no log store: pass --store-url clickhouse://SERVER:8123/DATABASE, or set BURROW_LOG_STORE or logStore: in the profile');
  try {
    return parseStoreUrl(text);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `burrow sql --store -e SQL`: statements on the log store (ClickHouse), one request each, stopping
 * at the first error. csv, json and ndjson are written as the rows arrive (any size, with the
 * writer's backpressure); table waits for a statement's rows to align them.
 */
export async function runStoreSql(ctx: CommandContext, sources: { sql: string; origin: string }[]): Promise<number> {
  const { io } = ctx;
  const store = storeFromFlags(ctx);
  const statements = sources.flatMap(({ sql, origin }) => splitStatements(sql).map((st) => ({ ...st, origin })));
  if (statements.length === 0) {
    io.stderr.write('burrow: no SQL statement to run\n');
    return 0;
  }
  const format = (ctx.settings.output ?? 'table') as SqlOutputFormat;
  const printer = new ResultPrinter(io.stdout, format, Boolean(io.stdout.isTTY) && format === 'table');
  const readOnly = ctx.settings.readOnly ? readOnlyWords(ctx.settings.readOnlySource) : null;
  const session = new StoreSql({ store, password: ctx.settings.logStorePassword, readOnly });
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  let i = 0;
  try {
    for (; i < statements.length; i++) {
      const s = statements[i]!;
      const started = Date.now();
      if (format === 'table') {
        const r = await session.all(s.text, abort.signal);
        if (r.columns.length)
          await printer.result({
            columns: r.columns,
            decltypes: r.types,
            rows: r.rows,
            rowsAffected: 0,
            lastInsertRowid: null,
            durationMs: Date.now() - started,
          });
        continue;
      }
      let open = false;
      try {
        await session.stream(s.text, {
          signal: abort.signal,
          onHead: async (columns) => {
            await printer.beginRows(columns);
            open = true;
          },
          onRows: async (rows: SqlValue[][]) => {
            await printer.rows(rows);
          },
        });
      } finally {
        if (open) await printer.endRows();
      }
    }
    await printer.end();
    return 0;
  } catch (error) {
    await printer.end().catch(() => undefined);
    const e = error instanceof StoreSqlError ? error : session.explain(error);
    const s = statements[i];
    const place = s ? `statement ${i + 1} (${s.origin ? `${s.origin} ` : ''}line ${s.line}): ` : '';
    io.stderr.write(`burrow: ${terminalSafeLines(`${place}${e.message}`)}\n`);
    if (i + 1 < statements.length && e.kind !== 'cancelled') io.stderr.write(`burrow: the ${statements.length - i - 1} statement(s) after it did not run\n`);
    return e.kind === 'cancelled' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    await session.close();
  }
}
