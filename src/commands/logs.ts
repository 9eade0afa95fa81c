import { ApiError } from '../api/errors';
import {
  compileFilter, normalizeFilter, OrderedRelease, parseV1Date, RETENTION_MS, toEpochMs, v1Date,
  type FollowEngine, type LogEntry, type LogFilter,
} from '../api/logs/index';
import { maskSecret } from '../config/redact';
import { connectNonInteractive } from '../runtime/connect';
import type { Column } from './output';
import type { Command, CommandContext, Io } from './types';
import { UsageError } from './types';
import { jsonTerminalSafe, terminalSafe } from '../text/terminal-safe';
import { formatTime, isoWidth } from '../text/time-format';
import { parseTimestamp } from '../api/logs/entry';
import { ALERT_EXIT_CODE, alertOptions, drained, reportReplay, watchFollow, type AlertOptions } from './logs-alerts';
import { csvHeader, csvLine } from '../log-records/export';
import { checkZones, fetchZonesWindow, parseZoneArgs, zoneError } from './logs-zones';

const DEFAULT_SINCE = '15m';
const DEFAULT_LIMIT = 1000;
/** Several zones followed: how much longer the slowest zone may hold the merged output back. */
const MAX_ZONE_SKEW_MS = 10_000;
const MAX_LIMIT = 1_000_000;

const USAGE = `burrow logs PULLZONE [PULLZONE...] [--follow] [--since 15m | --from ISO [--to ISO]] [filters] [--limit N] [-o text|ndjson|json|table|csv] [--alert RULE]... [--exit-on-alert]
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
  --from ISO --to ISO  absolute window (UTC unless the time has an offset), at most 3 days
  --limit N            the newest N matching records (default ${DEFAULT_LIMIT}); with --follow, how many
                       past records to print before following (per zone)
  --v1 --date MM-dd-yy read the legacy pipe-delimited file of one UTC day instead

Filters (sent to the server; with --v1 applied locally, except --status):
  --status 5xx,404     status codes and classes, ORed
  --cache-status HIT,MISS   HIT MISS BYPASS REVALIDATED STALE UPDATING EXPIRED -
  --country DE,FR      ISO country codes
  --edge WA            edge location
  --ip ADDRESS         client IP
  --url S  --ua S  --referer S   case-insensitive substrings (URL = host + path)
  --search "a b"       any token in cache status, request id, edge, host, path, user agent,
                       referer or content range (at most 16 tokens of 128 characters)

Output (-o): text (default, one aligned line per record), ndjson, json, table (text with a
header line), csv (every field, as the console's export).

Alerts (lines on stderr; records still go to stdout):
  --alert RULE         a filter and a threshold over a window, repeatable, for example
                       --alert "status=5xx rate>2/s over 60s"
                       --alert "cache=MISS and country=DE count>500 over 5m"
                       --alert "path~^/api rate>=10/s over 30s"
                       with --follow: a line when a rule fires and when it clears; without it the
                       rules are replayed over the window's records and each firing is reported
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
All requests of a zone share one budget of 28 per 10 s (the platform allows 30).`;

/** "15m" -> ms; throws UsageError with what is allowed. */
export function parseSince(text: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'] : Number.NaN;
  if (!m || !(ms > 0) || ms > RETENTION_MS) throw new UsageError(`--since "${text}": use a duration like 30s, 15m, 2h or 3d (more than 0, at most 3d)`);
  return ms;
}

const FLAG_OF: Record<string, string> = {
  status: '--status', cacheStatus: '--cache-status', country: '--country', edgeLocation: '--edge', remoteIp: '--ip',
  search: '--search', from: '--from', to: '--to', limit: '--limit',
};

/** An 'invalid-input' ApiError becomes a usage message naming the flags. */
function asUsage(error: unknown): never {
  if (error instanceof ApiError && error.kind === 'invalid-input') {
    const parts = error.fieldErrors.length
      ? error.fieldErrors.map((f) => `${f.field ? `${FLAG_OF[f.field] ?? f.field} ` : ''}${f.message}`)
      : [error.message];
    throw new UsageError(parts.join('; '));
  }
  throw error;
}

