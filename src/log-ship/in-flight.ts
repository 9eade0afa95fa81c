/**
 * Batches read from the platform and not yet stored, counted over every zone: what bounds the
 * shipper's memory. A zone waits for room before it reads a batch; room is made when any zone
 * stores (or drops) one.
 */
export class InFlight {
  count = 0;
  private waiters: (() => void)[] = [];

  constructor(readonly max: number) {}

  /** Waits until `may()` holds (asked again whenever a batch is released), then takes a place. */
  async take(may: () => boolean, signal: AbortSignal): Promise<void> {
    await this.until(may, signal);
    this.count++;
  }

  /** Waits until `may()` holds, taking nothing (at once when it holds: no await). */
  async until(may: () => boolean, signal: AbortSignal): Promise<void> {
    while (!may()) {
      if (signal.aborted) throw new Error('stopped');
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    if (signal.aborted) throw new Error('stopped');
  }

  release(): void {
    this.count--;
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}
