import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const tuning = fileURLToPath(new URL('../../src/app/heap-tuning.ts', import.meta.url));

/**
 * In a fresh process: optionally the tuning, then a worker thread (its start resets V8's growth
 * factor), allocations that survive scavenges, then records replaced in the old generation: the
 * young generation's size and the old generation's peak size, in MB.
 */
function heapAfterWork(tuned: boolean): { young: number; oldPeak: number } {
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { tuneHeapForResidentMemory } from ${JSON.stringify(tuning)};
    if (${tuned}) tuneHeapForResidentMemory();
    const w = new Worker('setTimeout(() => {}, 50)', { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 32 } });
    await new Promise((r) => w.on('exit', r));
    const kept = [];
    let batch = [];
    for (let i = 0; i < 2e6; i++) {
      batch.push({ i, s: 'record ' + i });
      if (batch.length === 1000) { if (i % 7 === 0) kept.push(batch); batch = []; }
    }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    // records come and go in the old generation (a full buffer while following): the largest the
    // old generation gets over its live size
    let peak = 0;
    for (let round = 0; round < 3 * kept.length; round++) {
      kept.shift();
      const fresh = [];
      for (let i = 0; i < 1000; i++) fresh.push({ i, s: 'record ' + i + round });
      kept.push(fresh);
      const old = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
      if (old > peak) peak = old;
    }
    process.stdout.write(String(young / 1e6) + ' ' + peak / 1e6 + ' ' + kept.length);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const [young, oldPeak] = out.split(' ').map(Number);
  return { young: young!, oldPeak: oldPeak! };
}

test('the console keeps V8 young generation small and the old generation close to its live size', () => {
  const untuned = heapAfterWork(false);
  const tuned = heapAfterWork(true);
  // untuned, V8 grows the young generation to 32 MB on this workload: the test can fail
  assert.ok(untuned.young > 16, `untuned young generation ${untuned.young} MB`);
  assert.ok(tuned.young <= 4.5, `tuned young generation ${tuned.young} MB (the worker thread's start must not undo the tuning)`);
  assert.ok(tuned.oldPeak < 0.75 * untuned.oldPeak, `old generation peak: tuned ${tuned.oldPeak} MB, untuned ${untuned.oldPeak} MB`);
});
