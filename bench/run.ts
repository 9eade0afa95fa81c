// npm run bench [-- NAME ...]: runs the benchmarks (all, or those named), prints a table and
// writes docs/BENCHMARKS.md. Benchmarks are not tests: they never run in npm test.
import os from 'node:os';
import { writeReport, type BenchResult } from './lib/report';
import { benches } from './registry';

const wanted = process.argv.slice(2);
const selected = benches.filter((b) => wanted.length === 0 || wanted.includes(b.id));
if (selected.length === 0) {
  console.error(`no benchmark named ${wanted.join(', ')}; known: ${benches.map((b) => b.id).join(', ')}`);
  process.exit(2);
}
const loadAt = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadStart = loadAt();
const results: BenchResult[] = [];
for (const b of selected) {
  process.stderr.write(`bench ${b.id} ...\n`);
  try {
    results.push(...(await b.run()));
  } catch (error) {
    process.stderr.write(`bench ${b.id} failed: ${(error as Error).stack}\n`);
    process.exitCode = 1;
  }
}
for (const r of results) {
  const ref = r.reference ? `  ref ${r.reference.name} ${r.reference.summary.median.toFixed(2)}` : '';
  console.log(
    `${r.pass === null ? '  ' : r.pass ? 'ok' : '!!'} ${r.name.padEnd(56)} ${r.burrow.median.toFixed(2)} ${r.unit} (p95 ${r.burrow.p95.toFixed(2)})${ref}  budget: ${r.budget ?? '-'}`,
  );
}
if (wanted.length === 0)
  writeReport('docs/BENCHMARKS.md', results, new Date(), `${loadStart} at the start, ${loadAt()} at the end (other work on the machine slows every benchmark)`);
else process.stderr.write('(partial run: docs/BENCHMARKS.md is written only by a full run)\n');
