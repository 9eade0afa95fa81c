import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { logData } from './lib/log-data';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';
import { JQ_FILTER } from './log-engine-filter';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const med = (v: number[]) => summarize(v).median.toFixed(0);

interface EngineRun {
  ms: number;
  kept: number;
  duplicates: number;
  skipped: number;
  matched: number;
  statsRecords: number;
  mainBusyMs: number;
  workerBusyMs: number;
  cpuMs: number;
  insertMs: number;
  statsMs: number;
}

function engineRun(manifest: string): EngineRun {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/log-engine-run.ts', manifest], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`engine run failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as EngineRun;
}

function jqRun(ndjson: string): { ms: number; matched: number } {
  const started = performance.now();
  const r = spawnSync('jq', ['-c', JQ_FILTER, ndjson], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`jq failed: ${r.stderr}`);
  return { ms, matched: r.stdout.split('\n').filter((l) => l !== '').length };
}

export const logEngineBench: Bench = {
  id: 'log-engine',
  async run(): Promise<BenchResult[]> {
    const data = logData();
    const manifest = path.join(data.dir, 'manifest.json');
    const burrow: number[] = [];
    const reference: number[] = [];
    let last: EngineRun | null = null;
    let jqMatched = 0;
    const runs: EngineRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      last = engineRun(manifest);
      if (last.kept !== data.records || last.duplicates !== data.rows - data.records || last.statsRecords !== data.records) {
        throw new Error(`the engine kept ${last.kept} records (${last.duplicates} duplicates); expected ${data.records} (${data.rows - data.records})`);
      }
      burrow.push(data.records / (last.ms / 1000));
      runs.push(last);
      const jq = jqRun(data.ndjson);
      jqMatched = jq.matched;
      reference.push(data.records / (jq.ms / 1000));
    }
    const b = summarize(burrow);
    const r = summarize(reference);
    const mb = (data.bytes / 2 ** 20).toFixed(0);
    return [
      {
        name: 'log engine throughput',
        method:
          `${data.records.toLocaleString('en')} distinct records in ${data.pages.length} v2 pages of 10,000 (each repeating the last 1,000 of the one before, as overlapping polls do; ${mb} MiB of JSON exactly as the emulator's v2 route writes it), ` +
          'read from disk as bytes and handed one after the other to the engine: LogPageReader (a worker thread parses big pages), the page envelope check, LogBuffer.insert (dedupe by request id, ordered insert, capacity 1,000,000), ' +
          `LogStats.add of the kept records (the stats panel), and the filter ${JSON.stringify({ status: '5xx,404' })} on each kept record; a fresh process per run, timed inside it. ` +
          `Reference: \`jq -c '${JQ_FILTER}'\` over the same ${data.rows.toLocaleString('en')} rows as NDJSON (no dedupe, no stats), from spawn to exit. Rates are distinct records per second for both; ${RUNS} runs, alternating.`,
        unit: 'records/s',
        burrow: b,
        reference: { name: 'jq', summary: r },
        budget: '>= 3x reference',
        pass: b.median >= 3 * r.median,
        notes: [
          `last run: ${last?.kept} kept, ${last?.duplicates} duplicates refused, ${last?.matched} matching the filter (jq printed ${jqMatched} matching rows, duplicates included)`,
          `medians per run: wall ${med(runs.map((x) => x.ms))} ms, CPU of all threads ${med(runs.map((x) => x.cpuMs))} ms, main thread busy ${med(runs.map((x) => x.mainBusyMs))} ms ` +
            `(LogBuffer.insert ${med(runs.map((x) => x.insertMs))} ms, LogStats.add ${med(runs.map((x) => x.statsMs))} ms), page reader worker busy ${med(runs.map((x) => x.workerBusyMs))} ms`,
        ],
      },
    ];
  },
};
