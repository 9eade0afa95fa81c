import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSession } from '../src/api/database/index';
import { burrowEnv, startEmulatorChild } from './lib/emulator-child';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RUNS = Number(process.env.BENCH_EXPORT_1M_RUNS ?? 3);
const ROWS = 1_000_000;
const QUERY = 'SELECT * FROM bench_big ORDER BY id';

/** Six columns, about 100 bytes of CSV a row: the whole result is about 100 MB. */
function seedSql(): string[] {
  const stmts = ['CREATE TABLE bench_big (id INTEGER PRIMARY KEY, email TEXT, amount REAL, token TEXT, status TEXT, created TEXT)'];
  const step = 100_000;
  for (let from = 1; from <= ROWS; from += step) {
    stmts.push(
      `INSERT INTO bench_big SELECT x, printf('customer-%08d@example.com', x), x * 0.37, hex(randomblob(12)), ` +
        `CASE x % 3 WHEN 0 THEN 'shipped' WHEN 1 THEN 'pending' ELSE 'cancelled' END, datetime(1700000000 + x, 'unixepoch') ` +
        `FROM (WITH RECURSIVE c(x) AS (SELECT ${from} UNION ALL SELECT x + 1 FROM c WHERE x < ${from + step - 1}) SELECT x FROM c)`,
    );
  }
  return stmts;
}

/** Peak resident memory of a running process (Linux VmHWM), in MiB; null once it is gone. */
function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Spawn to exit of the binary writing CSV to a file, with its peak RSS sampled every 10 ms. */
function exportOnce(env: Record<string, string>, file: string): Promise<{ ms: number; peakMiB: number; code: number | null; stderr: string }> {
  const out = fs.openSync(file, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/burrow.js', 'sql', '-e', QUERY, '-o', 'csv'], {
    stdio: ['ignore', out, 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let peak = 0;
  const sampler = setInterval(() => {
    const v = child.pid === undefined ? null : peakRss(child.pid);
    if (v !== null) peak = Math.max(peak, v);
  }, 10);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(sampler);
      const ms = performance.now() - started;
      fs.closeSync(out);
      resolve({ ms, peakMiB: peak, code, stderr });
    }),
  );
}

/** Counts lines and checks the first and last without holding the 100 MB file in memory. */
async function checkFile(file: string): Promise<{ lines: number; first: string; last: string; bytes: number }> {
  let lines = 0;
  let first = '';
  let tail = '';
  for await (const chunk of fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = chunk as string;
    if (lines === 0 && first === '') first = text.slice(0, text.indexOf('\n'));
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    tail = (tail + text).slice(-200);
  }
  const rows = tail.trimEnd().split('\n');
  return { lines, first, last: rows[rows.length - 1]!, bytes: fs.statSync(file).size };
}

export const sqlExport1mBench: Bench = {
  id: 'sql-export-1m',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulatorChild(['--statement-timeout', '60s']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-export-1m-'));
    try {
      const setup = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
      const seeded = await setup.run(seedSql());
      if (seeded.failed) throw seeded.failed.error;
      await setup.close();
      const env = burrowEnv(emu.info);
      const file = path.join(dir, 'export.csv');
      const times: number[] = [];
      const peaks: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS + 1; i++) {
        const r = await exportOnce(env, file);
        if (r.code !== 0) throw new Error(`burrow sql exited ${r.code}: ${r.stderr}`);
        const f = await checkFile(file);
        if (f.lines !== ROWS + 1 || f.first !== 'id,email,amount,token,status,created' || !f.last.startsWith(`${ROWS},customer-`)) {
          throw new Error(`the export has ${f.lines} lines (want ${ROWS + 1}); first: ${f.first}; last: ${f.last}`);
        }
        bytes = f.bytes;
        if (i > 0) {
          times.push(r.ms);
          peaks.push(r.peakMiB);
        }
      }
      const t = summarize(times);
      const m = summarize(peaks);
      const method = `\`burrow sql -e "${QUERY}" -o csv > file\` (the built binary, 1,000,000 rows of 6 columns, ${(bytes / 2 ** 20).toFixed(1)} MiB of CSV, through /v3/cursor) against \`burrow emulator\` in its own process, from spawn to exit, the file checked after each run; ${RUNS} runs after one warm-up.`;
      return [
        { name: 'SQL export, 1,000,000 rows to CSV (time)', method, unit: 'ms', burrow: t, budget: '<= 10000 ms', pass: t.median <= 10_000 },
        {
          name: 'SQL export, 1,000,000 rows to CSV (peak RSS)',
          method: `${method} Peak resident memory of the burrow process (Linux VmHWM, sampled every 10 ms).`,
          unit: 'MiB',
          burrow: m,
          budget: '<= 200 MiB',
          pass: m.median <= 200,
        },
      ];
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await emu.stop();
    }
  },
};
