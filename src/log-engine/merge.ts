import { entryKey, type LogEntry } from '../api/logs/entry';

/** Records of one source, newest first (as pages read with order=desc come), with their times. */
export interface TimedRecords {
  entries: readonly LogEntry[];
  times: ArrayLike<number>;
}

/**
 * Several sources (one per zone) merged oldest first, each record once (by request id), keeping
 * [from, to). Equal times: the sources in the order given, and within a source the server's
 * ascending order (a newest-first list read backwards), as one zone's output prints them.
 */
export function mergeByTime(
  sources: readonly TimedRecords[],
  from = Number.NEGATIVE_INFINITY,
  to = Number.POSITIVE_INFINITY,
): { entries: LogEntry[]; times: number[] } {
  const refs: { t: number; s: number; i: number }[] = [];
  for (let s = 0; s < sources.length; s++) {
    const src = sources[s]!;
    for (let i = src.entries.length - 1; i >= 0; i--) {
      const t = src.times[i]!;
      if (t >= from && t < to) refs.push({ t, s, i });
    }
  }
  refs.sort((a, b) => a.t - b.t || a.s - b.s || b.i - a.i);
  const seen = new Set<string>();
  const entries: LogEntry[] = [];
  const times: number[] = [];
  for (const r of refs) {
    const e = sources[r.s]!.entries[r.i]!;
    const key = e.requestId ?? entryKey(e);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(e);
    times.push(r.t);
  }
  return { entries, times };
}
