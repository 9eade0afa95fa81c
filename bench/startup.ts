import { spawnSync } from 'node:child_process';
import { startEmulator } from '../src/emulator/server';
import { runInPty } from './lib/pty-screen';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
/** The first complete frame: the home screen's title and the key-hint line are both drawn. */
const FIRST_FRAME = /Screens[\s\S]*q quit/;

export const startupBench: Bench = {
  id: 'startup',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulator({ port: 0, logRate: 1 });
    const env = { BURROW_API_KEY: emu.info.accessKey, BURROW_BASE_URL: emu.info.baseUrl, BURROW_LOGGING_URL: emu.info.loggingUrl };
    const burrow: number[] = [];
    const reference: number[] = [];
    try {
      for (let i = 0; i < RUNS + 1; i++) {
        const started = performance.now();
        const run = runInPty(process.execPath, ['bin/burrow.js'], env, 120, 40);
        const at = await run.waitFor(FIRST_FRAME);
        run.kill();
        await new Promise((r) => run.pty.onExit(() => r(undefined)));
        const refStart = performance.now();
        spawnSync(process.execPath, ['-e', '0']);
        const ref = performance.now() - refStart;
        if (i > 0) {
          // the first run warms the file cache and is not counted
          burrow.push(at - started);
          reference.push(ref);
        }
      }
    } finally {
      await emu.close();
    }
    const b = summarize(burrow);
    const r = summarize(reference);
    return [
      {
        name: 'start-up to first complete frame',
        method: `\`burrow\` with credentials for an already-running emulator, in a 120x40 pseudo-terminal, from spawn to the first frame showing the home screen and the key hints (read through a headless xterm); reference: \`node -e 0\` from spawn to exit. ${RUNS} runs after one warm-up.`,
        unit: 'ms',
        burrow: b,
        reference: { name: 'node -e 0', summary: r },
        budget: '<= 300 ms and <= 5x reference',
        pass: b.median <= 300 && b.median <= 5 * r.median,
      },
    ];
  },
};
