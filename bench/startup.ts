import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startEmulator } from '../src/emulator/server';
import { runInPty } from './lib/pty-screen';
import { summarize, type Summary } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
/** The first complete frame: the home screen's title and the key-hint line are both drawn. */
const FIRST_FRAME = /Screens[\s\S]*q quit/;

/**
 * burrow and `node -e 0` run with the same environment. This machine sets NODE_EXTRA_CA_CERTS,
 * which node reads at every start (about 30 ms); both are measured with it as set, and the
 * reference is also reported without it.
 */
function environment(cacheHome: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: cacheHome,
    XDG_CACHE_HOME: path.join(cacheHome, 'cache'),
    LANG: 'C.UTF-8',
    ...extra,
  };
  if (process.env.NODE_EXTRA_CA_CERTS) env.NODE_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Spawn to exit (asynchronously: the emulator answering `get` runs in this process). */
function timeProcess(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const took = performance.now() - started;
      if (code === 0) resolve(took);
      else reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

/** One request on a new connection, as the CLI makes it: the round trip the budget allows for. */
function roundTrip(url: string, accessKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { AccessKey: accessKey, Accept: 'application/json' }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
  });
}

const ratio = (a: Summary, b: Summary) => a.median / b.median;

export const startupBench: Bench = {
  id: 'startup',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulator({ port: 0, logRate: 1 });
    const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-startup-'));
    const env = environment(cacheHome, { BURROW_API_KEY: emu.info.accessKey, BURROW_BASE_URL: emu.info.baseUrl, BURROW_LOGGING_URL: emu.info.loggingUrl });
    const { NODE_EXTRA_CA_CERTS: _ca, ...envWithoutCa } = env;
    const series = {
      console: [] as number[],
      get: [] as number[],
      version: [] as number[],
      help: [] as number[],
      node: [] as number[],
      nodeNoCa: [] as number[],
      rtt: [] as number[],
    };
    try {
      for (let i = 0; i < RUNS + 1; i++) {
        const started = performance.now();
        const run = runInPty(process.execPath, ['bin/burrow.js'], env, 120, 40);
        const at = await run.waitFor(FIRST_FRAME);
        // the code cache is written a second after start-up (only by a run that found none)
        if (i === 0) await new Promise((r) => setTimeout(r, 1500));
        run.kill();
        await new Promise((r) => run.pty.onExit(() => r(undefined)));
        const get = await timeProcess(['bin/burrow.js', 'get', 'limits', '-o', 'json'], env);
        const version = await timeProcess(['bin/burrow.js', '--version'], env);
        const help = await timeProcess(['bin/burrow.js', '--help'], env);
        const node = await timeProcess(['-e', '0'], env);
        const nodeNoCa = await timeProcess(['-e', '0'], envWithoutCa);
        const rtt = await roundTrip(`${emu.info.baseUrl}/mc/limits`, emu.info.accessKey);
        // the first round warms the file cache and writes the code caches: not counted
        if (i === 0) continue;
        series.console.push(at - started);
        series.get.push(get);
        series.version.push(version);
        series.help.push(help);
        series.node.push(node);
        series.nodeNoCa.push(nodeNoCa);
        series.rtt.push(rtt);
      }
    } finally {
      await emu.close();
      fs.rmSync(cacheHome, { recursive: true, force: true });
    }
    const s = Object.fromEntries(Object.entries(series).map(([k, v]) => [k, summarize(v)])) as Record<keyof typeof series, Summary>;
    const reference = { name: 'node -e 0', summary: s.node };
    const sameEnv = process.env.NODE_EXTRA_CA_CERTS
      ? `burrow and node -e 0 both with this machine's NODE_EXTRA_CA_CERTS (node -e 0 without it: ${s.nodeNoCa.median.toFixed(1)} ms)`
      : 'burrow and node -e 0 with the same environment';
    const warm = `${RUNS} runs after one that warms the file cache and writes burrow's code cache; ${sameEnv}.`;
    const getBudget = 2 * s.node.median + s.rtt.median;
    return [
      {
        name: 'start-up to first complete frame',
        method: `\`burrow\` with credentials for an already-running emulator, in a 120x40 pseudo-terminal, from spawn to the first frame showing the home screen and the key hints (read through a headless xterm); reference: \`node -e 0\` from spawn to exit. ${warm}`,
        unit: 'ms',
        burrow: s.console,
        reference,
        budget: '<= 2.5x reference',
        pass: ratio(s.console, s.node) <= 2.5,
      },
      {
        name: '`burrow get limits -o json`, spawn to exit',
        method: `against the running emulator, stdout to a pipe; budget: 2x \`node -e 0\` plus one request's round trip on a new connection measured in the same run (median ${s.rtt.median.toFixed(1)} ms, so ${getBudget.toFixed(0)} ms). ${warm}`,
        unit: 'ms',
        burrow: s.get,
        reference,
        budget: '<= 2x reference + 1 round trip',
        pass: s.get.median <= getBudget,
      },
      {
        name: '`burrow --version`, spawn to exit',
        method: `stdout to a pipe. ${warm}`,
        unit: 'ms',
        burrow: s.version,
        reference,
        budget: '<= 1.3x reference',
        pass: ratio(s.version, s.node) <= 1.3,
      },
      {
        name: '`burrow --help`, spawn to exit',
        method: `stdout to a pipe. ${warm}`,
        unit: 'ms',
        burrow: s.help,
        reference,
        budget: '<= 1.3x reference',
        pass: ratio(s.help, s.node) <= 1.3,
      },
    ];
  },
};
