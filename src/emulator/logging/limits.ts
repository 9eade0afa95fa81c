/** Per-pull-zone rate limit of the logging origin, shared by v1 and v2, with counters tests can read. */

export interface ZoneRequestStats {
  zoneId: number;
  /** Every request for this zone that got past authentication. */
  requests: number;
  accepted: number;
  /** Answered 429 rate_limited by the limit (injected faults are counted by the fault injector). */
  rateLimited: number;
  v1: number;
  v2: number;
  /** world.now() of each accepted request, oldest first (the last 20,000). */
  acceptedAt: number[];
  /** world.now() of each 429, oldest first (the last 20,000). */
  rejectedAt: number[];
}

export interface RateLimitConfig {
  limit: number;
  windowMs: number;
}

export const PLATFORM_RATE_LIMIT: RateLimitConfig = { limit: 30, windowMs: 10_000 };
const KEEP = 20_000;

export class ZoneRateLimiter {
  readonly zones = new Map<number, ZoneRequestStats>();
  /** Accepted times inside the current window per zone (a queue: head index + array). */
  private readonly windows = new Map<number, { times: number[]; head: number }>();

  constructor(public config: RateLimitConfig) {}

  stats(zoneId: number): ZoneRequestStats {
    let s = this.zones.get(zoneId);
    if (!s) {
      s = { zoneId, requests: 0, accepted: 0, rateLimited: 0, v1: 0, v2: 0, acceptedAt: [], rejectedAt: [] };
      this.zones.set(zoneId, s);
    }
    return s;
  }

  /**
   * Records the request; true when accepted, else the ms until the window has room again (the
   * caller answers 429 with that as Retry-After).
   */
  admit(zoneId: number, now: number, version: 'v1' | 'v2'): true | { retryAfterMs: number } {
    const s = this.stats(zoneId);
    s.requests++;
    s[version]++;
    let w = this.windows.get(zoneId);
    if (!w) {
      w = { times: [], head: 0 };
      this.windows.set(zoneId, w);
    }
    while (w.head < w.times.length && w.times[w.head]! <= now - this.config.windowMs) w.head++;
    if (w.head > 1024) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    if (w.times.length - w.head >= this.config.limit) {
      s.rateLimited++;
      push(s.rejectedAt, now);
      // the oldest request in the window leaves it windowMs after it came
      return { retryAfterMs: Math.max(1, w.times[w.head]! + this.config.windowMs - now) };
    }
    w.times.push(now);
    s.accepted++;
    push(s.acceptedAt, now);
    return true;
  }
}

function push(list: number[], v: number): void {
  list.push(v);
  if (list.length > KEEP * 1.5) list.splice(0, list.length - KEEP);
}

/** The most requests found inside any window of `windowMs` (a window covers (t - windowMs, t]). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[lo]! <= times[hi]! - windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
