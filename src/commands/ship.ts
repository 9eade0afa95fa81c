import { LogsApi } from '../api/logs/index';
import { RETENTION_MS } from '../api/logs/query';
import { ShipMetrics } from '../log-ship/metrics';
import { runShipper } from '../log-ship/shipper';
import { LogStore } from '../log-ship/store';
import { parseStoreUrl, showStoreUrl, StoreUrlError } from '../config/store-url';
import { connectNonInteractive } from '../runtime/connect';
import { displayZone } from '../text/time-format';
import { parseTimeInput } from '../text/time-parse';
import { parseSince } from './logs-plan';
import { parseZoneArgs } from './logs-zones';
import { type Command, type CommandContext, UsageError } from './types';

const USAGE = `burrow ship ZONE... | --all [--since 1h | --from T --to T] [--store-url clickhouse://user@host:8123/db]
            [--table cdn_logs] [--cluster NAME] [--budget 20] [--metrics HOST:PORT] [--log-format logfmt|json]

Ships the CDN logs of pull zones into ClickHouse, every record exactly once, across restarts,
kill -9, platform errors and ClickHouse outages. Each zone's progress (its checkpoint) is kept in
ClickHouse itself (table <table>_ship), so a zone shipped before continues where it stopped.

Follow (default): a zone never shipped starts --since back (default 1h, at most 3d), then follows;
a zone shipped before continues from its checkpoint (within the platform's 3 days), late records
included. SIGTERM or Ctrl-C: the insert in flight is finished, the checkpoints saved, exit 0.
Bounded: --from T --to T ships that window and exits 0 once every record of it is stored; run
again after a crash, it completes the window without repeating anything.

  --store-url URL    clickhouse://[user@]host[:port][/database] (HTTP interface; default port 8123,
                     database default). Else BURROW_LOG_STORE, else logStore: in the profile. The
                     password: BURROW_LOG_STORE_PASSWORD or logStorePassword: in the profile, never
                     on the command line.
  --table NAME       the records' table (default cdn_logs), created on first use: partitioned by
                     day, ordered by (pullZoneId, timestamp, requestId)
  --cluster NAME     a local table <table>_local on every node of the cluster (each reached on the
                     store URL's HTTP port) and <table> as a Distributed table sharded by pullZoneId
  --all              every pull zone with logging turned on
  --since D          where a zone never shipped starts (30m, 2h, 3d; default 1h)
  --from T --to T    a window to ship (times as burrow logs takes them), then exit
  --budget N         logging API requests per zone per 10 s (default 20 of the platform's 30, so a
                     console following the same zone keeps working)
  --settle D         how late the platform may show a record (default 5m): checkpoints trail the
                     live end by this, and that much is checked again on restart
  --metrics H:P      serve Prometheus metrics on http://H:P/metrics
  --log-format F     event lines on stderr: logfmt (default) or json

Exit: 0 done or stopped, 1 a zone failed or the store is unusable, 2 bad usage, 3 another shipper
holds a zone (it is named: host and pid).`;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function hostPort(text: string): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 0 && port <= 65535)) throw new UsageError(`--metrics "${text}": use HOST:PORT, for example 127.0.0.1:9464`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1', port };
}

