import { spawn, spawnSync } from 'node:child_process';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';
import type { V1Day } from './lib/v1-day';

const RUNS = Number(process.env.BENCH_V1_RUNS ?? 3);
const RECORDS = Number(process.env.BENCH_V1_RECORDS ?? 2_000_000);

interface V1Run {
  records: number;
  lines: number;
  kept: number;
  error: string | null;
  firstScreenMs: number;
  readMs: number;
  rate: number;
  cpuMs: number;
  workerBusyMs: number;
  rssMB: number;
  peakMB: number;
  bytes: number;
}

/** Starts the bench origin (bench/v1-day-server.ts) and waits for its port. */
async function startOrigin(): Promise<{ port: number; day: V1Day; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/v1-day-server.ts', String(RECORDS)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let text = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.includes('\n')) break;
  }
  const { port, day } = JSON.parse(text.split('\n')[0]!) as { port: number; day: V1Day };
  return { port, day, stop: () => child.kill() };
}

function oneRun(port: number, day: V1Day): V1Run {
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/v1-day-run.ts', String(port), day.date, String(day.zoneId), String(RECORDS)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (r.status !== 0) throw new Error(`v1 run failed: ${r.stderr}`);
  const run = JSON.parse(r.stdout) as V1Run;
  if (run.error || run.lines !== RECORDS) throw new Error(`the day was not read whole: ${run.lines} of ${RECORDS} lines${run.error ? `: ${run.error}` : ''}`);
  return run;
}

const method = (day: V1Day) =>
  `a v1 day of ${RECORDS.toLocaleString('en')} lines (${(day.bytes / 1e6).toFixed(0)} MB: the busiest emulated zone's records spread over the day with new ids) served by an origin in its own process (Content-Length, read from disk), opened through the logs screen's store as \`v\` does (streamed, pieces read in the page reader's worker threads, inserted into the columnar store with statistics; the default 2,000,000-record buffer); a fresh process per run with the console's heap flags`;

/** Issue 26: the past day of a busy zone opens at once and is read as a stream in the live-records memory. */
export const v1DayBench: Bench = {
  id: 'v1-day',
  async run(): Promise<BenchResult[]> {
    const origin = await startOrigin();
    const runs: V1Run[] = [];
    try {
      for (let i = 0; i < RUNS; i++) runs.push(oneRun(origin.port, origin.day));
    } finally {
      origin.stop();
    }
    const of = (f: (r: V1Run) => number) => summarize(runs.map(f));
    const first = of((r) => r.firstScreenMs);
    const rate = of((r) => r.rate);
    const rss = of((r) => r.rssMB);
    const last = runs[runs.length - 1]!;
    return [
      {
        name: 'v1 day of 2,000,000 records: first screen',
        method: `${method(origin.day)}; time from submitting the day to the first rows in the view, median of ${RUNS} runs.`,
        unit: 'ms',
        burrow: first,
        budget: '<= 2000 ms',
        pass: first.median <= 2000,
      },
      {
        name: 'v1 day of 2,000,000 records: read rate',
        method: `${method(origin.day)}; lines read per second from submitting the day until it is read whole, median of ${RUNS} runs.`,
        unit: 'records/s',
        burrow: rate,
        budget: '>= 200,000 records/s',
        pass: rate.median >= 200_000,
        notes: [
          `last run: read in ${(last.readMs / 1000).toFixed(1)} s, main thread ${(last.cpuMs / 1000).toFixed(1)} s of CPU (workers included: ${(last.workerBusyMs / 1000).toFixed(1)} s busy in the reader's threads), ${last.kept.toLocaleString('en')} records held`,
        ],
      },
      {
        name: 'v1 day of 2,000,000 records: resident memory',
        method: `${method(origin.day)}; resident set (process.memoryUsage().rss) after the day is read and two forced collections, median of ${RUNS} runs (the live-records budget of the 2,000,000-record row).`,
        unit: 'MB',
        burrow: rss,
        budget: '<= 400 MB',
        pass: rss.median <= 400,
        notes: [`peak resident set while reading (VmHWM), median ${of((r) => r.peakMB).median.toFixed(0)} MB`],
      },
    ];
  },
};
