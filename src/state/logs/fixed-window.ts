import type { Api } from '../../api/index';
import type { LogEntry, LogFilter } from '../../api/logs/index';
import type { AbsoluteWindow } from './filter-form';

/** A from..to window on the logs screen: read once (no follow), newest first up to the store's size. */
export interface FixedWindowState {
  from: number;
  to: number;
  loading: boolean;
  error: string | null;
  records: number;
  /** The window held more records than the store: the newest were kept. */
  truncated: boolean;
  /** Read from the log store (past the platform's 3 days): how far, and whether esc stopped it. */
  store?: { read: number; total: number | null; stopped: boolean };
}

/** The records of [from, to), oldest first; `hasMore` when more were there than `max`. */
export async function readWindow(
  api: Api,
  zoneId: number,
  filter: LogFilter,
  window: AbsoluteWindow & { to: number },
  max: number,
  signal: AbortSignal,
): Promise<{ entries: LogEntry[]; times: number[]; hasMore: boolean }> {
  const r = await api.logs.fetchAll(zoneId, { ...filter, from: window.from, to: window.to, order: 'desc', limit: 10_000 }, { signal, maxRecords: max });
  const entries: LogEntry[] = [];
  const times: number[] = [];
  // pages come newest first: read backwards so equal times keep the server's ascending order
  for (let i = r.entries.length - 1; i >= 0; i--) {
    const t = r.times[i]!;
    if (t < window.from || t >= window.to) continue;
    entries.push(r.entries[i]!);
    times.push(t);
  }
  return { entries, times, hasMore: r.hasMore };
}
