import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator } from '../src/emulator/server';
import { loggingStats } from '../src/emulator/logging/index';
import { burrowEnv } from './lib/emulator-child';
import { readFrameLog } from './lib/frame-log';
import { openLogs, runInPty } from './lib/pty-screen';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const SECONDS = Number(process.env.BENCH_FOLLOW_SECONDS ?? 60);
const RUNS = Number(process.env.BENCH_FOLLOW_RUNS ?? 2);
const RATE = 50;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ROW_TIME = /^(\d\d):(\d\d):(\d\d)\.(\d{3}) \d{3} /;

interface Session {
  bytesPerSecond: number;
  framesPerSecond: number;
  /** now - time of the newest record on screen, sampled every second (ms). */
  lags: number[];
  maxRequestsIn10s: number;
  requests: number;
}

/** The newest record on screen (the last row while following), as epoch ms today (UTC). */
function newestShown(screen: string, now: number): number | null {
  let newest: number | null = null;
  for (const line of screen.split('\n')) {
    const m = ROW_TIME.exec(line);
    if (!m) continue;
    const d = new Date(now);
    let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), +m[1]!, +m[2]!, +m[3]!, +m[4]!);
    if (t - now > 12 * 3_600_000) t -= 86_400_000;
    if (newest === null || t > newest) newest = t;
  }
  return newest;
}

/** One console following the busiest zone for SECONDS, after the backfill. */
async function session(extraEnv: Record<string, string>): Promise<Session> {
  // in this process, so the server's request counters can be read; the console is its own process
  const emu = await startEmulator({ port: 0, logRate: RATE });
  const zone = emu.info.pullZoneIds[0]!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-follow-'));
  const log = path.join(dir, 'frames.log');
  const run = runInPty(process.execPath, ['bin/burrow.js'], { ...burrowEnv(emu.info), BURROW_FRAME_LOG: log, HOME: dir, ...extraEnv }, 120, 40);
  try {
    await openLogs(run, zone);
    await sleep(5000); // the first polls after the backfill
    const stats = loggingStats(emu.world);
    const acceptedBefore = stats.zone(zone).accepted;
    const bytes0 = run.bytes();
    const started = Date.now();
    const t0 = performance.timeOrigin + performance.now();
    const lags: number[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      await sleep(1000);
      const now = Date.now();
      const shown = newestShown(run.screen(), now);
      if (shown !== null) lags.push(now - shown);
    }
    const elapsed = (Date.now() - started) / 1000;
    const bytes = run.bytes() - bytes0;
    const t1 = performance.timeOrigin + performance.now();
    await sleep(400); // the frame log is flushed every 250 ms
    const frames = readFrameLog(log).filter((e) => e.kind === 'render' && e.t >= t0 && e.t <= t1).length;
    const z = stats.zone(zone);
    const inRun = z.acceptedAt.filter((t) => t >= started);
    let maxIn10 = 0;
    for (let i = 0, j = 0; i < z.acceptedAt.length; i++) {
      while (z.acceptedAt[j]! <= z.acceptedAt[i]! - 10_000) j++;
      maxIn10 = Math.max(maxIn10, i - j + 1);
    }
    if (!/● following/.test(run.screen())) throw new Error(`the console stopped following:\n${run.screen()}`);
    return {
      bytesPerSecond: bytes / elapsed,
      framesPerSecond: frames / elapsed,
      lags,
      maxRequestsIn10s: maxIn10,
      requests: z.accepted - acceptedBefore || inRun.length,
    };
  } finally {
    run.kill();
    // the console saves its session as it exits: its home goes once it is gone (at most 10 s)
    await Promise.race([run.exited, sleep(10_000)]);
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
  }
}

export const followBench: Bench = {
  id: 'follow',
  async run(): Promise<BenchResult[]> {
    const local: Session[] = [];
    const ssh: Session[] = [];
    for (let i = 0; i < RUNS; i++) {
      local.push(await session({}));
      ssh.push(await session({ SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22' }));
    }
    const all = [...local, ...ssh];
    const kb = (s: Session[]) => summarize(s.map((x) => x.bytesPerSecond / 1024));
    const fps = (s: Session[]) => summarize(s.map((x) => x.framesPerSecond)).median.toFixed(1);
    const lags = summarize(all.flatMap((s) => s.lags).map((ms) => ms / 1000));
    const requests = summarize(all.map((s) => s.maxRequestsIn10s));
    const setup = `\`:logs\` of the busiest zone in the console (built binary, 120x40 pseudo-terminal, BURROW_FRAME_LOG on), emulator at ${RATE} records/s for that zone (4-minute episodes from 0.1x to 5x) with its default ingestion delay (0-20 s), following for ${SECONDS} s after the backfill and 5 s of polls; ${RUNS} sessions each`;
    return [
      {
        name: 'bytes to the terminal, following (local)',
        method: `${setup}; bytes the console wrote to the pty per second (read through node-pty).`,
        unit: 'KB/s',
        burrow: kb(local),
        budget: '<= 30 KB/s',
        pass: kb(local).median <= 30,
        notes: [`${fps(local)} frames/s (median of sessions)`],
      },
      {
        name: 'bytes to the terminal, following (over SSH)',
        method: `The same with SSH_CONNECTION set (frame rate capped at 15/s instead of 30/s).`,
        unit: 'KB/s',
        burrow: kb(ssh),
        budget: '<= 30 KB/s',
        pass: kb(ssh).median <= 30,
        notes: [`${fps(ssh)} frames/s (median of sessions)`],
      },
      {
        name: 'polling freshness (newest shown record behind the clock)',
        method: `${setup}: every second, now minus the time of the newest record on screen. Most of it is the emulator's ingestion delay (a record becomes visible 0-20 s after its time); the rest is the poll cadence (1 s after a poll that found records) and the frame.`,
        unit: 's',
        burrow: lags,
        pass: null,
        notes: [`${lags.n} samples over ${all.length} sessions`],
      },
      {
        name: 'log requests per 10 s per zone (server count)',
        method: `${setup}: the most requests the emulator accepted for the zone in any 10 s window of the session, backfill included (the platform allows 30; burrow budgets 28).`,
        unit: 'requests',
        burrow: requests,
        budget: '<= 30',
        pass: requests.max <= 30,
        notes: [`requests in the measured ${SECONDS} s: ${all.map((s) => s.requests).join(', ')}`],
      },
    ];
  },
};
