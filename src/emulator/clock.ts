import { performance } from 'node:perf_hooks';

/**
 * The emulator's clock. Everything time-dependent in the emulator (which log records are visible,
 * retention, token expiry, rate-limit windows) reads `now()`.
 *
 * It starts at `start` and then either runs with the machine's monotonic clock or stands still
 * until told to move (tests): `freeze()` stops it where it is, `resume()` lets it run again from
 * there, `advance(ms)` and `set(t)` move it by hand.
 */
export class EmulatorClock {
  private base: number;
  private since: number;
  private running: boolean;

  constructor(start: number = Date.now(), options: { running?: boolean } = {}) {
    if (!Number.isFinite(start)) throw new RangeError(`clock start must be a time, got ${start}`);
    this.base = start;
    this.since = performance.now();
    this.running = options.running ?? true;
  }

  /** Epoch ms as the emulator sees it (bound: can be handed around as a function). */
  readonly now = (): number => (this.running ? Math.floor(this.base + performance.now() - this.since) : this.base);

  get isRunning(): boolean {
    return this.running;
  }

  freeze(): void {
    this.base = this.now();
    this.running = false;
  }

  resume(): void {
    if (this.running) return;
    this.since = performance.now();
    this.running = true;
  }

  advance(ms: number): void {
    this.set(this.now() + ms);
  }

  set(t: number): void {
    this.base = t;
    this.since = performance.now();
  }
}

/** A `--clock-start` value: an ISO date-time or epoch milliseconds; NaN when it is neither. */
export function parseClockStart(text: string): number {
  const s = text.trim();
  if (/^\d{10,16}$/.test(s)) return Number(s);
  if (!/^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(s)) return Number.NaN;
  return Date.parse(/T.*(Z|[+-]\d\d:?\d\d)$/.test(s) || !s.includes('T') ? s : `${s}Z`);
}
