import fs from 'node:fs';
import { startEmulatorChild } from './lib/emulator-child';
import { startConsole } from './lib/console-run';
import { keyFrames, readFrameLog, type KeyFrame } from './lib/frame-log';
import { openFullLogs, type PtyRun } from './lib/pty-screen';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const ROUNDS = Number(process.env.BENCH_KEY_ROUNDS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const epoch = () => performance.timeOrigin + performance.now();

const KEYS: Record<string, string> = {
  up: 'k',
  down: 'j',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  top: 'g',
  bottom: 'G',
  left: 'h',
  right: 'l',
  enter: '\r',
  esc: '\x1b',
};
const key = (k: string) => KEYS[k] ?? k;

/** Scroll, then a local regex typed, applied over every buffered record, stepped through and cleared. */
const LOGS_ROUND = [
  'up',
  'up',
  'up',
  'down',
  'down',
  'pageUp',
  'pageDown',
  'pageUp',
  'top',
  'down',
  'down',
  'up',
  '/',
  'c',
  's',
  's',
  'enter',
  'n',
  'n',
  'N',
  'esc',
];
/** Up and down, by page, to the ends, and sideways through the columns. */
const TABLE_ROUND = ['down', 'down', 'down', 'up', 'pageDown', 'pageDown', 'pageUp', 'bottom', 'up', 'top', 'right', 'right', 'left'];

/** Sends keys one at a time, 150-250 ms apart (a frame has long been drawn by then), noting when each was written. */
async function press(run: PtyRun, keys: string[], sent: { key: string; at: number }[]): Promise<void> {
  for (const k of keys) {
    sent.push({ key: key(k), at: epoch() });
    run.pty.write(key(k));
    await sleep(150 + Math.random() * 100);
  }
}

interface Scenario {
  frames: KeyFrame[];
  unanswered: number;
  /** Bench write -> frame written (the terminal's view, pty included). */
  endToEnd: number[];
}

function measure(log: string, since: number, sent: { key: string; at: number }[]): Scenario {
  const { frames, unanswered } = keyFrames(readFrameLog(log), since);
  const endToEnd: number[] = [];
  for (const f of frames) {
    const s = [...sent].reverse().find((x) => x.at <= f.keyAt && x.key === f.key);
    if (s) endToEnd.push(f.frameAt - s.at);
  }
  return { frames, unanswered, endToEnd };
}

function result(name: string, method: string, s: Scenario): BenchResult {
  const lat = s.frames.map((f) => f.frameAt - f.keyAt);
  const b = summarize(lat);
  const e2e = summarize(s.endToEnd);
  const build = summarize(s.frames.map((f) => f.buildMs));
  const worst = [...s.frames].sort((a, b2) => b2.frameAt - b2.keyAt - (a.frameAt - a.keyAt)).slice(0, 3);
  return {
    name,
    method,
    unit: 'ms',
    burrow: b,
    budget: 'p95 <= 16 ms',
    pass: b.p95 <= 16,
    notes: [
      `${s.frames.length} keys measured${s.unanswered ? `, ${s.unanswered} left out (no frame before the next key)` : ''}; Ink's own time to build the frame: median ${build.median.toFixed(1)} ms, p95 ${build.p95.toFixed(1)} ms`,
      `from the benchmark's write to the pty to that frame (pty and event-loop wait included): median ${e2e.median.toFixed(1)} ms, p95 ${e2e.p95.toFixed(1)} ms`,
      `slowest: ${worst.map((w) => `${JSON.stringify(w.key)} ${(w.frameAt - w.keyAt).toFixed(1)} ms`).join(', ')}`,
    ],
  };
}

export const keystrokeBench: Bench = {
  id: 'keystroke',
  async run(): Promise<BenchResult[]> {
    // 40 records/s: the 1 h backfill fills the buffer, and few records are evicted while paused
    const emu = await startEmulatorChild(['--log-rate', '40']);
    // this row is the 100,000-record buffer (the default is 2,000,000: bench/log-store.ts measures that size)
    const { run, log, close } = startConsole(emu.info, 'keys', 100_000);
    try {
      // the logs of the busiest zone, one hour back: the backfill stops at the buffer's 100,000
      await openFullLogs(run, emu.info.pullZoneIds[0]!);
      run.pty.write('p');
      await run.waitFor(/paused/);
      await sleep(1000);
      const logsSent: { key: string; at: number }[] = [];
      await press(run, LOGS_ROUND, []); // warm-up, not counted
      await run.waitFor(/(newest|row [\d,]+) of (99|100),\d{3}/);
      const logsFrom = epoch();
      for (let i = 0; i < ROUNDS; i++) await press(run, LOGS_ROUND, logsSent);
      await sleep(500);
      const logs = measure(log, logsFrom, logsSent);
      const rowsShown = run
        .screen()
        .split('\n')
        .filter((l) => /^\d\d:\d\d:\d\d\.\d{3} \d{3} /.test(l)).length;
      if (!/of (99|100),\d{3}/.test(run.screen()) || rowsShown < 10) throw new Error(`the logs screen lost its records:\n${run.screen()}`);

      // a 1,000-row result in the SQL shell, browsed
      run.pty.write(':');
      await sleep(200);
      run.pty.write('sql');
      await sleep(200);
      run.pty.write('\r');
      await sleep(1500);
      run.pty.write('SELECT * FROM customers ORDER BY id LIMIT 1000;');
      await sleep(300);
      run.pty.write('\r');
      await run.waitFor(/1,000 rows/, 20_000);
      run.pty.write('\x1b');
      await run.waitFor(/rows 1–\d+ of 1,000/);
      const tableSent: { key: string; at: number }[] = [];
      await press(run, TABLE_ROUND, []);
      const tableFrom = epoch();
      for (let i = 0; i < ROUNDS; i++) await press(run, TABLE_ROUND, tableSent);
      await sleep(500);
      const table = measure(log, tableFrom, tableSent);
      if (!/of 1,000/.test(run.screen())) throw new Error(`the SQL results are gone:\n${run.screen()}`);

      const how = (what: string, keys: string[]) =>
        `The console (built binary, 120x40 pseudo-terminal) with BURROW_FRAME_LOG set: for each key, from when Ink read it to when the first frame after it was built (Ink's onRender; the frame is written in the same tick). ${what}; keys ${keys.join(' ')} sent ${ROUNDS} times, 150-250 ms apart, after one warm-up round.`;
      return [
        result(
          'keystroke latency: logs, 100,000 records',
          how(
            '`:logs` of the busiest zone with the 1 h window (the backfill fills a 100,000-record buffer, logBufferSize 100000 in its config file; emulator at 40 records/s), paused: scrolling, then a local regex typed, applied to every record, stepped through, cleared',
            LOGS_ROUND,
          ),
          logs,
        ),
        result(
          'keystroke latency: 1,000-row table',
          how('`:sql`, `SELECT * FROM customers ORDER BY id LIMIT 1000`, esc to browse the result (1,000 rows, 8 columns)', TABLE_ROUND),
          table,
        ),
      ];
    } finally {
      // BENCH_FRAME_LOG_COPY=FILE keeps the frame log for a closer look
      if (process.env.BENCH_FRAME_LOG_COPY && fs.existsSync(log)) fs.copyFileSync(log, process.env.BENCH_FRAME_LOG_COPY);
      close();
      await emu.stop();
    }
  },
};
