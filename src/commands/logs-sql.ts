import { connectNonInteractive } from '../runtime/connect';
import { fetchV2, planFromArgs } from './logs';
import { ResultPrinter, type SqlOutputFormat } from './sql-output';
import type { CommandContext } from './types';
import { UsageError } from './types';
import { LogsSqlEngine, LogsSqlRefusal } from '../logs-sql/engine';
import { terminalSafe } from '../text/terminal-safe';

/** Everything in the window, unless --limit says otherwise. */
const SQL_DEFAULT_LIMIT = 1_000_000;

/**
 * `burrow logs ZONE [ZONE...] --since 1h --sql "..."`: fetches the window of each zone (each
 * zone with its own request budget), loads the records into the local `logs` table and prints
 * the query's result.
 */
export async function runLogsSql(ctx: CommandContext): Promise<number> {
  const sql = String(ctx.values.sql ?? '').trim();
  if (sql === '') throw new UsageError('--sql needs a query, e.g. --sql "SELECT status, count(*) FROM logs GROUP BY 1"');
  if (ctx.values.follow) throw new UsageError('--sql queries a window of records: use --since or --from/--to, not --follow');
  if (ctx.values.v1) throw new UsageError('--sql reads the v2 logs API: use --since or --from/--to instead of --v1');
  const zones = [...new Set(ctx.args)];
  if (zones.length === 0) throw new UsageError('burrow logs needs PULLZONE (the numeric pull zone id); see burrow logs --help');
  // every zone is checked as the one-zone form checks it; the window and filters are shared
  const plans = zones.map((zone) => planFromArgs({ ...ctx, args: [zone] }, Date.now()));
  const limit = ctx.values.limit === undefined ? SQL_DEFAULT_LIMIT : plans[0]!.limit;
  const format = (ctx.settings.output ?? 'table') as SqlOutputFormat;
  if (!['table', 'csv', 'json', 'ndjson'].includes(format)) throw new UsageError(`-o ${format} does not go with --sql: use table, csv, json or ndjson`);

  // the engine first: if it cannot open, no connection (nor emulator child) is left behind
  const engine = await LogsSqlEngine.open();
  let session: Awaited<ReturnType<typeof connectNonInteractive>>;
  try {
    session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  } catch (error) {
    engine.close();
    throw error;
  }
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    for (const plan of plans) {
      const records = await fetchV2({ ...plan, limit }, session.api.logs, abort.signal, ctx.io);
      await engine.load(records);
    }
    if (abort.signal.aborted) return 130;
    let results;
    try {
      results = await engine.run(sql);
    } catch (error) {
      const message = error instanceof LogsSqlRefusal ? error.message : (error as Error).message.split('\n')[0];
      ctx.io.stderr.write(`burrow: ${terminalSafe(message)}\n`);
      return 1;
    }
    const printer = new ResultPrinter(ctx.io.stdout, format, Boolean(ctx.io.stdout.isTTY) && format === 'table');
    for (const result of results) await printer.result(result);
    await printer.end();
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    engine.close();
    await session.close();
  }
}
