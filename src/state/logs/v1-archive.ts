import type { Api } from '../../api/index';
import { compileFilter, type LogEntry, type LogFilter, type V1ParseResult } from '../../api/logs/index';

/**
 * A past day's v1 log file for the logs screen: fetched (the newest lines first, at most a
 * store's worth) and kept raw, so a change of server filters applies locally without a new
 * download.
 */
export class V1Archive {
  raw: V1ParseResult | null = null;
  private abort: AbortController | null = null;

  constructor(
    private readonly api: Api,
    private readonly capacity: number,
  ) {}

  cancel(): void {
    this.abort?.abort();
    this.abort = null;
    this.raw = null;
  }

  /** The day parsed, or null when cancelled meanwhile; API errors are thrown. */
  async fetch(zoneId: number, date: string): Promise<V1ParseResult | null> {
    this.cancel();
    const ctl = new AbortController();
    this.abort = ctl;
    try {
      const result = await this.api.logs.v1Day(zoneId, date, { order: 'desc', end: this.capacity, signal: ctl.signal });
      if (ctl.signal.aborted) return null;
      this.raw = result;
      return result;
    } catch (error) {
      if (ctl.signal.aborted) return null;
      throw error;
    }
  }

  /** The day's records that pass the server filters (applied locally, with the server's semantics). */
  filtered(filter: LogFilter): { entries: LogEntry[]; times: number[] } | null {
    const raw = this.raw;
    if (!raw) return null;
    const test = compileFilter(filter);
    const entries: LogEntry[] = [];
    const times: number[] = [];
    for (let i = 0; i < raw.entries.length; i++) {
      if (test(raw.entries[i]!)) {
        entries.push(raw.entries[i]!);
        times.push(raw.times[i]!);
      }
    }
    return { entries, times };
  }
}
