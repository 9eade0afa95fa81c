import type { Api } from '../../api/index';
import type { FollowEngine, LogFilter } from '../../api/logs/index';
import type { LogsViewModel } from '../logs-view-model';
import type { LiveStatus } from './types';

export interface EngineEvents {
  /** A batch of new records was stored (statistics and matches are already updated). */
  onRecords(records: number, newMatches: number): void;
  /** Anything the status line shows may have changed. */
  onChange(): void;
}

export interface FollowSpec {
  zoneId: number;
  filter: LogFilter;
  sinceMs: number;
  /** Continue from where the last engine got to (a screen coming back), within the window. */
  resume: boolean;
}

/**
 * The follow engine behind the logs screen: started into the view model's store, stopped, and
 * read for the status line. The engine inserts into the store; the store's listeners update the
 * statistics and matches; this only counts and tells the screen.
 */
export class EngineLink {
  engine: FollowEngine | null = null;
  private lastCoveredTo: number | null = null;
  private off: (() => void)[] = [];

  constructor(
    private readonly api: Api,
    private readonly model: LogsViewModel,
    private readonly now: () => number,
    private readonly events: EngineEvents,
  ) {}

  /** Forget where the last engine got to (a new query). */
  forget(): void {
    this.lastCoveredTo = null;
  }

  stop(): void {
    for (const off of this.off) off();
    this.off = [];
    if (this.engine) {
      const st = this.engine.status().zones[0];
      if (st?.coveredTo) this.lastCoveredTo = st.coveredTo;
      void this.engine.stop();
    }
    this.engine = null;
  }

  /** Starts following; throws what api.logs.follow throws (bad input). */
  start(spec: FollowSpec): void {
    this.stop();
    const t = this.now();
    const startFrom =
      spec.resume && this.lastCoveredTo !== null && this.model.buffer.length > 0 ? Math.max(this.lastCoveredTo - 5 * 60_000, t - spec.sinceMs) : null;
    const engine = this.api.logs.follow({
      zones: [spec.zoneId],
      filter: spec.filter,
      buffer: this.model.buffer,
      ...(startFrom !== null ? { from: startFrom } : { sinceMs: spec.sinceMs }),
    });
    this.engine = engine;
    this.off.push(
      engine.onRecords((entries) => {
        if (engine !== this.engine) return;
        this.events.onRecords(entries.length, this.model.takeNewMatches());
      }),
      engine.subscribe(() => this.events.onChange()),
      this.api.logs.budget.subscribe(() => this.events.onChange()),
    );
    engine.start();
  }

  pollNow(): boolean {
    if (!this.engine) return false;
    this.engine.pollNow();
    return true;
  }

  /** Before this time no more records are expected (null without an engine). */
  settledBefore(): number | null {
    return this.engine ? this.engine.settledBefore() : null;
  }

  status(zoneId: number | null): LiveStatus | null {
    const engine = this.engine;
    if (!engine) return null;
    const st = engine.status();
    const z = st.zones[0];
    const b = this.api.logs.budget.state(String(zoneId));
    return {
      state: z ? z.state : 'idle',
      error: z?.error ? z.error.message : null,
      errorStatus: z?.error ? z.error.status : null,
      coveredTo: z?.coveredTo ?? null,
      newest: z?.newest ?? null,
      recheckMs: z?.recheckMs ?? 0,
      ingestLagMs: z?.ingestLagMs ?? 0,
      intervalMs: z?.intervalMs ?? 0,
      backoffUntil: b.backoffUntil,
      requests: z?.requests ?? 0,
      late: z?.late ?? 0,
      backfillTruncated: z?.backfillTruncated ?? false,
      backfill: z?.backfill ?? null,
      buffered: st.buffered,
      dropped: st.dropped,
      oldest: this.model.buffer.oldestTime,
      duplicates: st.duplicates,
      budgetUsed: b.used,
      budgetLimit: b.limit,
      budgetWaiting: b.waiting,
      rateLimited: b.rateLimited,
    };
  }
}
