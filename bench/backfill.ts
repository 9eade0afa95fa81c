import { startEmulatorChild } from './lib/emulator-child';
import { createApi } from '../src/api/index';
import type { LogEntry } from '../src/api/logs/entry';
import type { FollowSink } from '../src/log-engine/follow';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';
import { followLogs } from '../src/log-engine/index';

const SECONDS = Number(process.env.BENCH_BACKFILL_SECONDS ?? 40);
const RATE = 1000;
const WINDOW_MS = 10_000;
/** What the platform's rate limit lets through at most: 30 requests of 10,000 records per 10 s. */
const MAX_PER_WINDOW = 30 * 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Counts and dedupes what the engine reads, without keeping the records (the store is not measured
 * here): by the first 52 bits of each request id (32 hex digits, random), a number each, so the
 * sink's own memory stays small next to the engine's (a Set of the id strings was about 400 bytes
 * an id: most of the client's peak RSS).
 */
class CountingSink implements FollowSink {
  private readonly ids = new Set<number>();
  version = 0;
  dropped = 0;
  duplicates = 0;
  readonly capacity = 50_000_000;
  readonly evictedUpTo = Number.NEGATIVE_INFINITY;
  get length(): number {
    return this.ids.size;
  }
  has(key: string): boolean {
    return this.ids.has(idNumber(key));
  }
  insert(batch: readonly LogEntry[], times: ArrayLike<number>, added: LogEntry[], addedTimes: number[]): number {
    let n = 0;
    for (let i = 0; i < batch.length; i++) {
      const id = idNumber(batch[i]!.requestId!);
      if (this.ids.has(id)) {
        this.duplicates++;
        continue;
      }
      this.ids.add(id);
      added.push(batch[i]!);
      addedTimes.push(times[i]!);
      n++;
    }
    if (n) this.version++;
    return n;
  }
}

const idNumber = (id: string): number => Number.parseInt(id.slice(0, 13), 16);

export const backfillBench: Bench = {
  id: 'backfill',
  async run(): Promise<BenchResult[]> {
    // its own process (the built binary); the traffic is counted from its start: the same 3 hours on every run
    const emu = await startEmulatorChild(['--seed', '1', '--log-rate', String(RATE)]);
    const api = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
    // the busiest zone is the first
    const zone = emu.info.pullZoneIds[0]!;
    const sink = new CountingSink();
    const engine = followLogs(api.logs, { zones: [zone], sinceMs: 3 * 3_600_000, buffer: sink });
    // records: every new record fetched (backfill pages and the polls that follow the live end share the budget)
    const samples: { at: number; records: number; backfill: number; requests: number }[] = [];
    let rssMax = 0;
    try {
      engine.start();
      const started = performance.now();
      while (performance.now() - started < SECONDS * 1000) {
        await sleep(250);
        const p = engine.status().zones[0]!.backfill;
        // requests sent: the budget's grants (a page waiting for a slot is not sent yet)
        if (p && p.pages > 0)
          samples.push({ at: performance.now(), records: sink.length, backfill: p.records, requests: api.logs.budget.state(String(zone)).granted });
        rssMax = Math.max(rssMax, process.memoryUsage().rss);
        if (p?.done) break;
      }
      // records fetched in every 10 s window that starts at a sample (after the first page)
      const perWindow: number[] = [];
      const backfillPerWindow: number[] = [];
      let mostRequests = 0;
      for (let i = 0, j = 0; i < samples.length; i++) {
        while (j < samples.length && samples[j]!.at - samples[i]!.at < WINDOW_MS) j++;
        if (j === samples.length) break;
        const k = j - 1;
        const span = samples[k]!.at - samples[i]!.at;
        perWindow.push((((samples[k]!.records - samples[i]!.records) * WINDOW_MS) / span / MAX_PER_WINDOW) * 100);
        backfillPerWindow.push((((samples[k]!.backfill - samples[i]!.backfill) * WINDOW_MS) / span / MAX_PER_WINDOW) * 100);
        mostRequests = Math.max(mostRequests, samples[k]!.requests - samples[i]!.requests);
      }
      const z = engine.status().zones[0]!;
      return [
        {
          name: 'backfill: records fetched per 10 s vs the rate limit maximum',
          method: `The follow engine (production budget and page size) backfilling 3 h of the busiest zone of \`burrow emulator\` (its own process) at ${RATE} records/s (episodes 0.1x-5x, a chunk capped at 2,500/s), records counted by a sink that only dedupes (by a 52-bit number of each request id); every 250 ms the new records fetched so far (backfill pages and the polls at the live end: both spend the same per-zone budget); for each 10 s window starting at a sample (from the first page on, for ${SECONDS} s), new records fetched in it as a share of 30 requests x 10,000 records; requests counted as the budget sent them.`,
          unit: '%',
          burrow: summarize(perWindow),
          budget: '>= 90%',
          pass: perWindow.length > 0 && summarize(perWindow).median >= 90,
          notes: [
            `${z.backfill?.records.toLocaleString('en-US')} records in ${z.backfill?.pages} pages; most requests sent in a 10 s window: ${mostRequests} (budget 28, limit 30); 429s: ${api.logs.budget.state(String(zone)).rateLimited}`,
            `backfill pages alone: median ${summarize(backfillPerWindow).median.toFixed(1)} % of the maximum per 10 s window (the rest is the live end, ${(sink.length - (z.backfill?.records ?? 0)).toLocaleString('en-US')} records)`,
            `client peak RSS ${(rssMax / 2 ** 20).toFixed(0)} MiB`,
          ],
        },
      ];
    } finally {
      await engine.stop();
      await api.close();
      await emu.stop();
    }
  },
};
