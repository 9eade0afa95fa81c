import { normalizeFilter, parseTimestamp, type LogEntry } from '../api/logs/index';
import { terminalSafe } from '../text/terminal-safe';
import { readStoredWindow, type StoreSelection } from '../log-ship/store-read';
import { storedBucketCounts } from '../log-ship/store-histogram';
import { StoreFollower } from '../log-ship/store-follow';
import { LogStore, StoreError } from '../log-ship/store';
import { parseStoreUrl, StoreUrlError } from '../config/store-url';
import { BUCKET_STEPS, chooseStep } from '../log-records/timeline';
import { checkBucketCount } from '../log-records/timeline-histogram';
import { ALERT_EXIT_CODE, alertOptions, drained, reportReplay, watchFollow, type AlertOptions } from './logs-alerts';
import { exitCodeOf, interrupted, pipeClosed } from './logs-follow-run';
import { asUsage, planFromArgs, type Plan } from './logs-plan';
import { histogramOfCounts } from './logs-store-histogram';
import { RecordWriter, type Format } from './logs-text';
import { formatRecords } from './output';
import { AUTO_BUCKETS, HISTOGRAM_COLUMNS } from './logs-histogram-output';
import { type CommandContext, UsageError } from './types';

const PLATFORM_ONLY = ['v1', 'date'] as const;
/** --follow: how often the store is asked for new records. */
const FOLLOW_POLL_MS = 1000;
/** --follow on a zone no shipper keeps a checkpoint of: how late a record may be stored and still be shown. */
const FOLLOW_OVERLAP_MS = 5 * 60_000;

/** The store named by --store-url, BURROW_LOG_STORE or the profile's logStore:, and --table. */
export function storeOf(ctx: CommandContext): LogStore {
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
  return new LogStore({ url, password: ctx.settings.logStorePassword ?? '', table, cluster: null });
}

function storePlan(ctx: CommandContext, now: number): { plan: Plan; selection: StoreSelection } {
  for (const flag of PLATFORM_ONLY) {
    if (ctx.values[flag] !== undefined) throw new UsageError(`--${flag} reads the platform's day files: it does not go with --store`);
  }
  const plan = planFromArgs(ctx, now, true);
  let filter;
  try {
    filter = normalizeFilter(plan.filter);
  } catch (error) {
    asUsage(error);
  }
  const from = plan.from ?? now - plan.sinceMs;
  return { plan, selection: { zones: plan.zones, from, to: plan.follow ? null : (plan.to ?? now), filter } };
}

/** Runs a store read, a StoreError becoming one line on stderr and exit 1; the store closed after. */
async function withStore(ctx: CommandContext, run: (store: LogStore) => Promise<number>): Promise<number> {
  const store = storeOf(ctx);
  try {
    return await run(store);
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

/** `burrow logs ZONE... --store`: the window read from the log store, printed as the platform's would be. */
export async function runLogsFromStore(ctx: CommandContext): Promise<number> {
  const now = Date.now();
  const { plan, selection } = storePlan(ctx, now);
  const alerts = alertOptions(ctx.values);
  const format = (ctx.settings.output ?? 'text') as Format;
  const writer = new RecordWriter(ctx.io, format, ctx.settings.showSecrets, plan.zones.length > 1);
  if (plan.follow) return withStore(ctx, (store) => followStore(ctx, store, plan, selection, writer, alerts));
  return withStore(ctx, async (store) => {
    const entries = await readStoredWindow(store, selection, plan.limit);
    writer.prepare(entries);
    for (const e of entries) writer.write(e);
    writer.end();
    if (alerts) {
      const fired = reportReplay(
        alerts,
        entries,
        entries.map((e) => parseTimestamp(e.timestamp)),
        selection.to ?? now,
        ctx.io,
      );
      if (fired && alerts.exitOnAlert) {
        await drained(ctx.io.stdout);
        return ALERT_EXIT_CODE;
      }
    }
    return 0;
  });
}

/** `--follow --store`: the newest --limit records of the window, then every record as it is stored, until a signal or a closed pipe. */
async function followStore(
  ctx: CommandContext,
  store: LogStore,
  plan: Plan,
  selection: StoreSelection,
  writer: RecordWriter,
  alerts: AlertOptions | null,
): Promise<number> {
  const follower = new StoreFollower(store, { zones: plan.zones, filter: selection.filter, from: selection.from, overlapMs: FOLLOW_OVERLAP_MS });
  // the alert rules watch the records as a follow engine's: windows end where the store is complete
  const recordListeners = new Set<(entries: LogEntry[], times: number[]) => void>();
  const changeListeners = new Set<() => void>();
  const watch = alerts
    ? watchFollow(
        alerts,
        {
          settledBefore: () => follower.settledBefore(),
          onRecords: (f) => {
            recordListeners.add(f);
            return () => void recordListeners.delete(f);
          },
          subscribe: (f) => {
            changeListeners.add(f);
            return () => void changeListeners.delete(f);
          },
        },
        ctx.io,
      )
    : null;
  const abort = new AbortController();
  const signal = interrupted();
  const pipe = pipeClosed(ctx.io);
  const stop = Promise.race([signal.promise, pipe.promise, ...(watch ? [watch.fired] : [])]).then((why) => {
    abort.abort();
    return why;
  });
  const ended = async (why: 'SIGINT' | 'SIGTERM' | 'alert'): Promise<number> => {
    watch?.dispose();
    writer.end();
    if (why !== 'alert') return exitCodeOf(why);
    await drained(ctx.io.stdout);
    return ALERT_EXIT_CODE;
  };
  try {
    let first = true;
    for (;;) {
      const got = await Promise.race([follower.poll(abort.signal), stop]);
      if (got === 'closed') return 0;
      if (typeof got === 'string') return await ended(got);
      const printed = first && got.length > plan.limit ? got.slice(got.length - plan.limit) : got;
      first = false;
      for (const e of printed) writer.write(e);
      if (got.length) {
        const times = got.map((e) => parseTimestamp(e.timestamp));
        for (const f of recordListeners) f(got, times);
      }
      for (const f of changeListeners) f();
      const why = await Promise.race([new Promise<null>((r) => setTimeout(r, FOLLOW_POLL_MS, null)), stop]);
      if (why === 'closed') return 0;
      if (why !== null) return await ended(why);
    }
  } finally {
    watch?.dispose();
    signal.dispose();
    pipe.dispose();
  }
}

/** `burrow logs ZONE... --store --histogram`: counted by ClickHouse, printed as the platform's histogram. */
export async function runStoreHistogram(ctx: CommandContext, format: 'table' | 'csv' | 'json' | 'ndjson', bucket: number | null): Promise<number> {
  const now = Date.now();
  const { selection } = storePlan(ctx, now);
  const to = selection.to ?? now;
  const size = bucket ?? BUCKET_STEPS[chooseStep(selection.from, to - 1, AUTO_BUCKETS)]!;
  const tooMany = checkBucketCount(selection.from, to, size);
  if (tooMany) throw new UsageError(`--bucket ${typeof ctx.values.bucket === 'string' ? ctx.values.bucket : ''}: ${tooMany}`);
  return withStore(ctx, async (store) => {
    const counts = await storedBucketCounts(store, { ...selection, to }, size);
    const rows = histogramOfCounts(counts, selection.from, to, size);
    ctx.io.stdout.write(formatRecords({ format, records: rows, columns: HISTOGRAM_COLUMNS, showSecrets: true }));
    return 0;
  });
}
