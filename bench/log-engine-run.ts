// One run of the log engine benchmark in a fresh process (a clean heap per run):
//   node --import tsx bench/log-engine-run.ts MANIFEST
// Prints one JSON line. Used by bench/log-engine.ts.
import fs from 'node:fs';
import { readLogPage } from '../src/api/logs/index';
import { LogBuffer, LogPageReader } from '../src/log-engine/index';
import { compileSlotFilter } from '../src/log-engine/slot-filter';
import { BACKFILL_DEPTH } from '../src/log-engine/follow-options';
import { LogStats } from '../src/log-records/stats';
import type { LogData } from './lib/log-data';
import { ENGINE_FILTER } from './log-engine-filter';

const data = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LogData;
const reader = new LogPageReader({
  ...(process.env.BENCH_READER_THRESHOLD ? { workerThreshold: Number(process.env.BENCH_READER_THRESHOLD) } : {}),
  ...(process.env.BENCH_READER_WORKERS ? { workers: Number(process.env.BENCH_READER_WORKERS) } : {}),
});
const buffer = new LogBuffer(data.records);
const stats = new LogStats();
const test = compileSlotFilter(ENGINE_FILTER, buffer.columns);
let addedSlots: readonly number[] = [];
buffer.onAdded((slots) => {
  addedSlots = slots;
});

/** CPU ms of this (the main) thread so far, from Linux's /proc (NaN elsewhere): not inflated by waiting for a core, as busy time is. */
function mainThreadCpuMs(): number {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 a second on Linux)
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const main0 = mainThreadCpuMs();
const elu0 = performance.eventLoopUtilization();
const cpu0 = process.cpuUsage();
const started = performance.now();
let matched = 0;
let insertMs = 0;
let statsMs = 0;
let skipped = 0;
// The pages arrive one after the other, as from the network: the next ones are on their way (read
// from disk, parsed by the reader's worker thread) while one is ingested, as many as the follow
// engine's backfill keeps in flight.
const AHEAD = Number(process.env.BENCH_AHEAD ?? BACKFILL_DEPTH);
const fetch = (i: number) => readLogPage(reader, fs.readFileSync(data.pages[i]!), '/v2/pullzones/1/logs', 'asc');
const queue = data.pages.slice(0, AHEAD).map((_, i) => fetch(i));
for (let i = 0; i < data.pages.length; i++) {
  const page = await queue.shift()!;
  if (i + AHEAD < data.pages.length) queue.push(fetch(i + AHEAD));
  skipped += page.skipped;
  addedSlots = [];
  const t0 = performance.now();
  buffer.insertBatch(page.batch!);
  const t1 = performance.now();
  // as the logs screen's model does: new records counted from the store's columns
  stats.applySlots(buffer.columns, addedSlots, 1);
  insertMs += t1 - t0;
  statsMs += performance.now() - t1;
  for (let k = 0; k < addedSlots.length; k++) if (test(addedSlots[k]!)) matched++;
}
const snapshot = stats.snapshot();
const ms = performance.now() - started;
const elu = performance.eventLoopUtilization(elu0);
const cpu = process.cpuUsage(cpu0);
const mainCpuMs = mainThreadCpuMs() - main0;
await reader.close();
process.stdout.write(
  `${JSON.stringify({ ms, kept: buffer.length, duplicates: buffer.duplicates, skipped, matched, statsRecords: snapshot.records, mainBusyMs: elu.active, workerBusyMs: reader.workerBusyMs, cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs, insertMs, statsMs })}\n`,
);
