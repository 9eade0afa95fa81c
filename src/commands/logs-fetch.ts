import { compileFilter, RETENTION_MS, type LogEntry } from '../api/logs/index';
import type { connectNonInteractive } from '../runtime/connect';
import { terminalSafe } from '../text/terminal-safe';
import type { Plan } from './logs-plan';
import type { Io } from './types';
import { drained } from './logs-alerts';
import type { RecordWriter } from './logs-text';

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

/** Where the records of a v1 day go: streamed to the writer as read, or kept (the newest `plan.limit`) and returned. */
export interface V1Output {
  writer: RecordWriter;
  /** --limit was given: the newest N matching records, printed after the day is read. Else every record, as it is read. */
  limited: boolean;
}

/**
 * A v1 day, read as a stream (a day of a busy zone is gigabytes). Without --limit, every matching
 * record is written as it is read, oldest first, and the download waits for the output (memory
 * stays the same whatever the day's size); returns nothing. With --limit N, the newest N matching
 * records are returned (the server cuts the file when only the status filters: newest first, N lines).
 */
export async function fetchV1(plan: Plan, logs: Logs, signal: AbortSignal, io: Io, out: V1Output): Promise<LogEntry[]> {
  const { status, ...local } = plan.filter;
  const localOnly = Object.values(local).some((x) => x !== undefined && x !== '');
  const test = compileFilter(plan.filter);
  const cut = out.limited && !localOnly;
  // the newest plan.limit matching records, oldest first once the day is read (a ring while it is)
  const ring: LogEntry[] = [];
  const ringTimes: number[] = [];
  let next = 0;
  let matched = 0;
  const done = await logs.v1Stream(plan.zoneId, plan.v1Date!, {
    signal,
    status: typeof status === 'string' ? status : undefined,
    ...(cut ? { order: 'desc' as const, end: plan.limit } : { order: 'asc' as const }),
    onPiece: async (piece) => {
      const records = piece.batch.entries();
      for (let i = 0; i < records.length; i++) {
        const e = records[i]!;
        if (!test(e)) continue;
        matched++;
        if (!out.limited) out.writer.write(e);
        else if (ring.length < plan.limit) {
          ring.push(e);
          ringTimes.push(piece.times[i]!);
        } else {
          ring[next] = e;
          ringTimes[next] = piece.times[i]!;
          next = (next + 1) % plan.limit;
        }
      }
      // the download waits for the output: a slow reader of stdout slows it, memory does not grow
      if (!out.limited) await drained(io.stdout);
    },
  });
  if (done.skipped) {
    const first = done.problems[0];
    io.stderr.write(
      `burrow: skipped ${done.skipped} unreadable line${done.skipped === 1 ? '' : 's'} of the v1 file${first ? ` (line ${first.line}: ${terminalSafe(first.reason)})` : ''}\n`,
    );
  }
  if (!out.limited) return [];
  const entries = [...ring.slice(next), ...ring.slice(0, next)];
  const times = [...ringTimes.slice(next), ...ringTimes.slice(0, next)];
  if (!cut && matched > plan.limit) io.stderr.write(`burrow: showing the newest ${plan.limit} of ${matched} matching records (raise --limit)\n`);
  return sortedUnique(entries, times);
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
