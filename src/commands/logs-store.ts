import { parseTimestamp } from '../api/logs/entry';
import { terminalSafe } from '../text/terminal-safe';
import { readStoredWindow } from '../log-ship/store-read';
import { LogStore, StoreError } from '../log-ship/store';
import { parseStoreUrl, StoreUrlError } from '../log-ship/store-url';
import { ALERT_EXIT_CODE, alertOptions, drained, reportReplay } from './logs-alerts';
import { planFromArgs } from './logs-plan';
import { RecordWriter, type Format } from './logs-text';
import { type CommandContext, UsageError } from './types';

const PLATFORM_ONLY = ['follow', 'v1', 'date', 'status', 'cache-status', 'country', 'edge', 'ip', 'url', 'ua', 'referer', 'search'] as const;

/** `burrow logs ZONE... --store`: the window read from the log store, printed as the platform's would be. */
export async function runLogsFromStore(ctx: CommandContext): Promise<number> {
  for (const flag of PLATFORM_ONLY) {
    if (ctx.values[flag] !== undefined) throw new UsageError(`--${flag} does not go with --store yet (the store is read by window, zones and --limit)`);
  }
  const now = Date.now();
  const plan = planFromArgs(ctx, now, true);
  const alerts = alertOptions(ctx.values);
  const text = (typeof ctx.values['store-url'] === 'string' ? ctx.values['store-url'] : null) ?? ctx.settings.logStore;
  if (!text) throw new UsageError('--store: no log store: pass --store-url clickhouse://host:8123/db, or set BURROW_LOG_STORE or logStore: in the profile');
  let url;
  try {
    url = parseStoreUrl(text);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(error.message);
    throw error;
  }
  const table = typeof ctx.values.table === 'string' ? ctx.values.table : 'cdn_logs';
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,100}$/.test(table)) throw new UsageError(`--table "${table}": letters, digits and _ only`);
  const store = new LogStore({ url, password: ctx.settings.logStorePassword ?? '', table, cluster: null });
  const from = plan.from ?? now - plan.sinceMs;
  const to = plan.to ?? now;
  try {
    const entries = await readStoredWindow(store, plan.zones, from, to, plan.limit);
    const writer = new RecordWriter(ctx.io, (ctx.settings.output ?? 'text') as Format, ctx.settings.showSecrets, plan.zones.length > 1);
    for (const e of entries) writer.write(e);
    writer.end();
    if (alerts) {
      const fired = reportReplay(
        alerts,
        entries,
        entries.map((e) => parseTimestamp(e.timestamp)),
        to,
        ctx.io,
      );
      if (fired && alerts.exitOnAlert) {
        await drained(ctx.io.stdout);
        return ALERT_EXIT_CODE;
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof StoreError) {
      ctx.io.stderr.write(`burrow: ${terminalSafe(error.message)}\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}
