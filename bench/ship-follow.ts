import fs from 'node:fs';
import { spawn } from 'node:child_process';
import { startClickHouse } from '../test/helpers/clickhouse';
import { burrowEnv, startEmulatorChild } from './lib/emulator-child';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

/**
 * burrow ship following four zones into a local ClickHouse: its resident memory sampled every
 * 2 s (start, end, largest, slope), and the time from a record's arrival at the platform to a
 * SELECT seeing it, against the follow's own lag (how old the newest record the platform shows
 * is, sampled in the same run) + 5 s.
 *
 * The emulator's clock cannot run faster than the wall clock for the shipper (burrow reads its
 * own clock for the live end), so the 10-minute follow is a real 10 minutes: it runs with
 * BENCH_LONG=1; without it `npm run bench` follows for 90 s and reports the memory figures
 * without judging them.
 */
const LONG = process.env.BENCH_LONG === '1';
const SECONDS = Number(process.env.BENCH_SHIP_FOLLOW_SECONDS ?? (LONG ? 600 : 90));
const RATE = 40;
const ZONES = 4;
const TABLE = 'follow_bench';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export const shipFollowBench: Bench = {
  id: 'ship-follow',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulatorChild(['--log-rate', String(RATE)]);
    const ch = await startClickHouse();
    const zones = emu.info.pullZoneIds.slice(0, ZONES);
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TZ: 'UTC', ...burrowEnv(emu.info) };
    const child = spawn(process.execPath, ['bin/burrow.js', 'ship', ...zones.map(String), '--since', '5m', '--store-url', ch.storeUrl, '--table', TABLE], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
    try {
      const t0 = Date.now();
      const followFrom = t0;
      const rss: { s: number; mb: number }[] = [];
      const firstSeen = new Map<string, number>();
      const latencies: number[] = [];
      const platformLags: number[] = [];
      let nextRss = 0;
      let nextLag = 0;
      while (Date.now() - t0 < SECONDS * 1000) {
        if (child.exitCode !== null) throw new Error(`burrow ship exited ${child.exitCode}: ${stderr}`);
        const now = Date.now();
        if (now >= nextRss) {
          rss.push({ s: (now - t0) / 1000, mb: rssMb(child.pid!) });
          nextRss = now + 2000;
        }
        if (now >= nextLag) {
          // the follow's own lag: the age of the newest record the platform shows (one zone, every 2 s: the shipper's budget is left alone)
          const res = await fetch(`${emu.info.loggingUrl}/v2/pullzones/${zones[0]}/logs?order=desc&limit=1`, { headers: { AccessKey: emu.info.accessKey } });
          if (res.ok) {
            const newest = ((await res.json()) as { data: { timestamp: string }[] }).data[0];
            if (newest) platformLags.push(Date.now() - Date.parse(newest.timestamp));
          }
          nextLag = now + 2000;
        }
        // the records a SELECT sees now, of the last two minutes: a new one's latency is now minus its time
        const text = await ch
          .query(
            `SELECT requestId, toUInt64(timestamp) * 1000 + timestampMs AS t FROM ${TABLE} WHERE timestamp >= toDateTime(${Math.floor((Date.now() - 120_000) / 1000)}) FORMAT TSV`,
          )
          .catch(() => ''); // the table is made by the shipper's start
        const seenAt = Date.now();
        for (const line of text.split('\n')) {
          if (!line) continue;
          const [id, t] = line.split('\t') as [string, string];
          if (firstSeen.has(id)) continue;
          firstSeen.set(id, seenAt);
          if (Number(t) >= followFrom) latencies.push(seenAt - Number(t));
        }
        await sleep(250);
      }
      const mb = rss.map((r) => r.mb).filter((m) => m > 0);
      // the slope after the first minute (the backfill of --since 5m and the heap's growth are over)
      const settled = rss.filter((r) => r.s >= 60 && r.mb > 0);
      const perMin =
        settled.length > 2
          ? slope(
              settled.map((r) => r.s),
              settled.map((r) => r.mb),
            ) * 60
          : NaN;
      const lat = summarize(latencies.map((ms) => ms / 1000));
      const lag = summarize(platformLags.map((ms) => ms / 1000));
      const maxMb = Math.max(...mb);
      const memNote = `after 10 s ${rss.find((r) => r.s >= 10)?.mb.toFixed(0)} MB, end ${mb[mb.length - 1]?.toFixed(0)} MB, max ${maxMb.toFixed(0)} MB, slope ${perMin.toFixed(2)} MB/min over ${SECONDS} s`;
      process.stderr.write(
        `ship-follow: ${memNote}; latency p95 ${lat.p95.toFixed(2)} s of ${latencies.length} records, platform lag p95 ${lag.p95.toFixed(2)} s\n`,
      );
      const flat = maxMb <= 250 && perMin <= 1;
      return [
        {
          name: 'ship: resident memory following 4 zones (10 min with BENCH_LONG=1)',
          method: `burrow ship of 4 zones following (emulator --log-rate ${RATE}, --since 5m), VmRSS every 2 s for ${SECONDS} s; slope fitted after the first minute${LONG ? '' : ' (a 90 s run: BENCH_LONG=1 runs the 10 minutes the budget is about)'}`,
          unit: 'MB',
          burrow: summarize([maxMb]),
          budget: '<= 250 MB, flat (slope <= 1 MB/min) over 10 minutes',
          pass: LONG ? flat : null,
          notes: [memNote],
        },
        {
          name: 'ship: record arrival to SELECT seeing it, p95',
          method: `records of 4 followed zones timestamped after the follow started: the first SELECT (every 250 ms) that returns a record, minus its timestamp; reference: the follow's own lag (now minus the newest record the platform shows, every 2 s)`,
          unit: 's',
          burrow: lat,
          reference: { name: 'platform lag', summary: lag },
          budget: 'p95 <= reference p95 + 5 s',
          pass: latencies.length > 0 && lat.p95 <= lag.p95 + 5,
          notes: [`${latencies.length} records; platform lag p95 ${lag.p95.toFixed(1)} s`],
        },
      ];
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((r) => child.once('close', r));
        child.kill('SIGTERM');
        await closed;
      }
      await ch.close();
      await emu.stop();
    }
  },
};
