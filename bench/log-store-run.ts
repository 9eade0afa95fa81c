// One run of the log store benchmark in a fresh process:
//   node --expose-gc --import tsx bench/log-store-run.ts RECORDS
// Fills the logs screen's view model (columnar store, statistics, match index) as following and
// backfilling do, under the console's heap flags: v2 page bodies of the busiest emulated zone
// (made by the emulator's generator in a child process, bench/log-pages-child.ts, and sent over a
// pipe as bytes) read by the same page reader the follow engine uses (a worker thread decodes
// them) and inserted page by page. Then times what the keys of the screen do. Prints one JSON
// line. Used by bench/log-store.ts.
import { readLogPage } from '../src/api/logs/index';
import { LogPageReader } from '../src/log-engine/index';
import { compilePattern } from '../src/log-records/filter';
import { LogsViewModel, type WindowRequest } from '../src/state/logs/view-model';
import { tuneHeapForResidentMemory } from '../src/app/heap-tuning';
import { pages } from './lib/log-pages';

const RECORDS = Number(process.argv[2] ?? 2_000_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => n / 1e6;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};

// the heap flags the console runs with (bin/run-bundle.cjs passes them, full-screen.tsx sets them
// again): this process stands for the console's, whose logs screen holds these records
tuneHeapForResidentMemory();
gc();
const before = process.memoryUsage();
const model = new LogsViewModel(RECORDS);
const reader = new LogPageReader();
let insertCpuMs = 0;
let insertMs = 0;
const started = performance.now();
for await (const body of pages(RECORDS)) {
  const page = await readLogPage(reader, body, '/v2/pullzones/1/logs', 'asc');
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // as the follow engine does: the page's columns straight into the store (model.buffer)
  model.buffer.insertBatch(page.batch!);
  insertMs += performance.now() - t0;
  insertCpuMs += cpuMs(c0);
}
await reader.close();
const fillMs = performance.now() - started;
const statsStarted = performance.now();
const snapshot = model.stats.snapshot({ top: 5, rateSeconds: 120 });
const snapshotMs = performance.now() - statsStarted;
gc();
gc();
const after = process.memoryUsage();
const held = model.buffer.length;

const height = 36;
const lines = () => 1;
const p95 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(v.length * 0.95))]!;
const timed = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

// the keys of the screen, as the store runs them: a new window around the selection each time
let anchor: WindowRequest['anchor'] = null;
let selected = held - 1;
const view = (following = false) => {
  const w = model.window({ following, anchor, anchorRow: 10, fallback: selected, height, lines });
  selected = w.selected;
  anchor = { seq: model.seqAt(selected), time: model.timeAt(selected) };
  return w;
};
const moveTo = (pos: number) => {
  const p = model.realRow(Math.max(0, Math.min(model.total - 1, pos)), 1);
  anchor = { seq: model.seqAt(p), time: model.timeAt(p) };
  view();
};
const keyTimes: Record<string, number[]> = { scroll: [], page: [], top: [], bottom: [], next: [], prev: [] };
view(true);
for (let round = 0; round < 20; round++) {
  keyTimes.scroll!.push(timed(() => moveTo(selected - 1)));
  keyTimes.page!.push(timed(() => moveTo(selected - height)));
  keyTimes.top!.push(timed(() => moveTo(0)));
  keyTimes.bottom!.push(timed(() => view(true)));
}

// a regex typed while following: the first screen of matches, then the whole scan (a worker thread over the shared columns)
const p = compilePattern(process.env.BURROW_BENCH_PATTERN ?? 'wp-login|\\.php');
if (!p.ok) throw new Error('pattern');
model.setMode('filter');
let firstScreenMs = 0;
let shown = 0;
const scanStarted = performance.now();
const scanCpu0 = process.cpuUsage();
const done = new Promise<void>((resolve) => {
  model.onScanProgress = () => {
    if (!model.counting) resolve();
  };
});
firstScreenMs = timed(() => {
  model.setPattern(p, null);
  shown = model.window({ following: true, anchor: null, anchorRow: 0, fallback: 0, height, lines }).rows.length;
});
// keys while the scan runs: a window (a scroll) every 20 ms
const duringScan: number[] = [];
const keys = setInterval(() => {
  if (!model.counting) return;
  duringScan.push(timed(() => view()));
}, 20);
await done;
clearInterval(keys);
const wholeScanMs = performance.now() - scanStarted;
const scanCpuMs = cpuMs(scanCpu0);
const matches = model.matches;

// n / N with the count done, in filter and highlight modes
model.setMode('highlight');
view(true);
for (let i = 0; i < 20; i++) {
  keyTimes.prev!.push(
    timed(() => {
      const to = model.nextMatch(selected, -1);
      if (to >= 0) moveTo(to);
    }),
  );
}
for (let i = 0; i < 20; i++) {
  keyTimes.next!.push(
    timed(() => {
      const to = model.nextMatch(selected, 1);
      if (to >= 0) moveTo(to);
    }),
  );
}

// the whole scan again, synchronous: the matching cost alone
model.setPattern(null);
const scanCpu = process.cpuUsage();
const syncScanMs = timed(() => {
  model.setPattern(p, null);
  model.finishScan();
});
const syncScanCpuMs = cpuMs(scanCpu);

const cols = model.buffer.columns;
process.stdout.write(
  `${JSON.stringify({
    records: held,
    fillMs,
    insertMs,
    insertCpuMs,
    syncScanCpuMs,
    snapshotMs,
    statsRecords: snapshot.records,
    rssMB: mb(after.rss),
    rssGrowthMB: mb(after.rss - before.rss),
    heapMB: mb(after.heapUsed),
    arrayBuffersMB: mb(after.arrayBuffers),
    arenaMB: mb(cols.arenaBytes),
    breakdownMB: Object.fromEntries(Object.entries(model.buffer.memoryBreakdown()).map(([k, v]) => [k, Math.round(mb(v) * 10) / 10])),
    externalMB: mb(after.external),
    scanCpuMs,
    bytesPerRecord: (after.rss - before.rss) / held,
    keyP95: Object.fromEntries(Object.entries(keyTimes).map(([k, v]) => [k, p95(v)])),
    firstScreenMs,
    shown,
    wholeScanMs,
    syncScanMs,
    matches,
    duringScanP95: duringScan.length ? p95(duringScan) : null,
    duringScanKeys: duringScan.length,
  })}\n`,
);
process.exit(0);
