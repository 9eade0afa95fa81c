import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { burrowEnv, startEmulatorChild } from './lib/emulator-child';
import { openFullLogs, runInPty } from './lib/pty-screen';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 3);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM of a process, in MB (10^6 bytes; Linux). */
function rss(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: (kb('VmRSS') * 1024) / 1e6, peak: (kb('VmHWM') * 1024) / 1e6 };
}

export const memoryBench: Bench = {
  id: 'memory',
  async run(): Promise<BenchResult[]> {
    if (!fs.existsSync('/proc/self/status')) throw new Error('the memory benchmark reads /proc (Linux)');
    const steady: number[] = [];
    const peaks: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const emu = await startEmulatorChild(['--log-rate', '40']);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-memory-'));
      // this row is the 100,000-record buffer (the default is 2,000,000: bench/log-store.ts measures that size)
      fs.mkdirSync(path.join(dir, '.config', 'burrow'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.config', 'burrow', 'config.yaml'), 'logBufferSize: 100000\n');
      const run = runInPty(process.execPath, ['bin/burrow.js'], { ...burrowEnv(emu.info), HOME: dir }, 120, 40);
      try {
        // the 1 h window fills the 100,000-record buffer; then the stats panel
        await openFullLogs(run, emu.info.pullZoneIds[0]!);
        run.pty.write('i');
        await run.waitFor(/HIT/);
        // following goes on (records in, the oldest out); sample for 20 s
        const samples: number[] = [];
        for (let s = 0; s < 10; s++) {
          await sleep(2000);
          samples.push(rss(run.pty.pid).rss);
        }
        if (!/(99|100),\d{3} buffered/.test(run.screen())) throw new Error(`the buffer is not full:\n${run.screen()}`);
        steady.push(summarize(samples).median);
        peaks.push(rss(run.pty.pid).peak);
      } finally {
        run.kill();
        await emu.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    const b = summarize(steady);
    return [
      {
        name: 'memory, 100,000 records and the stats panel',
        method: `The console (built binary, 120x40 pseudo-terminal) on \`:logs\` of the busiest zone with the 1 h window (emulator at 40 records/s: the backfill fills a 100,000-record buffer, logBufferSize 100000 in its config file), stats panel on (i), still following; VmRSS from /proc/PID/status every 2 s for 20 s, median per session; ${RUNS} sessions.`,
        unit: 'MB',
        burrow: b,
        budget: '<= 250 MB',
        pass: b.median <= 250,
        notes: [`peak resident (VmHWM) per session: ${peaks.map((p) => p.toFixed(0)).join(', ')} MB (the backfill's pages in flight)`],
      },
    ];
  },
};
