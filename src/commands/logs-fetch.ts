import { compileFilter, RETENTION_MS, type LogEntry } from '../api/logs/index';
import type { connectNonInteractive } from '../runtime/connect';
import { terminalSafe } from '../text/terminal-safe';
import type { Plan } from './logs-plan';
import type { Io } from './types';

type Logs = Awaited<ReturnType<typeof connectNonInteractive>>['api']['logs'];

/** What a window read found besides its records: `partial` when the window had more than the limit. */
export interface WindowRead {
  partial: boolean;
}

export async function fetchV2(plan: Plan, logs: Logs, signal: AbortSignal, io: Io, read?: WindowRead): Promise<LogEntry[]> {
  const now = logs.now();
  const from = plan.from ?? Math.max(now - plan.sinceMs, now - RETENTION_MS + 60_000);
  const result = await logs.fetchAll(
    plan.zoneId,
    { ...plan.filter, from, ...(plan.to !== null ? { to: plan.to } : {}), order: 'desc', limit: Math.min(10_000, plan.limit) },
    { signal, maxRecords: plan.limit },
  );
  if (read) read.partial = result.hasMore;
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

export async function fetchV1(plan: Plan, logs: Logs, signal: AbortSignal, io: Io): Promise<LogEntry[]> {
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
