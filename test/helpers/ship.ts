import { LogStore } from '../../src/log-ship/store';
import { parseStoreUrl } from '../../src/config/store-url';
import { runShipper, type ShipperOptions } from '../../src/log-ship/shipper';
import { sqlLiteral } from '../../src/log-ship/sql-text';
import type { LogsApi } from '../../src/api/logs/index';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import type { RunningEmulator } from '../../src/emulator/server';

/** A LogStore on a test server's URL (closed by the caller). */
export function storeAt(storeUrl: string, table = 'cdn_logs', cluster: string | null = null): LogStore {
  return new LogStore({ url: parseStoreUrl(storeUrl), password: '', table, cluster });
}

/** runShipper in this process, its event lines collected; `stop()` ends a follow. */
export function shipInProcess(logs: LogsApi, store: LogStore, o: Partial<ShipperOptions> & Pick<ShipperOptions, 'zones'>) {
  const lines: string[] = [];
  const stop = new AbortController();
  const done = runShipper(
    {
      logs,
      store,
      window: null,
      sinceMs: 5 * 60_000,
      settleMs: 60_000,
      logFormat: 'json',
      write: (t) => lines.push(t),
      statusLine: false,
      columns: () => 100,
      metrics: null,
      pollMs: 100,
      ...o,
    },
    stop.signal,
  );
  return { lines, done, stop: () => stop.abort() };
}

/** The platform's own records of a zone in [from, to) (origin shield left out, as the API's default). */
export function platformIds(emu: RunningEmulator, zone: number, from: number, to: number): string[] {
  return generatedLogRecords(emu.world, zone, from, to).map((r) => String(r.requestId));
}

/** The times (epoch ms) of the platform's records of a zone in [from, to) whose id is in `ids`. */
export function platformTimes(emu: RunningEmulator, zone: number, from: number, to: number, ids: ReadonlySet<string>): number[] {
  return generatedLogRecords(emu.world, zone, from, to)
    .filter((r) => ids.has(String(r.requestId)))
    .map((r) => Date.parse(String(r.timestamp)));
}

/** Stored request ids of a zone whose exact time is in [from, to) (legacy form). */
export async function storedIds(store: LogStore, zone: number, from: number, to: number): Promise<string[]> {
  const ms = store.form === 'current' ? 'toUnixTimestamp64Milli(timestamp)' : '(toUInt64(timestamp) * 1000 + timestampMs)';
  const rows = await store.rows<{ r: string }>(
    `SELECT requestId AS r FROM ${store.names.database}.${store.names.table} WHERE pullZoneId = ${sqlLiteral(zone)} AND ${ms} >= ${sqlLiteral(from)} AND ${ms} < ${sqlLiteral(to)}`,
  );
  return rows.map((x) => x.r);
}
