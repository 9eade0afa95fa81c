// The main thread's share of the log engine benchmark, in CPU time (steady on a loaded machine):
// every page is read first (on this thread, not timed), then inserted into the store and counted
// by the statistics, timed with process.cpuUsage (this process runs no other thread meanwhile).
//   node --import tsx bench/main-thread-cpu.ts MANIFEST
import fs from 'node:fs';
import { LogBuffer, LogPageReader } from '../src/log-engine/index';
import { compileSlotFilter } from '../src/log-engine/slot-filter';
import { LogStats } from '../src/log-records/stats';
import type { LogData } from './lib/log-data';
import { ENGINE_FILTER } from './log-engine-filter';

const data = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LogData;
const reader = new LogPageReader({ workerThreshold: Infinity });
const batches = data.pages.map((file) => reader.readSync(fs.readFileSync(file)).batch);
const buffer = new LogBuffer(data.records);
const stats = new LogStats();
const test = compileSlotFilter(ENGINE_FILTER, buffer.columns);
let added: readonly number[] = [];
buffer.onAdded((slots) => {
  added = slots;
});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let insertMs = 0;
let statsMs = 0;
let filterMs = 0;
let matched = 0;
for (const batch of batches) {
  added = [];
  const t0 = cpu();
  buffer.insertBatch(batch);
  const t1 = cpu();
  stats.applySlots(buffer.columns, added, 1);
  const t2 = cpu();
  for (let k = 0; k < added.length; k++) if (test(added[k]!)) matched++;
  insertMs += t1 - t0;
  statsMs += t2 - t1;
  filterMs += cpu() - t2;
}
process.stdout.write(
  `${JSON.stringify({ kept: buffer.length, matched, insertMs: Math.round(insertMs), statsMs: Math.round(statsMs), filterMs: Math.round(filterMs) })}\n`,
);
