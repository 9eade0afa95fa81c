import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logData } from './lib/log-data';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';
import { JQ_FILTER, LNAV_QUERY } from './log-engine-filter';
import { BACKFILL_DEPTH } from '../src/log-engine/follow-options';

/** lnav with the records' JSON format installed in a home of its own; null when lnav is not installed. */
function lnavHome(): string | null {
  if (spawnSync('lnav', ['-V'], { encoding: 'utf8' }).status !== 0) return null;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-lnav-'));
  const r = spawnSync('lnav', ['-i', path.resolve('bench/lnav/burrow_cdn_log.json')], { encoding: 'utf8', env: { ...process.env, HOME: home } });
  if (r.status !== 0) throw new Error(`lnav could not install the format: ${r.stderr}${r.stdout}`);
  return home;
}

function lnavRun(home: string, ndjson: string): { ms: number; matched: number } {
  const started = performance.now();
  const r = spawnSync('lnav', ['-n', '-c', LNAV_QUERY, '-c', ':write-csv-to -', ndjson], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home },
    maxBuffer: 1 << 20,
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`lnav failed: ${r.stderr}`);
  return { ms, matched: Number(r.stdout.trim().split('\n').pop()) };
}

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
  /** CPU of the main thread alone (Linux; NaN elsewhere). */
  mainCpuMs: number;
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
    const home = lnavHome();
    const lnav: number[] = [];
    let lnavMatched = 0;
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
      if (home) {
        const l = lnavRun(home, data.ndjson);
        lnavMatched = l.matched;
        lnav.push(data.records / (l.ms / 1000));
      }
    }
    if (home) fs.rmSync(home, { recursive: true, force: true });
    const b = summarize(burrow);
    const r = summarize(reference);
    const lnavRow: BenchResult[] = lnav.length
      ? [
          {
            name: 'log engine throughput (lnav reference)',
            method: `The same engine runs as the row above; reference: \`lnav -n\` with a JSON log format for these records (bench/lnav/burrow_cdn_log.json) counting the same filter in SQL over the same NDJSON rows, from spawn to exit (${lnav.length} runs, alternating with the others).`,
            unit: 'records/s',
            burrow: b,
            reference: { name: 'lnav', summary: summarize(lnav) },
            pass: null,
            notes: [`lnav counted ${lnavMatched} matching rows (duplicates included)`],
          },
        ]
      : [];
    const mb = (data.bytes / 2 ** 20).toFixed(0);
    return [
      {
        name: 'log engine throughput',
        method:
          `${data.records.toLocaleString('en')} distinct records in ${data.pages.length} v2 pages of 10,000 (each repeating the last 1,000 of the one before, as overlapping polls do; ${mb} MiB of JSON exactly as the emulator's v2 route writes it), ` +
          `read from disk as bytes and handed one after the other to the engine, ${BACKFILL_DEPTH} on their way at once as in the follow engine's backfill: LogPageReader (a worker thread parses big pages into columns), the page envelope check, LogBuffer.insertBatch (the page's columns into the columnar store: dedupe by request id, ordered insert, capacity 1,000,000; no object per record), ` +
          `the statistics of the kept records read from the store's columns (the stats panel), and the filter ${JSON.stringify({ status: '5xx,404' })} on each kept record (compileSlotFilter: the status from its column); a fresh process per run, timed inside it. ` +
          `Reference: \`jq -c '${JQ_FILTER}'\` over the same ${data.rows.toLocaleString('en')} rows as NDJSON (no dedupe, no stats), from spawn to exit. Rates are distinct records per second for both; ${RUNS} runs, alternating.`,
        unit: 'records/s',
        burrow: b,
        reference: { name: 'jq', summary: r },
        budget: '>= 5x reference',
        pass: b.median >= 5 * r.median,
        notes: [
          ...(home ? [] : ['lnav is not installed: its reference row is skipped (apt-get install lnav)']),
          `last run: ${last?.kept} kept, ${last?.duplicates} duplicates refused, ${last?.matched} matching the filter (jq printed ${jqMatched} matching rows, duplicates included)`,
          `medians per run: wall ${med(runs.map((x) => x.ms))} ms, CPU of all threads ${med(runs.map((x) => x.cpuMs))} ms, main thread busy ${med(runs.map((x) => x.mainBusyMs))} ms (its CPU ${med(runs.map((x) => x.mainCpuMs))} ms) ` +
            `(LogBuffer.insertBatch ${med(runs.map((x) => x.insertMs))} ms, statistics ${med(runs.map((x) => x.statsMs))} ms), page reader worker busy ${med(runs.map((x) => x.workerBusyMs))} ms`,
        ],
      },
      ...lnavRow,
    ];
  },
};
