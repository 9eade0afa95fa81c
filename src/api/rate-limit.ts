import { ApiError } from './errors';

/**
 * Client-side request budget: per key (the logging API: per pull zone) at most `limit` requests
 * in any sliding window of `windowMs`. Everything that calls an API for a key shares its budget:
 * callers `await acquire(key)` before each request and are served in order, then call the
 * `done()` it resolves with when the answer (or failure) is in.
 *
 * A slot counts from its grant until `windowMs` after the answer began (the caller calls `done()`
 * then: the logging client at the answer's headers): the server counts a request when it arrives,
 * somewhere between those two moments, so however long the way there and the queue at the server,
 * the server never sees more than `limit` in any window.
 *
 * On a 429 the caller reports `rateLimited(key, retryAfterMs)`: the key backs off for the
 * server's Retry-After when the answer had one, else exponentially with full jitter, and every
 * caller of that key waits. `subscribe` tells a status bar when a key starts or ends a backoff.
 */

export interface RateBudgetOptions {
  /** Requests per window per key (logging: 28, headroom under the platform's 30). */
  limit?: number;
  windowMs?: number;
  /** First backoff after a 429 is up to this long; it doubles per consecutive 429. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  now?: () => number;
  random?: () => number;
}

export interface BudgetState {
  key: string;
  limit: number;
  windowMs: number;
  /** Slots taken: requests in flight or finished less than a window ago. */
  used: number;
  /** Callers waiting for a slot. */
  waiting: number;
  /** Set while backing off after a 429. */
  backoffUntil: number | null;
  /** Consecutive 429s (0 after a success). */
  backoffAttempt: number;
  granted: number;
  rateLimited: number;
}

/** Tells the budget the request is over (answered or failed); safe to call more than once. */
export type SlotDone = () => void;

interface Waiter {
  resolve: (done: SlotDone) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface KeyState {
  /** One entry per slot still inside the window: its end time, Infinity while in flight. */
  slots: number[];
  queue: Waiter[];
  timer: ReturnType<typeof setTimeout> | null;
  timerAt: number;
  backoffUntil: number;
  attempt: number;
  granted: number;
  rateLimited: number;
}

/**
 * The logging API's budget per zone: 28 of the platform's 30 per 10 s. Slots are already counted
 * from their grant until 10 s after their answer, so this process alone could never go over 30;
 * the two spare requests are for whatever else reads the zone's logs with the same key (another
 * burrow, a script). A 429 still backs off everything of the zone.
 */
export const LOGGING_BUDGET = { limit: 28, windowMs: 10_000 } as const;

export class RateBudget {
  readonly limit: number;
  readonly windowMs: number;
  private readonly backoffBaseMs: number;
  private readonly backoffCapMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly keys = new Map<string, KeyState>();
  private readonly listeners = new Set<(key: string) => void>();

  constructor(options: RateBudgetOptions = {}) {
    this.limit = options.limit ?? LOGGING_BUDGET.limit;
    this.windowMs = options.windowMs ?? LOGGING_BUDGET.windowMs;
    this.backoffBaseMs = options.backoffBaseMs ?? 1000;
    this.backoffCapMs = options.backoffCapMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    if (!(this.limit >= 1) || !(this.windowMs > 0)) throw new RangeError('a rate budget needs limit >= 1 and windowMs > 0');
  }

  private key(key: string): KeyState {
    let s = this.keys.get(key);
    if (!s) {
      s = { slots: [], queue: [], timer: null, timerAt: 0, backoffUntil: 0, attempt: 0, granted: 0, rateLimited: 0 };
      this.keys.set(key, s);
    }
    return s;
  }

