/**
 * The logs engines open in this process and the native work running on them. A DuckDB statement
 * runs on a thread of libuv's pool, and Node's exit waits for that pool: process.exit() while a
 * statement runs never returns (the process stays, deaf to every signal, a core busy). So every
 * way out stops the engines first (stopAll), then exits once nothing runs (idle).
 */

export interface Stoppable {
  /** Interrupts what runs now and refuses anything new. */
  halt(): void;
}

const engines = new Set<Stoppable>();
let running = 0;
const waiters = new Set<() => void>();

export function register(engine: Stoppable): () => void {
  engines.add(engine);
  return () => engines.delete(engine);
}

/** Counts `work` as running native work until it settles. */
export async function tracked<T>(work: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await work();
  } finally {
    running--;
    if (running === 0) {
      for (const wake of waiters) wake();
      waiters.clear();
    }
  }
}

/** True while a statement or load runs on any engine. */
export function nativeBusy(): boolean {
  return running > 0;
}

/** Interrupts every engine's running statement; resolves true once none runs, false after `withinMs`. */
export function stopAll(withinMs: number): Promise<boolean> {
  for (const engine of engines) engine.halt();
  if (running === 0) return Promise.resolve(true);
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      waiters.delete(wake);
      resolve(running === 0);
    }, withinMs);
    timer.unref?.();
    const wake = () => {
      clearTimeout(timer);
      resolve(true);
    };
    waiters.add(wake);
  });
}

/** The engine was halted (the process is leaving): nothing new runs. */
export class EngineHalted extends Error {
  constructor() {
    super('the logs engine was stopped (burrow is exiting)');
  }
}
