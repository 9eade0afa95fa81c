import { createWorld } from '../src/emulator/world';
import { TrafficStore } from '../src/emulator/logging/traffic';
import { pageRecords, toLogEntry } from '../src/emulator/logging/records';
import { parseV2Query } from '../src/emulator/logging/v2-query';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const T = Date.parse('2026-03-02T10:00:00Z');
const RATES = [10, 100, 1000];

/** One hour of the busiest zone read newest first in pages of 10,000, as a backfill reads it. */
function readHour(rate: number): { usPerRecord: number; records: number; heapPeakMiB: number; cachedPeak: number } {
  const world = createWorld({ seed: 1, logRate: rate, now: () => T });
  const store = new TrafficStore(world);
  const zone = world.pullZones.find((z) => z.Name === 'shop-assets')!;
  global.gc?.();
  let heapPeak = process.memoryUsage().heapUsed;
  let cachedPeak = 0;
  let records = 0;
  const started = performance.now();
  const from = new Date(T - 3_600_000).toISOString();
  const to = new Date(T).toISOString();
  for (let offset = 0; ; offset += 10_000) {
    // the query as the route reads it (a backfill's page: no record filter)
    const parsed = parseV2Query(new URLSearchParams({ from, to, order: 'desc', offset: String(offset), limit: '10000' }), T);
    if (!parsed.ok) throw new Error(parsed.details.join('; '));
    const q = parsed.query;
    const { page, hasMore } = pageRecords(store, zone, {
      from: q.from,
      to: q.to,
      now: T,
      includeShield: q.includeShield,
      match: q.match,
      order: q.order,
      offset: q.offset,
      limit: q.limit,
    });
    // what the route does with a page, short of the socket
    JSON.stringify(page.map(toLogEntry));
    records += page.length;
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    cachedPeak = Math.max(cachedPeak, store.cachedRecordCount);
    if (!hasMore) break;
  }
  return { usPerRecord: ((performance.now() - started) * 1000) / records, records, heapPeakMiB: heapPeak / 2 ** 20, cachedPeak };
}

export const emulatorRateBench: Bench = {
  id: 'emulator-rate',
  async run(): Promise<BenchResult[]> {
    const runs = RATES.map((rate) => ({ rate, ...readHour(rate) }));
    const at = (rate: number) => runs.find((r) => r.rate === rate)!;
    return [
      {
        name: 'emulator: cost per served log record at --log-rate 1000',
        method: `The emulator's logging origin without the socket (in one process, node --expose-gc): one hour of the busiest zone read newest first in pages of 10,000 (the query parsed as the route parses it, generation on demand, paging, the JSON of each page), at --log-rate ${RATES.join(', ')}; microseconds per record served.`,
        unit: 'us/record',
        burrow: summarize([at(1000).usPerRecord]),
        budget: '<= 2x the cost at --log-rate 10 (flat)',
        pass: at(1000).usPerRecord <= 2 * at(10).usPerRecord,
        notes: runs.map(
          (r) =>
            `--log-rate ${r.rate}: ${r.records.toLocaleString('en-US')} records, ${r.usPerRecord.toFixed(2)} us/record, peak heap ${r.heapPeakMiB.toFixed(0)} MiB, generated records held at most ${r.cachedPeak.toLocaleString('en-US')}`,
        ),
      },
    ];
  },
};
