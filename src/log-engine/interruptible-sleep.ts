import { Stopped } from './follow-stopped';

/**
 * A zone's wait (until its next poll, or out a retry's backoff): woken early on request, and
 * rejected with Stopped when the engine's signal aborts.
 */
export class InterruptibleSleep {
  private wake: (() => void) | null = null;

  constructor(
    private readonly signal: AbortSignal,
    private readonly now: () => number,
  ) {}

  get sleeping(): boolean {
    return this.wake !== null;
  }

  until(at: number): Promise<void> {
    const ms = at - this.now();
    // stopped between the caller's last check and here: the abort event has already fired
    if (this.signal.aborted) return Promise.reject(new Stopped());
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', onStop);
        this.wake = null;
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, ms);
      const onStop = () => {
        done();
        reject(new Stopped());
      };
      this.wake = () => {
        done();
        resolve();
      };
      this.signal.addEventListener('abort', onStop, { once: true });
    });
  }

  /** Ends the current wait now (nothing when none). */
  interrupt(): void {
    this.wake?.();
  }
}
