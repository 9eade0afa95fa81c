import v8 from 'node:v8';

/*
 * The full-screen console holds up to 100,000 log records for as long as it runs, so what counts
 * is resident memory, not allocation throughput. Two V8 heuristics tuned for throughput cost
 * about 80 MB of it here:
 * - the young generation (two semi-spaces) grows from 2 MB to 32 MB as soon as a burst of
 *   allocations survives (a log backfill does) and is not given back while the screen draws;
 * - the old generation may grow to 1.5-2x its live size before a full collection.
 * Measured (100,000 records, stats panel on, following): 300-320 MB resident -> about 225 MB.
 *
 * Both can be set at start-up only through `node` flags (`--max-semi-space-size`), which
 * `node bin/burrow.js` and the npm bin shim do not pass. V8 reads the two flags below each time it
 * sizes a space, so they work when set at run time: the nursery keeps its initial size and the old
 * generation grows by 25% of its live size between full collections. V8 resets the growth factor
 * to its minimum of 2 when it configures a new isolate's heap (a worker thread starting), so the
 * flags are set again once each worker is online. test/unit/app-heap-tuning.test.ts checks the
 * effect on this Node version.
 */
export const HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=25'];

let installed = false;

function apply(): void {
  for (const flag of HEAP_FLAGS) v8.setFlagsFromString(flag);
}

export function tuneHeapForResidentMemory(): void {
  apply();
  if (installed) return;
  installed = true;
  process.on('worker', (worker) => worker.once('online', apply));
}
