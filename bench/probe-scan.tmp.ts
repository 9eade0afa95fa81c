import { readLogEntry, parseTimestamp, type LogEntry } from '../src/api/logs/entry';
import { createWorld } from '../src/emulator/world';
import { generatedLogRecords } from '../src/emulator/logging/index';
import { compilePattern } from '../src/log-records/filter';
import { LogBuffer } from '../src/api/logs/buffer';
import { columnTest, MatchIndex } from '../src/log-records/filter';
import { MatchScan } from '../src/state/logs-match-scan';
import { ScanWorker } from '../src/log-records/scan-worker';
const N = Number(process.argv[2] ?? 300_000);
const now = Date.UTC(2026, 7, 8, 14, 0, 0);
const world = createWorld({ seed: 7, logRate: Math.ceil(N / 7000), now: () => now });
const zone = world.pullZones.find((z) => z.EnableLogging && z.trafficWeight === 1)!;
const buffer = new LogBuffer(N);
let fed = 0;
for (let t = now - 2 * 3_600_000; fed < N && t < now; t += 60_000) {
  const entries: LogEntry[] = []; const times: number[] = [];
  for (const raw of generatedLogRecords(world, zone.Id, t, t + 60_000)) { const e = readLogEntry(raw)!; entries.push(e); times.push(parseTimestamp(e.timestamp)); if (fed + entries.length === N) break; }
  fed += entries.length;
  buffer.insert(entries, times);
}
const worker = new ScanWorker();
for (const src of (process.env.PATS ?? 'wp-login|\\.php,wp-login|\\.php,5\\d\\d,curl').split(',')) {
  const p = compilePattern(src); if (!p.ok) throw 0;
  const index = new MatchIndex(columnTest(p, buffer.columns));
  const scan = new MatchScan(buffer, index, null);
  const t0 = performance.now(); const c0 = process.cpuUsage();
  await new Promise<void>((resolve) => scan.runInWorker(worker, buffer, p.test, 4, () => { if (scan.done) resolve(); }));
  const c = process.cpuUsage(c0);
  console.log(src, buffer.length, 'wall', (performance.now() - t0).toFixed(0), 'worker busy', scan.workerBusyMs.toFixed(0), 'cpu', ((c.user + c.system) / 1000).toFixed(0), 'matches', index.length, 'ns/rec', (scan.workerBusyMs * 1e6 / buffer.length).toFixed(0));
}
await worker.close();
