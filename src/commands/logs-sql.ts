import { connectNonInteractive } from '../runtime/connect';
import { fetchV2 } from './logs-fetch';
import { planFromArgs } from './logs-plan';
import { ResultPrinter, type SqlOutputFormat } from './sql-output';
import { type CommandContext, UsageError } from './types';
import { LogsSqlEngine, LogsSqlRefusal, nativeBusy, stopLogsEngines } from '../logs-sql/engine';
import { exitBySignal } from '../runtime/hard-exit';
import { terminalSafe } from '../text/terminal-safe';

/** Everything in the window, unless --limit says otherwise. */
const SQL_DEFAULT_LIMIT = 1_000_000;
/** How long the engine gets to stop after a signal before the process dies by it (2 s promised). */
const STOP_MS = 1500;

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
  // ctrl-c, SIGTERM or a hang-up stop the fetch and the engine's running statement, then exit
  // 130/143/129; should the engine not stop in time, the process dies by the signal itself
  let stoppedBy: number | null = null;
  const onSignal = (code: number) => () => {
    if (stoppedBy !== null) {
      if (nativeBusy()) exitBySignal(stoppedBy);
      return;
    }
    stoppedBy = code;
    abort.abort();
    void stopLogsEngines(STOP_MS).then((idle) => {
      if (!idle) exitBySignal(code);
    });
  };
  const handlers = [
    ['SIGINT', onSignal(130)],
    ['SIGTERM', onSignal(143)],
    ['SIGHUP', onSignal(129)],
  ] as const;
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    for (const plan of plans) {
      const records = await fetchV2({ ...plan, limit }, session.api.logs, abort.signal, ctx.io);
      if (stoppedBy !== null) return stoppedBy;
      await engine.load(records);
    }
    if (stoppedBy !== null) return stoppedBy;
    let results;
    try {
      results = await engine.run(sql);
    } catch (error) {
      if (stoppedBy !== null) return stoppedBy;
      const message = error instanceof LogsSqlRefusal ? error.message : (error as Error).message.split('\n')[0];
      ctx.io.stderr.write(`burrow: ${terminalSafe(message)}\n`);
      return 1;
    }
    if (stoppedBy !== null) return stoppedBy;
    const printer = new ResultPrinter(ctx.io.stdout, format, Boolean(ctx.io.stdout.isTTY) && format === 'table');
    for (const result of results) await printer.result(result);
    await printer.end();
    return 0;
  } catch (error) {
    if (stoppedBy !== null) return stoppedBy;
    throw error;
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    engine.close();
    await session.close();
  }
}
