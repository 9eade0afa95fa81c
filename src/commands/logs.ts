import { ApiError } from '../api/errors';
import { parseTimestamp } from '../api/logs/entry';
import { connectNonInteractive } from '../runtime/connect';
import { ALERT_EXIT_CODE, alertOptions, drained, reportReplay } from './logs-alerts';
import { fetchV1, fetchV2, type WindowRead } from './logs-fetch';
import { exitCodeOf, interrupted, pipeClosed, runFollow } from './logs-follow-run';
import { asUsage, DEFAULT_LIMIT, DEFAULT_SINCE, FILTER_FLAGS, MAX_LIMIT, planFromArgs } from './logs-plan';
import { RecordWriter, type Format } from './logs-text';
import { checkZones, fetchZonesWindow } from './logs-zones';
import { type Command, type CommandContext, UsageError } from './types';
import { followLogs } from '../log-engine/index';

export { fetchV2 } from './logs-fetch';
export { planFromArgs } from './logs-plan';
export { tableHeader, textLine } from './logs-text';

/** Several zones followed: how much longer the slowest zone may hold the merged output back. */
const MAX_ZONE_SKEW_MS = 10_000;

const USAGE = `burrow logs PULLZONE [PULLZONE...] [--follow] [--since 15m | --from T [--to T]] [filters] [--limit N] [-o text|ndjson|json|table|csv] [--alert RULE]... [--exit-on-alert]
burrow logs PULLZONE --v1 --date MM-dd-yy [filters] [--limit N] [-o text|ndjson|json|table|csv]

Prints the CDN request logs of a pull zone (numeric id), oldest first. Several zones (1058 1199,
or 1058,1199) are merged in time order without duplicates, each record with its pullZoneId (a
ZONE column in text, table and csv); every zone is checked first (an unknown zone, or one
without logging, stops the command naming it) and keeps its own request budget.

  -f, --follow         keep printing new records as they arrive, in timestamp order (records are
                       held back by the ingestion lag burrow observes; one later than that is
                       printed when it arrives). Ctrl-C stops (exit 130; SIGTERM 143).
                       Several zones: the merged output also waits for the zone polled least
                       recently (a quiet zone polls every 10 s); a zone in trouble (retrying,
                       rate limited) holds it back 10 s at most, and its older records are then
                       printed when they arrive. A zone that fails is reported on stderr; the
                       others go on.
  --since D            window start relative to now: 30s, 15m, 2h, 3d (default ${DEFAULT_SINCE}; logs are kept 3 days)
  --from T --to T      absolute window, at most 3 days; T as the logs screen's @ takes it: 14:05,
                       2026-11-24 14:05, an ISO time, -10m; without a zone in local time (--utc: UTC)
  --limit N            the newest N matching records (default ${DEFAULT_LIMIT}; with --v1, every record); with
                       --follow, how many past records to print before following (per zone)
  --v1 --date MM-dd-yy read the legacy pipe-delimited file of one UTC day instead, as a stream:
                       without --limit every matching record is printed as it is read (oldest
                       first, the same memory whatever the day's size); with --limit N the newest N

Filters (sent to the server; with --v1 applied locally, except --status):
  --status 5xx,404     status codes and classes, ORed
  --cache-status HIT,MISS   HIT MISS BYPASS REVALIDATED STALE UPDATING EXPIRED -
  --country DE,FR      ISO country codes
  --edge WA            edge location
  --ip ADDRESS         client IP
  --url S  --ua S  --referer S   case-insensitive substrings (URL = host + path)
  --search "a b"       any token in cache status, request id, edge, host, path, user agent,
                       referer or content range (at most 16 tokens of 128 characters)

Output (-o): text (default, one aligned line per record), ndjson, json, table (a header line
and columns as wide as their widest value; with --follow fixed widths, URLs cut at 60 with …),
csv (every field, as the console's export).

Alerts (lines on stderr; records still go to stdout):
  --alert RULE         a filter and a threshold over a window, repeatable, for example
                       --alert "status=5xx rate>2/s over 60s"
                       --alert "cache=MISS and country=DE count>500 over 5m"
                       --alert "path~^/api rate>=10/s over 30s"
                       with --follow: a line when a rule fires and when it clears; without it the
                       rules are replayed over all of the window's records (up to 1,000,000, or
                       --limit when given; stdout still gets the newest --limit) and each firing
                       is reported
  --exit-on-alert      exit with status 3 when a rule fires (with --follow: at the first firing,
                       after the records so far are written; without: after the output)

SQL over the window (a local engine; the table is logs, see the README for its columns):
  burrow logs PULLZONE [PULLZONE...] --since 1h --sql "SELECT status, count(*) FROM logs GROUP BY 1"
  --sql SQL            load the window's records (all of them, up to --limit, default ${MAX_LIMIT.toLocaleString('en-US')})
                       and print the query's result (-o table|csv|json|ndjson, default table)
Counts per time bucket and status class (every bucket of the window, empty ones too):
  burrow logs PULLZONE [PULLZONE...] --since 1h --histogram [--bucket 1m] [-o table|csv|json|ndjson]
  --histogram          print bucket start (ISO, UTC), total, 2xx, 3xx, 4xx, 5xx; also with --from/--to
  --bucket D           bucket size: 1s, 10s, 1m, 5m, 1h... (default: the finest of 1s 5s 10s 30s 1m
                       5m 15m 1h giving at most 100 buckets)
History from the log store (what burrow ship keeps in ClickHouse), with no 3-day limit:
  burrow logs PULLZONE [PULLZONE...] --store [--since 7d | --from T --to T] [filters] [--limit N] [-o ...] [--alert RULE]
  burrow logs PULLZONE [PULLZONE...] --store --since 7d --histogram [--bucket 1h]
  burrow logs PULLZONE [PULLZONE...] --store --follow [filters] [--alert RULE]
  --store              read the window from the store (--store-url, BURROW_LOG_STORE or logStore:
                       in the profile; --table, default cdn_logs) instead of the platform; the
                       filters match as the platform's do; --histogram is counted by ClickHouse;
                       --follow prints records as they are stored (late ones too, each once)
All requests of a zone share one budget of 28 per 10 s (the platform allows 30).`;

