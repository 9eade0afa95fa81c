import type { Api } from '../../api/index';
import type { LogFilter } from '../../api/logs/index';
import { followLogs, type FollowEngine } from '../../log-engine/index';
import type { LogsViewModel } from './view-model';
import type { LiveStatus } from './types';
import { combinedBackfill, combinedCoveredTo, combinedState, reuseZones, zoneLive, type ZoneLive } from './zone-status';

const NO_ZONES: readonly ZoneLive[] = [];

export interface EngineEvents {
  /** A batch of new records was stored (statistics and matches are already updated). */
  onRecords(records: number, newMatches: number): void;
  /** Anything the status line shows may have changed. */
  onChange(): void;
}

export interface FollowSpec {
  /** The zones followed, merged into one store (each with its own engine runner and budget). */
  zones: readonly number[];
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
  private shownZones: readonly ZoneLive[] = [];
  private shownBackfill: LiveStatus['backfill'] = null;

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
      const covered = combinedCoveredTo(this.engine.status());
      if (covered) this.lastCoveredTo = covered;
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
    const engine = followLogs(this.api.logs, {
      zones: spec.zones,
      filter: spec.filter,
      buffer: this.model.buffer,
      ...(startFrom !== null ? { from: startFrom } : { sinceMs: spec.sinceMs }),
    });
    this.engine = engine;
    this.off.push(
      engine.onRecordCount((count) => {
        if (engine !== this.engine) return;
        this.events.onRecords(count, this.model.takeNewMatches());
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
    if (st.zones.length > 1) return this.severalStatus(st);
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
      // the same empty array every time: the store compares statuses shallowly before a redraw
      zones: NO_ZONES,
    };
  }

  /** Several zones: the line for all of them, and each zone for the zone strip. */
  private severalStatus(st: ReturnType<FollowEngine['status']>): LiveStatus {
    const budget = this.api.logs.budget;
    const zones = (this.shownZones = reuseZones(
      this.shownZones,
      st.zones.map((z) => zoneLive(z, budget.state(String(z.zoneId)))),
    ));
    const { state, error } = combinedState(st.zones);
    const backfill = combinedBackfill(st.zones);
    if (!sameBackfill(backfill, this.shownBackfill)) this.shownBackfill = backfill;
    const alive = zones.filter((z) => z.state !== 'failed');
    const sum = (f: (z: (typeof st.zones)[number]) => number) => st.zones.reduce((n, z) => n + f(z), 0);
    return {
      state,
      error: error ? error.message : null,
      errorStatus: error ? error.status : null,
      coveredTo: combinedCoveredTo(st),
      newest: st.zones.reduce<number | null>((m, z) => (z.newest !== null && (m === null || z.newest > m) ? z.newest : m), null),
      recheckMs: Math.max(0, ...st.zones.map((z) => z.recheckMs)),
      ingestLagMs: Math.max(0, ...st.zones.map((z) => z.ingestLagMs)),
      intervalMs: Math.max(0, ...st.zones.map((z) => z.intervalMs)),
      // a zone backing off shows in the strip; the line says so only when every zone is
      backoffUntil: alive.length && alive.every((z) => z.backoffUntil !== null) ? Math.min(...alive.map((z) => z.backoffUntil!)) : null,
      requests: sum((z) => z.requests),
      late: sum((z) => z.late),
      backfillTruncated: st.zones.some((z) => z.backfillTruncated),
      backfill: this.shownBackfill,
      buffered: st.buffered,
      dropped: st.dropped,
      oldest: this.model.buffer.oldestTime,
      duplicates: st.duplicates,
      // the busiest zone's budget (each zone has its own; the strip shows every one)
      budgetUsed: Math.max(0, ...zones.map((z) => z.budgetUsed)),
      budgetLimit: zones[0]?.budgetLimit ?? 0,
      budgetWaiting: Math.max(0, ...zones.map((z) => z.budgetWaiting)),
      rateLimited: zones.reduce((n, z) => n + z.rateLimited, 0),
      zones,
    };
  }
}

function sameBackfill(a: LiveStatus['backfill'], b: LiveStatus['backfill']): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (Object.keys(a) as (keyof NonNullable<LiveStatus['backfill']>)[]).every((k) => a[k] === b[k]);
}
