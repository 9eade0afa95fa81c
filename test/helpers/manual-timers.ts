import type { Timers } from '../../src/state/poller';

/**
 * Interval timers that fire only when the test says so: `tick()` runs every armed interval once.
 * With them a store's polling is driven step by step, and "no request while paused / once hidden"
 * is a fact checked after ticks rather than a wait of a few seconds that hopes to catch one.
 */
export function manualTimers(): Timers & { tick(): void; readonly armed: number } {
  const armed = new Map<number, () => void>();
  let next = 1;
  return {
    setInterval(fn) {
      const handle = next++;
      armed.set(handle, fn);
      return handle;
    },
    clearInterval(handle) {
      armed.delete(handle as number);
    },
    tick() {
      for (const fn of [...armed.values()]) fn();
    },
    get armed() {
      return armed.size;
    },
  };
}

/**
 * `target` with every method call counted (synchronously, as the call is made): a poll started by
 * a tick shows here at once, before any byte reaches the server.
 */
export function countCalls<T extends object>(target: T): { proxy: T; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(target, {
    get(obj, key, receiver) {
      const value: unknown = Reflect.get(obj, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
  return { proxy, calls: () => calls };
}
