import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import type { Summary } from './stats';

export interface BenchResult {
  name: string;
  /** How it was measured, one sentence. */
  method: string;
  unit: string;
  burrow: Summary;
  reference?: { name: string; summary: Summary };
  /** e.g. "<= 300 ms and <= 5x reference" */
  budget?: string;
  /** null when there is no budget yet */
  pass: boolean | null;
  notes?: string[];
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const mem = `${Math.round(os.totalmem() / 2 ** 30)} GiB`;
  let jq = 'not found';
  try {
    jq = execFileSync('jq', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    // jq is only a reference for one benchmark
  }
  return `${cpu}, ${os.cpus().length} cores, ${mem} RAM, ${os.type()} ${os.release()}, Node ${process.versions.node}, ${jq}`;
}

const fmt = (v: number, unit: string) => {
  if (!Number.isFinite(v)) return 'n/a';
  const digits = Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toFixed(digits)} ${unit}`;
};

export function markdown(results: BenchResult[], when: Date, load?: string): string {
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts). Each benchmark runs the real program or engine against the',
    'emulator on loopback; reference tools are measured in the same run. Median of n runs; spread is',
    '(max - min) / median.',
    '',
    `- Date: ${when.toISOString()}`,
    `- Machine: ${machine()}`,
    ...(load ? [`- Load average (1/5/15 min): ${load}`] : []),
    '',
    '| benchmark | burrow (median) | p95 | spread | n | reference (median) | ratio | budget | result |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const ratio = r.reference ? `${(r.burrow.median / r.reference.summary.median).toFixed(2)}x` : '';
    lines.push(
      `| ${r.name} | ${fmt(r.burrow.median, r.unit)} | ${fmt(r.burrow.p95, r.unit)} | ${(r.burrow.spread * 100).toFixed(0)}% | ${r.burrow.n} | ${r.reference ? `${r.reference.name}: ${fmt(r.reference.summary.median, r.unit)}` : ''} | ${ratio} | ${r.budget ?? 'none yet'} | ${r.pass === null ? 'reported' : r.pass ? 'PASS' : 'MISS'} |`,
    );
  }
  lines.push('', '## How each is measured', '');
  for (const r of results) {
    lines.push(`### ${r.name}`, '', r.method, '');
    for (const n of r.notes ?? []) lines.push(`- ${n}`);
    if (r.notes?.length) lines.push('');
  }
  return lines.join('\n') + '\n';
}

/** Replaces the generated part of docs/BENCHMARKS.md, keeping any hand-written notes below the marker. */
export function writeReport(file: string, results: BenchResult[], when = new Date(), load?: string): void {
  const marker = '<!-- notes: everything below is kept by npm run bench -->';
  let notes = `${marker}\n`;
  try {
    const old = fs.readFileSync(file, 'utf8');
    const at = old.indexOf(marker);
    if (at >= 0) notes = old.slice(at);
  } catch {
    // first run
  }
  fs.mkdirSync('docs', { recursive: true });
  fs.writeFileSync(file, `${markdown(results, when, load)}\n${notes}`);
}
