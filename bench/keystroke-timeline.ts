import { startEmulatorChild } from './lib/emulator-child';
import { startConsole } from './lib/console-run';
import { keyFrames, readFrameLog } from './lib/frame-log';
import { openFullLogs, type PtyRun } from './lib/pty-screen';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

// The keystroke benchmark's logs case with the timeline panel open (a case of its own, beside
// bench/keystroke.ts): the table scrolled with the panel drawn, then the panel's own keys.

const ROUNDS = Number(process.env.BENCH_KEY_ROUNDS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const epoch = () => performance.timeOrigin + performance.now();

const KEYS: Record<string, string> = {
  up: 'k',
  down: 'j',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  top: 'g',
  left: '\x1b[D',
  right: '\x1b[C',
  enter: '\r',
  tab: '\t',
};
const key = (k: string) => KEYS[k] ?? k;

/** Table keys (scrolling), measured with the panel closed and then open, so the two compare on the same machine and load. */
const TABLE = ['up', 'up', 'down', 'pageUp', 'pageDown', 'top', 'down', 'down'];
/** The panel's own keys: cursor, zoom, jump. */
const PANEL = ['left', 'left', 'left', '+', '+', '-', 'right', 'enter', '-'];

async function press(run: PtyRun, keys: string[]): Promise<void> {
  for (const k of keys) {
    run.pty.write(key(k));
    await sleep(150 + Math.random() * 100);
  }
}

function result(name: string, what: string, keys: string[], log: string, from: number, to: number): BenchResult {
  const { frames, unanswered } = keyFrames(readFrameLog(log), from);
  const inRun = frames.filter((f) => f.keyAt <= to);
  const b = summarize(inRun.map((f) => f.frameAt - f.keyAt));
  const build = summarize(inRun.map((f) => f.buildMs));
  const worst = [...inRun].sort((x, y) => y.frameAt - y.keyAt - (x.frameAt - x.keyAt)).slice(0, 3);
  return {
    name,
    method: `The console (built binary, 120x40 pseudo-terminal) with BURROW_FRAME_LOG set: for each key, from when Ink read it to when the first frame after it was built. \`:logs\` of the busiest zone with the 1 h window (100,000-record buffer, emulator at 40 records/s), paused; ${what}; keys ${keys.join(' ')} sent ${ROUNDS} times, 150-250 ms apart, after one warm-up round.`,
    unit: 'ms',
    burrow: b,
    budget: 'p95 <= 16 ms',
    pass: b.p95 <= 16,
    notes: [
      `${inRun.length} keys measured${unanswered ? `, ${unanswered} left out (no frame before the next key)` : ''}; Ink's own time to build the frame: median ${build.median.toFixed(1)} ms, p95 ${build.p95.toFixed(1)} ms`,
      `slowest: ${worst.map((w) => `${JSON.stringify(w.key)} ${(w.frameAt - w.keyAt).toFixed(1)} ms`).join(', ')}`,
    ],
  };
}

async function rounds(run: PtyRun, keys: string[]): Promise<{ from: number; to: number }> {
  await press(run, keys); // warm-up, not counted
  const from = epoch();
  for (let i = 0; i < ROUNDS; i++) await press(run, keys);
  await sleep(500);
  return { from, to: epoch() };
}

export const keystrokeTimelineBench: Bench = {
  id: 'keystroke-timeline',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulatorChild(['--log-rate', '40']);
    const { run, log, close } = startConsole(emu.info, 'timeline', 100_000);
    try {
      await openFullLogs(run, emu.info.pullZoneIds[0]!);
      run.pty.write('p');
      await run.waitFor(/paused/);
      await sleep(1000);
      const closed = await rounds(run, TABLE);
      run.pty.write('T');
      await run.waitFor(/▶ timeline · \d+[smh] buckets/);
      run.pty.write('\t');
      await run.waitFor(/ {2}timeline · \d+[smh] buckets/);
      const open = await rounds(run, TABLE);
      run.pty.write('\t');
      await run.waitFor(/▶ timeline · \d+[smh] buckets/);
      const panel = await rounds(run, PANEL);
      if (!/of (99|100),\d{3}/.test(run.screen()) || !/timeline · \d+[smh] buckets/.test(run.screen()))
        throw new Error(`the logs screen or its timeline is gone:\n${run.screen()}`);
      return [
        result(
          'keystroke latency: logs table, timeline closed (same run)',
          'table keys with the timeline closed (the reference for the two rows below)',
          TABLE,
          log,
          closed.from,
          closed.to,
        ),
        result(
          'keystroke latency: logs table, timeline open',
          'the same table keys with the timeline panel open above the table (T, then tab: the table has the keys)',
          TABLE,
          log,
          open.from,
          open.to,
        ),
        result(
          "keystroke latency: the timeline's own keys",
          "the timeline's keys while it has them: cursor, zoom, jump (enter moves the table too)",
          PANEL,
          log,
          panel.from,
          panel.to,
        ),
      ];
    } finally {
      close();
      await emu.stop();
    }
  },
};