export const logsCommand: Command = {
  name: 'logs',
  summary: 'follow or fetch CDN logs of a pull zone',
  usage: USAGE,
  options: {
    follow: { type: 'boolean', short: 'f' },
    since: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    ...Object.fromEntries(FILTER_FLAGS.map(({ flag }) => [flag, { type: 'string' } as const])),
    search: { type: 'string' },
    limit: { type: 'string' },
    v1: { type: 'boolean' },
    date: { type: 'string' },
    sql: { type: 'string' },
    alert: { type: 'string', multiple: true },
    'exit-on-alert': { type: 'boolean' },
    histogram: { type: 'boolean' },
    bucket: { type: 'string' },
    store: { type: 'boolean' },
    'store-url': { type: 'string' },
    table: { type: 'string' },
  },
  outputs: ['ndjson', 'json', 'text', 'table', 'csv'],
  async run(ctx: CommandContext) {
    if (ctx.values.histogram) {
      if (ctx.values.alert !== undefined) throw new UsageError('--alert watches the records printed; it does not go with --histogram');
      return (await import('./logs-histogram')).runLogsHistogram(ctx);
    }
    if (ctx.values.bucket !== undefined) throw new UsageError('--bucket goes with --histogram (burrow logs PULLZONE --since 1h --histogram --bucket 1m)');
    if (ctx.values.sql !== undefined && ctx.values.alert !== undefined) throw new UsageError('--alert watches the records printed; it does not go with --sql');
    if (ctx.values.sql !== undefined && ctx.values.store)
      throw new UsageError(
        '--sql loads records into DuckDB; the store is ClickHouse already: query it there (clickhouse-client, or :sql store in the console)',
      );
    if (ctx.values.sql !== undefined) return (await import('./logs-sql')).runLogsSql(ctx);
    if (ctx.values.store) return (await import('./logs-store')).runLogsFromStore(ctx);
    const plan = planFromArgs(ctx, Date.now());
    const alerts = alertOptions(ctx.values);
    if (alerts && plan.v1Date !== null) throw new UsageError('--alert works on the v2 logs (--follow or --since/--from), not on a --v1 day file');
    const format = (ctx.settings.output ?? 'text') as Format;
    // a colour per zone (as stern gives each pod one) on a terminal, unless NO_COLOR / --no-color
    const colourZones = format === 'text' && plan.zones.length > 1 && ctx.settings.color && ctx.io.stdout.isTTY ? plan.zones : null;
    const writer = new RecordWriter(ctx.io, format, ctx.settings.showSecrets, plan.zones.length > 1, colourZones);
    const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
    const logs = session.api.logs;
    try {
      if (plan.follow) {
        // several zones: every one must be readable before anything is printed
        if (plan.zones.length > 1) await checkZones(logs, plan.zones, AbortSignal.timeout(60_000));
        return await runFollow(
          plan,
          () =>
            followLogs(logs, {
              zones: plan.zones,
              filter: plan.filter,
              ...(plan.zones.length > 1 ? { maxSkewMs: MAX_ZONE_SKEW_MS } : {}),
              ...(plan.from !== null ? { from: plan.from } : { sinceMs: plan.sinceMs }),
              maxBackfill: plan.limit,
              capacity: Math.max(ctx.settings.logBufferSize, 1000),
            }),
          writer,
          ctx.io,
          alerts,
        );
      }
      const abort = new AbortController();
      const signal = interrupted();
      const pipe = pipeClosed(ctx.io);
      const stop = Promise.race([signal.promise, pipe.promise]).then((why) => {
        abort.abort();
        return why;
      });
      try {
        // a replay reads the whole window (as --sql and --histogram do) unless --limit says
        // otherwise; what is printed is still the newest --limit (default) records
        const readPlan = alerts && ctx.values.limit === undefined ? { ...plan, limit: MAX_LIMIT } : plan;
        const read: WindowRead = { partial: false };
        const work =
          plan.v1Date !== null
            ? fetchV1(plan, logs, abort.signal, ctx.io, { writer, limited: ctx.values.limit !== undefined })
            : plan.zones.length > 1
              ? fetchZonesWindow(readPlan, logs, abort.signal, ctx.io, read)
              : fetchV2(readPlan, logs, abort.signal, ctx.io, read);
        const result = await Promise.race([work, stop]);
        if (result === 'closed') return 0;
        if (result === 'SIGINT' || result === 'SIGTERM') return exitCodeOf(result);
        const printed = result.length > plan.limit ? result.slice(result.length - plan.limit) : result;
        if (printed.length < result.length) {
          ctx.io.stderr.write(
            `burrow: printing the newest ${plan.limit} of the ${result.length} matching records (raise --limit for more); the alert rules replay all ${result.length}\n`,
          );
        }
        writer.prepare(printed);
        for (const e of printed) writer.write(e);
        writer.end();
        if (alerts) {
          const end = plan.to ?? logs.now();
          const fired = reportReplay(
            alerts,
            result,
            result.map((e) => parseTimestamp(e.timestamp)),
            end,
            ctx.io,
            read.partial,
          );
          if (fired && alerts.exitOnAlert) {
            await drained(ctx.io.stdout);
            return ALERT_EXIT_CODE;
          }
        }
        return 0;
      } finally {
        signal.dispose();
        pipe.dispose();
      }
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'invalid-input') asUsage(error);
      throw error;
    } finally {
      await session.close();
    }
  },
};
