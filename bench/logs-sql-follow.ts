import { startEmulatorChild } from './lib/emulator-child';
import { startConsole } from './lib/console-run';
import { keyFrames, readFrameLog } from './lib/frame-log';
import { openFullLogs, type PtyRun } from './lib/pty-screen';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const ROUNDS = Number(process.env.BENCH_KEY_ROUNDS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const epoch = () => performance.timeOrigin + performance.now();

/** Moving through the followed records, a local regex typed and cleared, back to following. */
const ROUND = ['k', 'k', 'k', 'j', 'j', '\x1b[5~', '\x1b[6~', 'g', 'j', '/', 'c', 's', 's', '\r', 'n', 'N', '\x1b', 'G'];

async function press(run: PtyRun, sent: { key: string; at: number }[]): Promise<void> {
  for (const k of ROUND) {
    sent.push({ key: k, at: epoch() });
    run.pty.write(k);
    await sleep(150 + Math.random() * 100);
  }
}

/** Key read -> first frame after it, for the keys sent since `from`. */
async function measure(run: PtyRun, log: string): Promise<{ latencies: number[]; keys: number }> {
  await press(run, []); // warm-up, not counted
  const from = epoch();
  const sent: { key: string; at: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) await press(run, sent);
  await sleep(500);
  const { frames } = keyFrames(readFrameLog(log), from);
  return { latencies: frames.map((f) => f.frameAt - f.keyAt), keys: sent.length };
}

/**
 * The logs screen's keystrokes while the `logs` table is kept current: the console follows the
 * busiest zone at 1000 records/s (100,000-record buffer), first as it is, then after `Q` opened
 * the SQL shell once and esc came back (from then on the table follows the buffer every second).
 */
export const logsSqlFollowBench: Bench = {
  id: 'logs-sql-follow',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulatorChild(['--log-rate', '1000']);
    const { run, log, close } = startConsole(emu.info, 'logs-sql-follow', 100_000);
    try {
      await openFullLogs(run, emu.info.pullZoneIds[0]!);
      // both rounds come back to the logs screen from another screen first: coming back resumes
      // the follow (5 minutes fetched again and deduped), which is not the table's work
      const detour = async (there: string[], shown: RegExp) => {
        for (const part of there) {
          run.pty.write(part);
          await sleep(200);
        }
        await run.waitFor(shown, 60_000);
        run.pty.write('\x1b');
        await run.waitFor(/● following/, 10_000);
        await sleep(8000);
      };
      await detour([':', 'lb', '\r'], /› load balancers/);
      const without = await measure(run, log);

      await detour(['Q'], /logs as of \d\d:\d\d:\d\d, (99|100),\d{3} rows/);
      const withTable = await measure(run, log);
      // the table kept up meanwhile: back in the shell, its header is current at once
      run.pty.write('Q');
      await run.waitFor(/logs as of \d\d:\d\d:\d\d, (99|100),\d{3} rows/, 10_000);

      const b = summarize(withTable.latencies);
      const ref = summarize(without.latencies);
      process.stderr.write(
        `  with the table: median ${b.median.toFixed(1)} p95 ${b.p95.toFixed(1)} (${withTable.latencies.length} keys); without: median ${ref.median.toFixed(1)} p95 ${ref.p95.toFixed(1)} (${without.latencies.length} keys)\n`,
      );
      return [
        {
          name: 'logs in SQL: logs screen keystrokes while the logs table follows',
          method: `The console (built binary, 120x40 pty, BURROW_FRAME_LOG) following the busiest zone of \`burrow emulator --log-rate 1000\` with a 100,000-record buffer (1 h window, full): keys ${ROUND.map((k) => JSON.stringify(k)).join(' ')} sent ${ROUNDS} times 150-250 ms apart after a warm-up round; latency from Ink reading a key to the first frame after it. Measured after Q opened the SQL shell once and esc came back (8 s later), so the logs table is synced with the buffer every second meanwhile; reference: the same keys before Q was ever pressed, after a detour through :lb (leaving and coming back resumes the follow in both).`,
          unit: 'ms',
          burrow: b,
          reference: { name: 'no logs table', summary: ref },
          budget: 'p95 <= 16 ms',
          pass: b.p95 <= 16,
          notes: [
            `reference p95 ${ref.p95.toFixed(1)} ms`,
            `${withTable.latencies.length} of ${withTable.keys} keys answered by a frame before the next key (without the table: ${without.latencies.length} of ${without.keys})`,
          ],
        },
      ];
    } finally {
      close();
      await emu.stop();
    }
  },
};
