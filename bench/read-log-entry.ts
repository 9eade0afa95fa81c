// readLogEntry alone (a diagnostic, not a benchmark row): the records of generated pages, parsed
// once with JSON.parse, each read by readLogEntry; the best of several runs, in ns of CPU per record.
//   node --import tsx bench/read-log-entry.ts [RECORDS] [runs]
// BENCH_SRC: another copy of src/ to compare with (e.g. a `git archive` of an older commit).
import type { readLogEntry as Reader } from '../src/api/logs/entry';
import { pages } from './lib/log-pages';

const src = process.env.BENCH_SRC ?? new URL('../src', import.meta.url).pathname;
const { readLogEntry } = (await import(`${src}/api/logs/entry.ts`)) as { readLogEntry: typeof Reader };
const records = Number(process.argv[2] ?? 200_000);
const runs = Number(process.argv[3] ?? 7);

const items: unknown[] = [];
for await (const body of pages(records)) items.push(...(JSON.parse(body.toString('utf8')) as { data: unknown[] }).data);
// the same records with their keys in another order: the field-by-field path
const reordered = items.slice(0, 50_000).map((r) => Object.fromEntries(Object.entries(r as object).reverse()));

function best(list: unknown[]): number {
  let min = Infinity;
  let kept = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = process.cpuUsage();
    for (const item of list) if (readLogEntry(item) !== null) kept++;
    const cpu = process.cpuUsage(t0);
    min = Math.min(min, ((cpu.user + cpu.system) * 1000) / list.length);
  }
  if (kept !== list.length * runs) throw new Error(`${list.length * runs - kept} records refused`);
  return min;
}

console.log(JSON.stringify({ records: items.length, platformFormNs: Math.round(best(items)), otherOrderNs: Math.round(best(reordered)) }));
