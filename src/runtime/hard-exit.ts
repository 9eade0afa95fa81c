/** The signal whose shell status (128 + its number) is `code`: 129 SIGHUP, 130 SIGINT, 143 SIGTERM. */
export function signalOf(code: number): NodeJS.Signals | null {
  return code === 129 ? 'SIGHUP' : code === 130 ? 'SIGINT' : code === 143 ? 'SIGTERM' : null;
}

/**
 * Ends the process at once without Node's exit, for when native work (a DuckDB statement on
 * libuv's thread pool) would make process.exit() wait for ever. Dies by the signal of `code`
 * with its default action, so the shell sees the same status (143 for SIGTERM); any other code
 * dies by SIGKILL. Restore the terminal before calling this: nothing runs after it.
 */
export function exitBySignal(code: number): never {
  const signal = signalOf(code) ?? 'SIGKILL';
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  // a signal to oneself is delivered before kill returns; should it not be, SIGKILL cannot be caught
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: the process was killed');
}
