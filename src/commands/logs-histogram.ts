import { parseTimestamp, RETENTION_MS } from '../api/logs/index';
import { BUCKET_STEPS, chooseStep, parseBucket } from '../log-records/timeline';
import { checkBucketCount, histogram } from '../log-records/timeline-histogram';
import { connectNonInteractive } from '../runtime/connect';
import { fetchV2 } from './logs-fetch';
import { planFromArgs } from './logs-plan';
import { formatRecords } from './output';
import { AUTO_BUCKETS, HISTOGRAM_COLUMNS } from './logs-histogram-output';
import { type CommandContext, UsageError } from './types';

/** Everything in the window unless --limit says otherwise (as --sql). */
const HISTOGRAM_DEFAULT_LIMIT = 1_000_000;

/**
 * `burrow logs ZONE [ZONE...] --since 1h --histogram [--bucket 1m]`: requests per bucket of the
 * window and status class (several zones counted together), every bucket of the window listed
 * (empty ones as zeros). The records are the ones `-o ndjson` prints for the same window and
 * filters, counted as the screen's timeline counts.
 */
export async function runLogsHistogram(ctx: CommandContext): Promise<number> {
  const v = ctx.values;
  if (v.follow) throw new UsageError('--histogram counts a window: use --since or --from/--to, not --follow');
  if (v.v1) throw new UsageError('--histogram reads the v2 logs API: use --since or --from/--to instead of --v1');
  if (v.sql !== undefined) throw new UsageError('--histogram and --sql are two outputs: use one of them');
  const format = ctx.settings.output === null || ctx.settings.output === 'text' ? 'table' : ctx.settings.output;
  if (!['table', 'csv', 'json', 'ndjson'].includes(format)) throw new UsageError(`-o ${format} does not go with --histogram: use table, csv, json or ndjson`);
  let bucket: number | null = null;
  if (typeof v.bucket === 'string') {
    const parsed = parseBucket(v.bucket);
    if ('error' in parsed) throw new UsageError(parsed.error);
    bucket = parsed.ms;
  }
  if (v.store) return (await import('./logs-store')).runStoreHistogram(ctx, format as 'table' | 'csv' | 'json' | 'ndjson', bucket);
  // several zones are counted together; each is checked as the one-zone form checks it
  const zones = [...new Set(ctx.args)];
  const plans = (zones.length ? zones : [undefined]).map((zone) => planFromArgs({ ...ctx, args: zone === undefined ? [] : [zone] }, Date.now()));
  const plan = plans[0]!;
  const limit = v.limit === undefined ? HISTOGRAM_DEFAULT_LIMIT : plan.limit;

  const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(v.demo));
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const logs = session.api.logs;
    const now = logs.now();
    // the window fixed before the first request: the counts and the buckets cover the same span
    const from = plan.from ?? Math.max(now - plan.sinceMs, now - RETENTION_MS + 60_000);
    const to = plan.to ?? now;
    const size = bucket ?? BUCKET_STEPS[chooseStep(from, to - 1, AUTO_BUCKETS)]!;
    const tooMany = checkBucketCount(from, to, size);
    if (tooMany) throw new UsageError(`--bucket ${v.bucket ?? ''}: ${tooMany}`);
    const times: number[] = [];
    const statuses: number[] = [];
    for (const p of plans) {
      const records = await fetchV2({ ...p, from, to, limit }, logs, abort.signal, ctx.io);
      if (abort.signal.aborted) return 130;
      for (const e of records) {
        times.push(parseTimestamp(e.timestamp));
        statuses.push(e.statusCode);
      }
    }
    const rows = histogram(times, statuses, from, to, size);
    ctx.io.stdout.write(formatRecords({ format, records: rows, columns: HISTOGRAM_COLUMNS, showSecrets: true }));
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await session.close();
  }
}
