// One run of the v1 day benchmark in a fresh process:
//   node --expose-gc --import tsx bench/v1-day-run.ts PORT DATE ZONE RECORDS
// The logs screen's store (the console's, with its heap flags and the default 2,000,000-record
// buffer) opens the day through `v` as a user does, against the bench origin: the time to its
// first screen (the view has rows), the time until the whole day is read, and the resident set
// after it (two forced collections) and at its peak. Prints one JSON line. Used by bench/v1-day.ts.
import fs from 'node:fs';
import { createApi } from '../src/api/index';
import { LogPageReader } from '../src/log-engine/page-reader';
import { LogsApi } from '../src/api/logs/index';
import { resolveSettings } from '../src/config/settings';
import { textOf } from '../src/keys/text-edit';
import { DomainStores } from '../src/state/domain-stores';
import { createUiStore } from '../src/state/ui-store';
import { createLogsStore } from '../src/state/logs/store';
import { tuneHeapForResidentMemory } from '../src/app/heap-tuning';
import { DAY_START } from './lib/v1-day';

const [port, date, zone, recordsText] = process.argv.slice(2) as [string, string, string, string];
const records = Number(recordsText);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const peakMB = () => (Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) * 1024) / 1e6;

tuneHeapForResidentMemory();
const now = () => DAY_START + 36 * 3_600_000;
const origin = `http://127.0.0.1:${port}`;
const base = createApi({ baseUrl: origin, loggingUrl: origin, apiKey: 'bench' });
const pages = new LogPageReader();
const api = { ...base, logs: new LogsApi(base.logging, { pageReader: pages, now, budgetOptions: { now: Date.now } }) };
const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
const settings = resolveSettings({}, {}, {});
const stores = new DomainStores({ api, settings, ui, now });
const store = stores.get((deps) => createLogsStore(deps));
const s = () => store.getState();
const detach = s().attach(zone);
s().setViewport(120, 36);
await new Promise<void>((resolve) => {
  const check = () => (s().zoneName !== null ? resolve() : setTimeout(check, 10));
  check();
});

let firstScreenMs = Number.NaN;
const started = performance.now();
const cpu0 = process.cpuUsage();
const finished = new Promise<void>((resolve) => {
  store.subscribe((st) => {
    if (Number.isNaN(firstScreenMs) && st.view.rows.length > 0) firstScreenMs = performance.now() - started;
    if (st.v1 && !st.v1.loading) resolve();
  });
});
s().openV1();
s().setPromptText(textOf(date));
s().submitPrompt();
await finished;
const readMs = performance.now() - started;
const cpu = process.cpuUsage(cpu0);
const v1 = s().v1!;
const peak = peakMB();
gc();
gc();
const rss = process.memoryUsage().rss / 1e6;
detach();
await api.close();
await pages.close();
process.stdout.write(
  `${JSON.stringify({
    records,
    lines: v1.lines,
    kept: v1.kept,
    error: v1.error,
    firstScreenMs,
    readMs,
    rate: (v1.lines / readMs) * 1000,
    cpuMs: (cpu.user + cpu.system) / 1000,
    workerBusyMs: pages.workerBusyMs,
    rssMB: rss,
    peakMB: peak,
    bytes: v1.bytes,
  })}\n`,
);
process.exit(0);