// Text output: fixed widths so lines align while streaming.
const COLUMNS: (Column<LogEntry> & { width: number; right?: boolean })[] = [
  // in the display zone (local, or UTC with --utc); ndjson and json keep the ISO UTC timestamp
  { header: 'TIME', width: 24, value: (e) => displayTime(e.timestamp) },
  { header: 'ZONE', width: 7, value: (e) => e.pullZoneId },
  { header: 'STATUS', width: 3, value: (e) => e.statusCode },
  { header: 'CACHE', width: 11, value: (e) => e.cacheStatus ?? '' },
  { header: 'BYTES', width: 9, right: true, value: (e) => e.bytesSent },
  { header: 'CC', width: 2, value: (e) => e.countryCode ?? '--' },
  { header: 'EDGE', width: 4, value: (e) => e.edgeLocation ?? '-' },
  { header: 'IP', width: 15, value: (e) => e.remoteIp ?? '-' },
  { header: 'URL', width: 0, value: (e) => e.url ?? `${e.host ?? ''}${e.path ?? ''}` },
  { header: 'USER AGENT', width: 0, value: (e) => (e.userAgent === null ? '-' : `"${e.userAgent}"`) },
];

function displayTime(timestamp: string): string {
  const t = parseTimestamp(timestamp);
  return Number.isNaN(t) ? timestamp : formatTime(t, 'iso');
}

// Control characters from hostile user agents or URLs must not reach a terminal.
const visible = terminalSafe;

export function textLine(e: LogEntry, showZone: boolean): string {
  const cells: string[] = [];
  for (const c of COLUMNS) {
    if (c.header === 'ZONE' && !showZone) continue;
    const v = visible(String(c.value(e)));
    const width = c.header === 'TIME' ? isoWidth() : c.width;
    cells.push(width === 0 ? v : c.right ? v.padStart(width) : v.padEnd(width));
  }
  return cells.join(' ');
}

function masked(e: LogEntry, show: boolean): LogEntry {
  return show || e.authorizationHeader === null ? e : { ...e, authorizationHeader: maskSecret(e.authorizationHeader) };
}

/** The header line of `-o table`: the text columns' names at their widths. */
export function tableHeader(showZone: boolean): string {
  const cells: string[] = [];
  for (const c of COLUMNS) {
    if (c.header === 'ZONE' && !showZone) continue;
    cells.push(c.width === 0 ? c.header : c.right ? c.header.padStart(c.width) : c.header.padEnd(c.width));
  }
  return cells.join(' ');
}

type Format = 'text' | 'ndjson' | 'json' | 'table' | 'csv';

/** Writes records one by one in the chosen format (json: one array, closed by end()). */
class RecordWriter {
  private count = 0;
  constructor(private readonly io: Io, private readonly format: Format, private readonly showSecrets: boolean, private readonly showZone: boolean) {}
  write(e: LogEntry): void {
    const entry = masked(e, this.showSecrets);
    if (this.count === 0 && this.format === 'table') this.io.stdout.write(`${tableHeader(this.showZone)}\n`);
    if (this.count === 0 && this.format === 'csv') this.io.stdout.write(csvHeader());
    if (this.format === 'text' || this.format === 'table') this.io.stdout.write(`${textLine(entry, this.showZone)}\n`);
    else if (this.format === 'csv') this.io.stdout.write(csvLine(entry, true));
    else if (this.format === 'ndjson') this.io.stdout.write(`${jsonTerminalSafe(JSON.stringify(entry))}\n`);
    else this.io.stdout.write(`${this.count ? ',\n' : '[\n'}  ${jsonTerminalSafe(JSON.stringify(entry))}`);
    this.count++;
  }
  end(): void {
    if (this.format === 'json') this.io.stdout.write(this.count ? '\n]\n' : '[]\n');
  }
}

