import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../api/errors';
import type { LogsApi } from '../api/logs/index';
import { ZoneLease, LeaseRefused, type Owner } from './lease';
import { eventLine, type EventFields, type ShipEvents } from './ship-events';
import type { ShipMetrics } from './metrics';
import { StoreError, type LogStore } from './store';
import { ZoneShipper, type ZoneShipStatus } from './zone-shipper';
import { statusLine } from './status-line';
import { InFlight } from './in-flight';
import { RequestOrder } from './request-order';

/** The platform's largest page. */
const PAGE_RECORDS = 10_000;

export interface ShipperOptions {
  zones: readonly number[];
  logs: Pick<LogsApi, 'queryBytes' | 'budget' | 'now'>;
  store: LogStore;
  window: { from: number; to: number } | null;
  sinceMs: number;
  settleMs: number;
  depth?: number;
  /** Records per page asked of the platform (default and at most 10,000). */
  pageRecords?: number;
  /** Records per insert (whole pages until it holds this many; default 10,000: one full page). */
  batchRecords?: number;
  pollMs?: number;
  logFormat: 'logfmt' | 'json';
  /** Also the debug lines (one per insert). */
  debug?: boolean;
  /** Where event lines go (stderr). */
  write: (text: string) => void;
  /** Draw a live status line (stderr is a terminal). */
  statusLine: boolean;
  columns: () => number;
  metrics: ShipMetrics | null;
  owner?: Owner;
  /** Between lease heartbeats. */
  heartbeatMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('stopped'));
    const t = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('stopped'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

export function currentOwner(): Owner {
  return { host: os.hostname(), pid: process.pid, id: randomBytes(6).toString('hex') };
}

/**
 * Ships zones into the store until `stop` aborts (follow) or every window is stored (bounded).
 * Resolves with the exit code: 0 when done or stopped cleanly, 1 when a zone failed, 3 when
 * another shipper holds a zone.
 */
export async function runShipper(o: ShipperOptions, stop: AbortSignal): Promise<number> {
  const owner = o.owner ?? currentOwner();
  let drawn = false;
  const clearStatus = () => {
    if (drawn) o.write('\r\x1b[2K');
    drawn = false;
  };
  const events: ShipEvents = {
    emit(event: string, fields: EventFields, level = 'info') {
      clearStatus();
      o.write(`${eventLine(o.logFormat, Date.now(), level, event, fields)}\n`);
    },
    debug(event: string, fields: EventFields) {
      // t: ms since the process started, to trace where a run's seconds go
      if (o.debug) this.emit(event, { t: Math.round(performance.now()), ...fields }, 'debug');
    },
    request(zone, status) {
      o.metrics?.requests.inc({ zone: String(zone), status: String(status) });
    },
    stored(zone, count) {
      o.metrics?.stored.inc({ zone: String(zone) }, count);
    },
    rejected(zone, count) {
      o.metrics?.rejected.inc({ zone: String(zone) }, count);
    },
    insertError(zone) {
      o.metrics?.insertErrors.inc({ zone: String(zone) });
    },
  };

  const fetchStop = new AbortController();
  const zoneStop = new AbortController();
  const onStop = () => {
    events.emit('stopping', { msg: 'finishing the insert in flight, then saving the checkpoints' });
    fetchStop.abort();
    zoneStop.abort();
  };
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });

  // a zone reads ahead while it stores, but no more batches than zones (2 to 8) are held at once
  // over all of them: with four zones, about 30 MB of records. Inserts of one full page: larger
  // ones (two pages) took the resident memory of four zones past 250 MB (page bodies freed but
  // not yet collected grow with them)
  const inFlight = new InFlight(Math.max(2, Math.min(8, o.zones.length)));
  const order = new RequestOrder(o.logs.budget);
  const shippers = o.zones.map(
    (zone) =>
      new ZoneShipper(
        {
          zone,
          logs: o.logs,
          store: o.store,
          events,
          sinceMs: o.sinceMs,
          window: o.window,
          settleMs: o.settleMs,
          depth: o.depth ?? 3,
          inFlight,
          order,
          pageRecords: Math.min(PAGE_RECORDS, o.pageRecords ?? PAGE_RECORDS),
          batchRecords: o.batchRecords ?? 10_000,
          pollMs: o.pollMs ?? 2000,
          sleep,
        },
        zoneStop.signal,
        fetchStop.signal,
      ),
  );

  events.debug('begin', {});
  // the zones' first pages are read while the store is prepared and the zones leased
  for (const s of shippers) s.prefetch();
  const giveUp = (code: number): number => {
    stop.removeEventListener('abort', onStop);
    fetchStop.abort();
    zoneStop.abort();
    return code;
  };

  try {
    await o.store.prepare();
  } catch (error) {
    if (error instanceof StoreError) {
      events.emit('error', { msg: error.message }, 'error');
      return giveUp(1);
    }
    giveUp(1);
    throw error;
  }
  events.debug('prepared', {});
  events.emit('store', {
    version: o.store.version,
    form: o.store.form,
    table: `${o.store.names.database}.${o.store.names.table}`,
    cluster: o.store.names.cluster,
  });

  const leases = o.zones.map((z) => new ZoneLease(o.store, z, owner));
  // every zone's lease at once (each is its own rows): three round trips, not three per zone
  const acquired = await Promise.allSettled(leases.map((lease) => lease.acquire()));
  const failed = acquired.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(leases.filter((_, i) => acquired[i]!.status === 'fulfilled').map((l) => l.release().catch(() => {})));
    const refused = acquired.find((r): r is PromiseRejectedResult => r.status === 'rejected' && r.reason instanceof LeaseRefused);
    if (refused) {
      events.emit('refused', { msg: (refused.reason as Error).message }, 'error');
      return giveUp(3);
    }
    events.emit('error', { msg: (failed.reason as Error).message }, 'error');
    return giveUp(1);
  }

  events.debug('leased', { zones: leases.length });
  let lost: string | null = null;
  const heartbeat = setInterval(() => {
    for (const lease of leases) {
      lease.renew().catch((error: unknown) => {
        if (error instanceof LeaseRefused && !lost) {
          lost = error.message;
          events.emit('lease-lost', { msg: error.message }, 'error');
          fetchStop.abort();
          zoneStop.abort();
        }
        // ClickHouse away: the records wait too; the lease is renewed when it is back
      });
    }
  }, o.heartbeatMs ?? 10_000);
  heartbeat.unref();

  let tick: NodeJS.Timeout | null = null;
  const rates = new Map<number, { at: number; stored: number; rate: number }>();
  const refresh = () => {
    const now = o.logs.now();
    for (const s of shippers) {
      const st = s.status;
      const z = String(st.zone);
      o.metrics?.lag.set({ zone: z }, Math.max(0, (now - st.cursor) / 1000));
      o.metrics?.backlog.set({ zone: z }, st.backlog);
      o.metrics?.checkpoint.set({ zone: z }, Math.floor(st.checkpoint / 1000));
      const r = rates.get(st.zone) ?? { at: Date.now(), stored: st.stored, rate: 0 };
      const dt = (Date.now() - r.at) / 1000;
      if (dt >= 1) rates.set(st.zone, { at: Date.now(), stored: st.stored, rate: (st.stored - r.stored) / dt });
      else if (!rates.has(st.zone)) rates.set(st.zone, r);
    }
    if (o.statusLine) {
      const line = statusLine(
        shippers.map((s) => s.status),
        now,
        (z) => rates.get(z)?.rate ?? 0,
        (z) => o.logs.budget.state(String(z)),
        o.columns(),
      );
      o.write(`\r\x1b[2K${line}`);
      drawn = true;
    }
  };
  tick = setInterval(refresh, 1000);
  tick.unref();

  const results = await Promise.allSettled(shippers.map((s) => s.run()));
  clearInterval(heartbeat);
  if (tick) clearInterval(tick);
  refresh();
  clearStatus();
  let code = 0;
  results.forEach((r, i) => {
    const st: ZoneShipStatus = shippers[i]!.status;
    if (r.status === 'rejected') {
      const error = r.reason as Error;
      const stoppedByUs = stop.aborted && !(error instanceof ApiError && !error.transient);
      if (!stoppedByUs) {
        st.state = 'failed';
        code = 1;
      }
      events.emit(
        stoppedByUs ? 'stopped' : 'zone-failed',
        { zone: st.zone, msg: error.message, stored: st.stored, checkpoint: new Date(st.checkpoint).toISOString() },
        stoppedByUs ? 'warn' : 'error',
      );
    } else {
      events.emit(st.state === 'done' ? 'done' : 'stopped', {
        zone: st.zone,
        stored: st.stored,
        rejected: st.rejected,
        skipped_stored_already: st.skipped,
        checkpoint: new Date(st.checkpoint).toISOString(),
      });
    }
  });
  await Promise.all(leases.map((l) => l.release().catch(() => {})));
  events.debug('released', {});
  if (lost) return 3;
  return code;
}
