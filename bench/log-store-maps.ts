// Where the resident memory of a filled log store goes (a diagnostic, not a benchmark row):
//   node --expose-gc --import tsx bench/log-store-maps.ts RECORDS [--console-heap]
// Fills the logs screen's view model as bench/log-store-run.ts does (the same page bodies, page
// reader and inserts; --console-heap: under the console's heap flags) and prints to stderr, at
// stages of the fill and after the reader's worker stopped and two forced collections: V8's
// spaces (size/used/resident MB), process.memoryUsage(), resident MB by mapping (/proc/self/smaps:
// [heap] is the main thread's malloc arena, 64 MB-aligned anonymous regions other threads'
// arenas) and every mapping with more than 4 MB resident.
import fs from 'node:fs';
import v8 from 'node:v8';
import { readLogPage } from '../src/api/logs/index';
import { LogPageReader } from '../src/log-engine/index';
import { LogsViewModel } from '../src/state/logs/view-model';
import { tuneHeapForResidentMemory } from '../src/app/heap-tuning';
import { pages } from './lib/log-pages';

const RECORDS = Number(process.argv[2] ?? 2_000_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => (n / 1e6).toFixed(1);

function mappings(): { byName: string; big: string[] } {
  const byName = new Map<string, number>();
  const big: string[] = [];
  let name = '';
  let size = 0;
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      name = head[3] ? (head[3].startsWith('/') ? `file:${head[3].split('/').pop()}` : head[3]) : `[anon ${head[1]}]`;
      size = parseInt(head[2]!, 16) - parseInt(head[1]!, 16);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    const bytes = Number(rss[1]) * 1024;
    const key = name.startsWith('[anon') ? '[anon]' : name;
    byName.set(key, (byName.get(key) ?? 0) + bytes);
    if (bytes > 4 << 20) big.push(`${name} ${mb(bytes)} of ${mb(size)}`);
  }
  const top = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 6);
  return { byName: top.map(([k, v]) => `${k} ${mb(v)}`).join(', '), big };
}

function stage(label: string): void {
  const m = process.memoryUsage();
  const spaces = v8
    .getHeapSpaceStatistics()
    .filter((s) => s.space_size > 0)
    .map((s) => `${s.space_name} ${mb(s.space_size)}/${mb(s.space_used_size)}/${mb(s.physical_space_size)}`);
  const maps = mappings();
  process.stderr.write(
    `${label}: rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)}\n` +
      `  spaces: ${spaces.join(', ')}\n  by mapping: ${maps.byName}\n  ${maps.big.join('\n  ')}\n`,
  );
}

if (process.argv.includes('--console-heap')) tuneHeapForResidentMemory();
gc();
stage('start');
const model = new LogsViewModel(RECORDS);
const reader = new LogPageReader();
let n = 0;
for await (const body of pages(RECORDS)) {
  const page = await readLogPage(reader, body, '/v2/pullzones/1/logs', 'asc');
  // as the follow engine does: the page's columns straight into the store (model.buffer)
  model.buffer.insertBatch(page.batch!);
  if (++n % 50 === 0) stage(`page ${n}`);
}
stage('filled');
await reader.close();
model.stats.snapshot({ top: 5, rateSeconds: 120 });
gc();
gc();
stage('worker stopped, two collections');
process.exit(0);
