import assert from 'node:assert/strict';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Checks `check` every `everyMs` until it gives something truthy, which it returns; fails with
 * "timed out waiting for WHAT" after `timeoutMs`.
 */
export async function until<T>(what: string, check: () => T | null | undefined | false, timeoutMs = 10_000, everyMs = 15): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
