import assert from 'node:assert/strict';
import os from 'node:os';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const MAX_SLOWDOWN = 8;

/**
 * How many times longer than on an idle machine a wait may take now: the machine's run queue per
 * core over the last minute (load average / cores), at least 1 and at most 8. BURROW_TEST_SLOWDOWN=N
 * raises the floor (a CI runner known to be slow). The one scaling rule of every wait in the tests:
 * `until`, the pty and in-process screens' waitFor, the CLI's kill guard.
 */
export function slowdown(): number {
  const floor = Number(process.env.BURROW_TEST_SLOWDOWN) || 1;
  const load = os.loadavg()[0]! / os.availableParallelism();
  return Math.min(MAX_SLOWDOWN, Math.max(1, floor, load));
}

/** `ms` as it stands now on this machine (see slowdown): for a timer set once, such as a kill guard. */
export const scaled = (ms: number) => Math.round(ms * slowdown());

export interface Deadline {
  /** True once the wait has taken longer than its budget scaled by the machine's load, read at each check. */
  passed(): boolean;
  /** What the wait has taken so far and the budget it had, for a timeout message. */
  describe(): string;
}

/**
 * A deadline of `ms` on an idle machine. The scale is read at every check, not once: a machine
 * that gets busy during a wait gives that wait more time.
 */
export function deadline(ms: number): Deadline {
  const start = Date.now();
  let factor = 1;
  return {
    passed() {
      factor = slowdown();
      return Date.now() - start > ms * factor;
    },
    describe: () => `${Date.now() - start} ms (${ms} ms idle, × ${factor.toFixed(1)} for the machine's load)`,
  };
}

/**
 * Checks `check` every `everyMs` until it gives something truthy, which it returns; an async check
 * is awaited each time (a check that asks a server). Fails with "timed out waiting for WHAT" after
 * `timeoutMs` on an idle machine, longer on a busy one (see deadline).
 */
export async function until<T>(
  what: string,
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 15,
): Promise<T> {
  const end = deadline(timeoutMs);
  for (;;) {
    const v = await check();
    if (v) return v;
    if (end.passed()) assert.fail(`timed out waiting for ${what} after ${end.describe()}`);
    await sleep(everyMs);
  }
}
