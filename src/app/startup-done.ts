/** Set by bin/run-bundle.cjs when this run should write the V8 code cache. */
const STARTUP_DONE = Symbol.for('burrow.codeCache.startupDone');

/**
 * The console's start-up is over: the launcher writes its code cache now (with what start-up
 * compiled), not at exit, when a long session has compiled every screen it visited.
 */
export function markStartupDone(): void {
  const hook = (globalThis as Record<symbol, unknown>)[STARTUP_DONE];
  if (typeof hook === 'function') hook();
}