interface Plan {
  /** The first zone (the only one unless several were given). */
  zoneId: number;
  zones: number[];
  filter: LogFilter;
  follow: boolean;
  limit: number;
  from: number | null;
  to: number | null;
  sinceMs: number;
  v1Date: string | null;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function planFromArgs(ctx: CommandContext, now: number): Plan {
  const v = ctx.values;
  const zones = parseZoneArgs(ctx.args);
  const zoneId = zones[0]!;
  const follow = Boolean(v.follow);
  const isV1 = Boolean(v.v1);
  const limitText = str(v.limit);
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText.trim()) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}, got "${limitText}"`);
  }
  const filter: LogFilter = {
    status: str(v.status),
    cacheStatus: str(v['cache-status']),
    country: str(v.country),
    edgeLocation: str(v.edge),
    remoteIp: str(v.ip),
    urlContains: str(v.url),
    userAgentContains: str(v.ua),
    refererContains: str(v.referer),
    search: str(v.search),
  };
  try {
    normalizeFilter(filter);
  } catch (error) {
    asUsage(error);
  }
  const sinceText = str(v.since);
  const fromText = str(v.from);
  const toText = str(v.to);
  if (isV1) {
    if (follow) throw new UsageError('--v1 reads a finished day file: it cannot be combined with --follow');
    if (zones.length > 1) throw new UsageError('--v1 reads the day file of one zone: give one PULLZONE');
    if (sinceText || fromText || toText) throw new UsageError('--v1 reads a whole day: use --date MM-dd-yy instead of --since/--from/--to');
    const days = [2, 1, 0].map((d) => v1Date(now - d * 86_400_000)).join(', ');
    const date = str(v.date);
    if (!date) throw new UsageError(`--v1 needs --date MM-dd-yy (UTC day within the 3-day retention: ${days})`);
    if (Number.isNaN(parseV1Date(date))) throw new UsageError(`--date "${date}" is not a date in MM-dd-yy form (for example ${days.split(', ')[2]})`);
    return { zoneId, zones, filter, follow, limit, from: null, to: null, sinceMs: 0, v1Date: date };
  }
  if (str(v.date)) throw new UsageError('--date goes with --v1 (the legacy day files); for the v2 API use --since or --from/--to');
  if (sinceText && (fromText || toText)) throw new UsageError('use either --since or --from/--to, not both');
  if (toText && !fromText) throw new UsageError('--to needs --from');
  if (follow && toText) throw new UsageError('--follow keeps reading up to now: it cannot take --to');
  const time = (flag: string, text: string | undefined): number | null => {
    if (text === undefined) return null;
    const t = toEpochMs(text);
    if (Number.isNaN(t)) throw new UsageError(`${flag} "${text}" is not an ISO 8601 date-time (example 2026-08-08T14:32:11Z)`);
    return t;
  };
  const from = time('--from', fromText);
  const to = time('--to', toText);
  const sinceMs = parseSince(sinceText ?? DEFAULT_SINCE);
  const start = from ?? now - sinceMs;
  if (start < now - RETENTION_MS - 1000) throw new UsageError('--from is older than the 3-day log retention');
  if (to !== null && from !== null && to <= from) throw new UsageError('--from must be before --to');
  if (to !== null && from !== null && to - from > RETENTION_MS) throw new UsageError('the window --from .. --to is at most 3 days');
  return { zoneId, zones, filter, follow, limit, from, to, sinceMs, v1Date: null };
}

type Interrupt = 'SIGINT' | 'SIGTERM';

/** The shell's convention: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM, as the console). */
const exitCodeOf = (signal: Interrupt): number => (signal === 'SIGINT' ? 130 : 143);

/** Resolves on SIGINT/SIGTERM with the signal (and gives a way to stop listening). */
function interrupted(): { promise: Promise<Interrupt>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<Interrupt>((resolve) => {
    const onInt = () => resolve('SIGINT');
    const onTerm = () => resolve('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    dispose = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  });
  return { promise, dispose };
}

/** Resolves when stdout's reader went away (EPIPE). */
function pipeClosed(io: Io): { promise: Promise<'closed'>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<'closed'>((resolve) => {
    const on = (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') resolve('closed');
    };
    io.stdout.on('error', on);
    dispose = () => io.stdout.off('error', on);
  });
  return { promise, dispose };
}

async function runFollow(plan: Plan, engineOf: () => FollowEngine, writer: RecordWriter, io: Io, alerts: AlertOptions | null = null): Promise<number> {
  const engine = engineOf();
  const watch = alerts ? watchFollow(alerts, engine, io) : null;
  const release = new OrderedRelease((e) => writer.write(e));
  let failure: ApiError | null = null;
  // per zone: the warning shown (null: none) and whether its failure was reported
  const warned = new Map<number, string | null>();
  const reported = new Set<number>();
  const several = plan.zones.length > 1;
  engine.onRecords((entries, times) => release.add(entries, times));
  engine.subscribe(() => {
    release.release(engine.settledBefore());
    for (const z of engine.status().zones) {
      const who = several ? `pull zone ${z.zoneId}: ` : '';
      if (z.state === 'failed' && z.error) {
        failure ??= several ? zoneError(z.zoneId, z.error) : z.error;
        // the others go on: say so at once rather than at the end
        if (several && !reported.has(z.zoneId)) {
          reported.add(z.zoneId);
          io.stderr.write(`burrow: ${who}${terminalSafe(z.error.message)}; stopped following it, the other zones go on\n`);
        }
      }
      if ((z.state === 'retrying' || z.state === 'rate-limited') && z.error && (warned.get(z.zoneId) ?? null) === null) {
        warned.set(z.zoneId, z.error.message);
        io.stderr.write(`burrow: ${who}${terminalSafe(z.error.message)}; retrying\n`);
      } else if (z.state === 'following' && z.consecutiveErrors === 0 && (warned.get(z.zoneId) ?? null) !== null) {
        warned.set(z.zoneId, null);
        io.stderr.write(`burrow: ${who}recovered\n`);
      }
    }
  });
  const signal = interrupted();
  const pipe = pipeClosed(io);
  try {
    engine.start();
    const why = await Promise.race([engine.done.then(() => 'done' as const), signal.promise, pipe.promise, ...(watch ? [watch.fired] : [])]);
    watch?.dispose();
    await engine.stop();
    if (why === 'closed') return 0;
    release.flush();
    writer.end();
    if (why === 'alert') {
      await drained(io.stdout);
      return ALERT_EXIT_CODE;
    }
    if (why === 'SIGINT' || why === 'SIGTERM') return exitCodeOf(why);
    if (failure) throw failure;
    return 0;
  } finally {
    watch?.dispose();
    signal.dispose();
    pipe.dispose();
  }
}

export const logsCommand: Command = {
  name: 'logs',
  summary: 'follow or fetch CDN logs of a pull zone',
  usage: USAGE,
  options: {
    follow: { type: 'boolean', short: 'f' },
    since: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    status: { type: 'string' },
    'cache-status': { type: 'string' },
    country: { type: 'string' },
    edge: { type: 'string' },
    ip: { type: 'string' },
    url: { type: 'string' },
    ua: { type: 'string' },
    referer: { type: 'string' },
    search: { type: 'string' },
    limit: { type: 'string' },
    v1: { type: 'boolean' },
    date: { type: 'string' },
    sql: { type: 'string' },
    alert: { type: 'string', multiple: true },
    'exit-on-alert': { type: 'boolean' },
    histogram: { type: 'boolean' },
    bucket: { type: 'string' },
  },
  outputs: ['ndjson', 'json', 'text', 'table', 'csv'],
  async run(ctx: CommandContext) {
    if (ctx.values.histogram) {
      if (ctx.values.alert !== undefined) throw new UsageError('--alert watches the records printed; it does not go with --histogram');
      return (await import('./logs-histogram')).runLogsHistogram(ctx);
    }
    if (ctx.values.bucket !== undefined) throw new UsageError('--bucket goes with --histogram (burrow logs PULLZONE --since 1h --histogram --bucket 1m)');
    if (ctx.values.sql !== undefined && ctx.values.alert !== undefined) throw new UsageError('--alert watches the records printed; it does not go with --sql');
    if (ctx.values.sql !== undefined) return (await import('./logs-sql')).runLogsSql(ctx);
    const plan = planFromArgs(ctx, Date.now());
    const alerts = alertOptions(ctx.values);
    if (alerts && plan.v1Date !== null) throw new UsageError('--alert works on the v2 logs (--follow or --since/--from), not on a --v1 day file');
    const format = (ctx.settings.output ?? 'text') as Format;
    const writer = new RecordWriter(ctx.io, format, ctx.settings.showSecrets, plan.zones.length > 1);
    const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
    const logs = session.api.logs;
    try {
      if (plan.follow) {
        // several zones: every one must be readable before anything is printed
        if (plan.zones.length > 1) await checkZones(logs, plan.zones, AbortSignal.timeout(60_000));
        return await runFollow(
          plan,
          () =>
            logs.follow({
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
        const work =
          plan.v1Date !== null
            ? fetchV1(plan, logs, abort.signal, ctx.io)
            : plan.zones.length > 1
              ? fetchZonesWindow(plan, logs, abort.signal, ctx.io)
              : fetchV2(plan, logs, abort.signal, ctx.io);
        const result = await Promise.race([work, stop]);
        if (result === 'closed') return 0;
        if (result === 'SIGINT' || result === 'SIGTERM') return exitCodeOf(result);
        for (const e of result) writer.write(e);
        writer.end();
        if (alerts) {
          const end = plan.to ?? logs.now();
          const fired = reportReplay(alerts, result, result.map((e) => parseTimestamp(e.timestamp)), end, ctx.io);
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

type Logs = Awaited<ReturnType<typeof connectNonInteractive>>['api']['logs'];

export async function fetchV2(plan: Plan, logs: Logs, signal: AbortSignal, io: Io): Promise<LogEntry[]> {
  const now = logs.now();
  const from = plan.from ?? Math.max(now - plan.sinceMs, now - RETENTION_MS + 60_000);
  const result = await logs.fetchAll(
    plan.zoneId,
    { ...plan.filter, from, ...(plan.to !== null ? { to: plan.to } : {}), order: 'desc', limit: Math.min(10_000, plan.limit) },
    { signal, maxRecords: plan.limit },
  );
  if (result.hasMore) io.stderr.write(`burrow: showing the newest ${plan.limit} matching records; there are more (raise --limit or narrow the window)\n`);
  // Keep exactly [from, to), and read the pages (newest first) backwards so that records with
  // the same timestamp come out in the server's ascending order.
  const to = plan.to ?? Number.POSITIVE_INFINITY;
  const entries: LogEntry[] = [];
  const times: number[] = [];
  for (let i = result.entries.length - 1; i >= 0; i--) {
    const t = result.times[i]!;
    if (t < from || t >= to) continue;
    entries.push(result.entries[i]!);
    times.push(t);
  }
  return sortedUnique(entries, times);
}

async function fetchV1(plan: Plan, logs: Logs, signal: AbortSignal, io: Io): Promise<LogEntry[]> {
  const { status, ...local } = plan.filter;
  const localOnly = Object.values(local).some((x) => x !== undefined && x !== '');
  // Without local filters the server can cut the file: newest first, the first N lines.
  const parsed = await logs.v1Day(plan.zoneId, plan.v1Date!, {
    signal,
    status: typeof status === 'string' ? status : undefined,
    ...(localOnly ? { order: 'asc' as const } : { order: 'desc' as const, end: plan.limit }),
  });
  if (parsed.skipped) {
    const first = parsed.problems[0];
    io.stderr.write(`burrow: skipped ${parsed.skipped} unreadable line${parsed.skipped === 1 ? '' : 's'} of the v1 file${first ? ` (line ${first.line}: ${terminalSafe(first.reason)})` : ''}\n`);
  }
  const test = compileFilter(plan.filter);
  const entries: LogEntry[] = [];
  const times: number[] = [];
  for (let i = 0; i < parsed.entries.length; i++) {
    if (!test(parsed.entries[i]!)) continue;
    entries.push(parsed.entries[i]!);
    times.push(parsed.times[i]!);
  }
  const sorted = sortedUnique(entries, times);
  if (sorted.length > plan.limit) {
    io.stderr.write(`burrow: showing the newest ${plan.limit} of ${sorted.length} matching records (raise --limit)\n`);
    return sorted.slice(sorted.length - plan.limit);
  }
  return sorted;
}

/** Oldest first, one record per request id. */
function sortedUnique(entries: LogEntry[], times: number[]): LogEntry[] {
  const seen = new Set<string>();
  const idx: number[] = [];
  for (let i = 0; i < entries.length; i++) {
    const id = entries[i]!.requestId;
    if (id !== null) {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    idx.push(i);
  }
  idx.sort((a, b) => times[a]! - times[b]! || a - b);
  return idx.map((i) => entries[i]!);
}