  /** Resolves when a request for `key` may be sent; call the returned `done` when it is over. */
  acquire(key: string, signal?: AbortSignal): Promise<SlotDone> {
    if (signal?.aborted) return Promise.reject(aborted());
    const s = this.key(key);
    return new Promise<SlotDone>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = s.queue.indexOf(w);
          if (i >= 0) s.queue.splice(i, 1);
          reject(aborted());
          this.pump(key, s);
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      s.queue.push(w);
      this.pump(key, s);
    });
  }

  /**
   * A request for `key` got 429: back off, with full jitter, or exactly as long as the server's
   * Retry-After asked (`retryAfterMs`) when it said; returns the wait in ms.
   */
  rateLimited(key: string, retryAfterMs: number | null = null): number {
    const s = this.key(key);
    s.rateLimited++;
    const ceiling = Math.min(this.backoffCapMs, this.backoffBaseMs * 2 ** s.attempt);
    s.attempt++;
    // Full jitter, with a floor so a run of tiny waits cannot hammer the server.
    const wait = retryAfterMs !== null ? retryAfterMs : Math.max(Math.round(this.backoffBaseMs / 10), Math.round(this.random() * ceiling));
    s.backoffUntil = Math.max(s.backoffUntil, this.now() + wait);
    this.emit(key);
    this.pump(key, s);
    return wait;
  }

  /** A request for `key` succeeded: the backoff sequence starts over. */
  succeeded(key: string): void {
    const s = this.keys.get(key);
    if (!s || s.attempt === 0) return;
    s.attempt = 0;
    this.emit(key);
  }

  state(key: string): BudgetState {
    const s = this.key(key);
    const now = this.now();
    this.prune(s, now);
    return {
      key,
      limit: this.limit,
      windowMs: this.windowMs,
      used: s.slots.length,
      waiting: s.queue.length,
      backoffUntil: s.backoffUntil > now ? s.backoffUntil : null,
      backoffAttempt: s.attempt,
      granted: s.granted,
      rateLimited: s.rateLimited,
    };
  }

  /** Keys seen so far. */
  list(): string[] {
    return [...this.keys.keys()];
  }

  /** Told the key whenever its backoff starts or ends. */
  subscribe(listener: (key: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Rejects every waiting caller and clears timers (on shutdown). */
  close(): void {
    for (const s of this.keys.values()) {
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
      for (const w of s.queue.splice(0)) {
        if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
        w.reject(aborted());
      }
    }
  }

  /** Ends one in-flight slot: from now on it leaves the window `windowMs` later. */
  private doneFor(key: string, s: KeyState): SlotDone {
    let called = false;
    return () => {
      if (called) return;
      called = true;
      const i = s.slots.indexOf(Number.POSITIVE_INFINITY);
      if (i >= 0) s.slots[i] = this.now();
      this.pump(key, s);
    };
  }

  private emit(key: string): void {
    for (const l of this.listeners) l(key);
  }

  private prune(s: KeyState, now: number): void {
    // At most `limit` + a few entries: a filter is cheaper than any index.
    if (s.slots.some((end) => end <= now - this.windowMs)) s.slots = s.slots.filter((end) => end > now - this.windowMs);
  }

  private pump(key: string, s: KeyState): void {
    const now = this.now();
    let wake = 0;
    if (s.backoffUntil > now) {
      wake = s.backoffUntil;
    } else {
      if (s.backoffUntil !== 0) {
        s.backoffUntil = 0;
        this.emit(key);
      }
      this.prune(s, now);
      while (s.queue.length && s.slots.length < this.limit) {
        const w = s.queue.shift()!;
        if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
        s.slots.push(Number.POSITIVE_INFINITY);
        s.granted++;
        w.resolve(this.doneFor(key, s));
      }
      // The first finished slot to leave the window; slots in flight wake us through done().
      if (s.queue.length) {
        const earliest = Math.min(...s.slots);
        wake = Number.isFinite(earliest) ? earliest + this.windowMs : 0;
      }
    }
    if (!s.queue.length) wake = 0;
    if (wake === 0) {
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
      return;
    }
    if (s.timer && s.timerAt === wake) return;
    if (s.timer) clearTimeout(s.timer);
    s.timerAt = wake;
    // +1 ms: a slot frees strictly after the window has passed.
    s.timer = setTimeout(
      () => {
        s.timer = null;
        this.pump(key, s);
      },
      Math.max(0, wake - now) + 1,
    );
  }
}

function aborted(): ApiError {
  return new ApiError({ kind: 'aborted', message: 'cancelled while waiting for the rate budget' });
}
