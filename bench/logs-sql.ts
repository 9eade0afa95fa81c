import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogBuffer } from '../src/log-engine/buffer';
import { NO_EXTENDED_FIELDS, type LogEntry } from '../src/api/logs/entry';
import { LogsSqlEngine } from '../src/logs-sql/engine';
import { LogsTableSync } from '../src/logs-sql/table-sync';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RECORDS = Number(process.env.BENCH_LOGS_SQL_RECORDS ?? 1_000_000);
const RUNS = 5;
const QUERY = 'SELECT status, country, count(*), sum(bytes) FROM logs GROUP BY 1, 2';

/** Records shaped like a busy zone's: a seeded generator, so every run loads the same rows. */
export function records(n: number): LogEntry[] {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const statuses = [200, 200, 200, 200, 206, 301, 304, 304, 404, 429, 500, 502, 503];
  const countries = ['DE', 'US', 'FR', 'GB', 'NL', 'JP', 'BR', 'IN', 'SG', 'AU', 'CA', 'PL'];
  const caches = ['HIT', 'HIT', 'HIT', 'MISS', 'BYPASS', 'EXPIRED', '-'];
  const start = Date.UTC(2026, 10, 24, 13, 0, 0);
  const out: LogEntry[] = [];
  for (let i = 0; i < n; i++) {
    const p = `/assets/${Math.floor(next() * 40_000)}.js`;
    out.push({
      timestamp: new Date(start + Math.floor((i * 3_600_000) / n)).toISOString(),
      pullZoneId: 1058,
      requestId: i.toString(16).padStart(32, '0'),
      cacheStatus: pick(caches),
      statusCode: pick(statuses),
      bytesSent: Math.floor(next() * 200_000),
      remoteIp: `198.51.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}`,
      countryCode: pick(countries),
      edgeLocation: pick(['DE', 'FR', 'NY', 'SG']),
      scheme: 'https',
      host: 'zone.b-cdn.net',
      path: p,
      url: `https://zone.b-cdn.net${p}`,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      referer: null,
      ...NO_EXTENDED_FIELDS,
    });
  }
  return out;
}

/** The same rows in sqlite3's command-line tool, in a plain table; the query timed by its own timer. */
function sqlite3QueryMs(rows: LogEntry[]): number[] | null {
  try {
    execFileSync('sqlite3', ['--version'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-bench-logs-sql-'));
  try {
    const csv = path.join(dir, 'logs.csv');
    fs.writeFileSync(csv, rows.map((r) => `${r.statusCode},${r.countryCode},${r.bytesSent},${r.cacheStatus},${r.path}`).join('\n'));
    const db = path.join(dir, 'logs.db');
    execFileSync('sqlite3', [db], {
      input: `CREATE TABLE logs (status INTEGER, country TEXT, bytes INTEGER, cache_status TEXT, path TEXT);\n.mode csv\n.import ${csv} logs\n`,
    });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const out = execFileSync('sqlite3', [db], { input: `.timer on\n${QUERY};\n`, encoding: 'utf8' });
      const m = /Run Time: real ([\d.]+)/.exec(out);
      if (m) times.push(Number(m[1]) * 1000);
    }
    return times;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const logsSqlBench: Bench = {
  id: 'logs-sql',
  async run(): Promise<BenchResult[]> {
    const rows = records(RECORDS);
    // the logs screen's buffer: the records are held in its columnar store before the shell opens
    const buffer = new LogBuffer(RECORDS);
    for (let i = 0; i < rows.length; i += 10_000) buffer.insert(rows.slice(i, i + 10_000));
    const loads: number[] = [];
    const queries: number[] = [];
    for (let run = 0; run < 3; run++) {
      const engine = await LogsSqlEngine.open();
      const sync = new LogsTableSync(engine, () => buffer);
      try {
        const started = performance.now();
        await sync.sync();
        loads.push(performance.now() - started);
        if (engine.rowCount !== buffer.length) throw new Error(`loaded ${engine.rowCount} of ${buffer.length} records`);
        if (run === 0) {
          await engine.run(QUERY);
          for (let i = 0; i < RUNS; i++) {
            const t = performance.now();
            await engine.run(QUERY);
            queries.push(performance.now() - t);
          }
        }
      } finally {
        sync.detach();
        engine.close();
      }
    }
    // the console's logs shell gives DuckDB one thread (it runs beside the screen)
    const shellQueries: number[] = [];
    {
      const engine = await LogsSqlEngine.open({ threads: 1 });
      const sync = new LogsTableSync(engine, () => buffer);
      try {
        await sync.sync();
        await engine.run(QUERY);
        for (let i = 0; i < RUNS; i++) {
          const t = performance.now();
          await engine.run(QUERY);
          shellQueries.push(performance.now() - t);
        }
      } finally {
        sync.detach();
        engine.close();
      }
    }
    const sqlite = sqlite3QueryMs(rows);
    const query = summarize(queries);
    const reference = sqlite && sqlite.length ? { name: 'sqlite3 CLI', summary: summarize(sqlite) } : undefined;
    const count = RECORDS.toLocaleString('en-US');
    return [
      {
        name: `logs in SQL: loading ${count} records into the logs table`,
        method: `${count} log records (a busy zone's hour, seeded) held in a LogBuffer (the logs screen's columnar store), loaded into a fresh in-process DuckDB table (15 stored typed columns; time, time_ms and url computed) the way \`:sql logs\` does it: numbers and dictionary ids as data chunks into a stage table, each distinct text once, one INSERT ... SELECT joining them; sliced (the event loop gets a turn every 6 ms); 3 runs.`,
        unit: 'ms',
        burrow: summarize(loads),
        budget: '<= 3000 ms',
        pass: summarize(loads).median <= 3000,
      },
      {
        name: `logs in SQL: GROUP BY status, country over ${count} records`,
        method: `\`${QUERY}\`, ${RUNS} runs after one warm-up, result read into JS values; reference: the sqlite3 command-line tool on the same rows imported into a plain table, timed by its own .timer (query only, no process start).${reference ? '' : ' sqlite3 was not installed: no reference.'}`,
        unit: 'ms',
        burrow: query,
        ...(reference ? { reference } : {}),
        budget: '<= 300 ms and faster than sqlite3',
        pass: query.median <= 300 && (!reference || query.median < reference.summary.median),
      },
      {
        name: `logs in SQL: the same GROUP BY in the console's shell (one DuckDB thread)`,
        method: `As above, on the engine \`:sql logs\` opens: DuckDB limited to one thread, so a query or a sync leaves the other core to the screen.`,
        unit: 'ms',
        burrow: summarize(shellQueries),
        ...(reference ? { reference } : {}),
        budget: '<= 300 ms and faster than sqlite3',
        pass: summarize(shellQueries).median <= 300 && (!reference || summarize(shellQueries).median < reference.summary.median),
      },
    ];
  },
};
