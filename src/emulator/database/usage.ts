import type { EngineUsage } from './engine-protocol';

const HOUR_MS = 3_600_000;

interface Bucket {
  queries: number;
  rowsRead: number;
  rowsWritten: number;
  latencyMs: number;
}

/**
 * What each database served, in hourly buckets (the statistics route's granularity), from the
 * emulator's start: rows returned, rows changed, statements and their time.
 */
export class UsageStore {
  private readonly byDb = new Map<string, Map<number, Bucket>>();

  constructor(private readonly now: () => number) {}

  record(database: string, usage: EngineUsage, ms: number): void {
    if (usage.queries === 0) return;
    let buckets = this.byDb.get(database);
    if (!buckets) this.byDb.set(database, (buckets = new Map()));
    const hour = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
    const b = buckets.get(hour) ?? { queries: 0, rowsRead: 0, rowsWritten: 0, latencyMs: 0 };
    b.queries += usage.queries;
    b.rowsRead += usage.rowsRead;
    b.rowsWritten += usage.rowsWritten;
    b.latencyMs += ms;
    buckets.set(hour, b);
  }

  /** Hourly buckets from `from` to `to` (ms), empty hours included, oldest first. */
  hours(database: string, from: number, to: number): { hour: number; bucket: Bucket }[] {
    const buckets = this.byDb.get(database) ?? new Map<number, Bucket>();
    const out: { hour: number; bucket: Bucket }[] = [];
    // at most a year of hours, whatever the window asked for
    const first = Math.max(Math.floor(from / HOUR_MS) * HOUR_MS, to - 366 * 24 * HOUR_MS);
    for (let h = first; h <= to; h += HOUR_MS) out.push({ hour: h, bucket: buckets.get(h) ?? { queries: 0, rowsRead: 0, rowsWritten: 0, latencyMs: 0 } });
    return out;
  }

  totals(database: string, from: number, to: number): Bucket {
    const t: Bucket = { queries: 0, rowsRead: 0, rowsWritten: 0, latencyMs: 0 };
    for (const [hour, b] of this.byDb.get(database) ?? []) {
      if (hour + HOUR_MS <= from || hour > to) continue;
      t.queries += b.queries;
      t.rowsRead += b.rowsRead;
      t.rowsWritten += b.rowsWritten;
      t.latencyMs += b.latencyMs;
    }
    return t;
  }
}