async function run(ctx: CommandContext): Promise<number> {
  const v = ctx.values;
  const all = Boolean(v.all);
  if (all && ctx.args.length) throw new UsageError('give zones or --all, not both');
  if (!all && ctx.args.length === 0) throw new UsageError('burrow ship needs ZONE... (numeric pull zone ids) or --all; see burrow ship --help');
  let zones = all ? [] : parseZoneArgs(ctx.args);

  const storeText = str(v['store-url']) ?? ctx.settings.logStore;
  if (!storeText) throw new UsageError('no log store: pass --store-url clickhouse://host:8123/db, or set BURROW_LOG_STORE or logStore: in the profile');
  let url;
  try {
    url = parseStoreUrl(storeText);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(error.message);
    throw error;
  }
  const table = str(v.table) ?? 'cdn_logs';
  const cluster = str(v.cluster) ?? null;
  for (const [flag, name] of [
    ['--table', table],
    ['--cluster', cluster],
  ] as const) {
    if (name !== null && !/^[A-Za-z_][A-Za-z0-9_]{0,100}$/.test(name)) throw new UsageError(`${flag} "${name}": letters, digits and _ only`);
  }
  const budgetText = str(v.budget) ?? '20';
  const budget = Number(budgetText);
  if (!/^\d+$/.test(budgetText) || budget < 1 || budget > 30)
    throw new UsageError(`--budget must be a whole number from 1 to 30 (the platform allows 30 per 10 s), got "${budgetText}"`);
  const logFormat = str(v['log-format']) ?? 'logfmt';
  if (logFormat !== 'logfmt' && logFormat !== 'json') throw new UsageError(`--log-format must be logfmt or json, got "${logFormat}"`);
  const settleMs = parseSince(str(v.settle) ?? '5m');
  const metricsAt = str(v.metrics) ? hostPort(str(v.metrics)!) : null;

  const now = Date.now();
  const fromText = str(v.from);
  const toText = str(v.to);
  if (str(v.since) && (fromText || toText)) throw new UsageError('use either --since or --from/--to, not both');
  if (Boolean(fromText) !== Boolean(toText)) throw new UsageError('--from and --to go together (a bounded window); without them burrow ship follows');
  let window: { from: number; to: number } | null = null;
  if (fromText && toText) {
    const time = (flag: string, text: string): number => {
      const t = parseTimeInput(text, now, displayZone());
      if (!t.ok) throw new UsageError(`${flag} ${t.message}`);
      return t.ms;
    };
    window = { from: time('--from', fromText), to: time('--to', toText) };
    if (window.to <= window.from) throw new UsageError('--from must be before --to');
    if (window.from < now - RETENTION_MS) throw new UsageError('--from is older than the 3-day log retention');
  }
  const sinceMs = parseSince(str(v.since) ?? '1h');

  const conn = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  const logs = new LogsApi(conn.api.logging, { budgetOptions: { limit: budget } });
  const store = new LogStore({ url, password: ctx.settings.logStorePassword ?? '', table, cluster });
  const metrics = metricsAt ? new ShipMetrics() : null;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // SIGTERM: out within 5 s whatever ClickHouse does (a checkpoint not saved only costs a check on restart)
  let hardStop: NodeJS.Timeout | null = null;
  stop.signal.addEventListener('abort', () => {
    hardStop = setTimeout(() => {
      ctx.io.stderr.write('burrow ship: ClickHouse did not answer within 4.5 s of the signal: exiting; the next run checks what was stored\n');
      process.exit(0);
    }, 4500);
    hardStop.unref();
  });
  try {
    if (all) {
      const list = await conn.api.pullZones.list();
      zones = list.filter((z) => z.EnableLogging).map((z) => z.Id);
      if (zones.length === 0) throw new UsageError('--all: no pull zone has logging turned on');
    }
    if (metrics && metricsAt) {
      const served = await metrics.serve(metricsAt.host, metricsAt.port);
      ctx.io.stderr.write(
        `${JSON.stringify({ metrics: `http://${metricsAt.host}:${served.port}/metrics` })}\n`.replace(/^\{"metrics":"(.*)"\}$/, 'metrics=$1'),
      );
    }
    const stderr = ctx.io.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
    ctx.io.stderr.write(`shipping ${zones.length} zone(s) into ${showStoreUrl(url)} table ${table}${cluster ? ` (cluster ${cluster})` : ''}\n`);
    return await runShipper(
      {
        zones,
        logs,
        store,
        window,
        sinceMs,
        settleMs,
        logFormat,
        debug: ctx.io.env.BURROW_SHIP_DEBUG === '1',
        write: (t) => ctx.io.stderr.write(t),
        statusLine: Boolean(stderr.isTTY),
        columns: () => stderr.columns ?? 100,
        metrics,
        depth: Number(ctx.io.env.BURROW_SHIP_DEPTH ?? 3) || 3,
        // smaller batches (and pages) for the tests that stop a run between inserts
        batchRecords: Number(ctx.io.env.BURROW_SHIP_BATCH ?? 10_000) || 10_000,
        pageRecords: Number(ctx.io.env.BURROW_SHIP_BATCH ?? 10_000) || 10_000,
        pollMs: Number(ctx.io.env.BURROW_SHIP_POLL_MS ?? 2000) || 2000,
      },
      stop.signal,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (hardStop) clearTimeout(hardStop);
    await store.close().catch(() => {});
    await conn.close();
  }
}

export const shipCommand: Command = {
  name: 'ship',
  summary: 'ship CDN logs of pull zones into ClickHouse, exactly once',
  usage: USAGE,
  options: {
    all: { type: 'boolean' },
    'store-url': { type: 'string' },
    table: { type: 'string' },
    cluster: { type: 'string' },
    since: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    budget: { type: 'string' },
    settle: { type: 'string' },
    metrics: { type: 'string' },
    'log-format': { type: 'string' },
  },
  run,
};
