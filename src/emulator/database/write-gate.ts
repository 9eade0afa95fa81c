import { StmtError } from './stmt-error';

interface Waiter {
  owner: object;
  resolve(): void;
  reject(error: StmtError): void;
  timer: NodeJS.Timeout;
}

/**
 * One writer at a time per database file, as sqld does: a stream that is about to write waits
 * here (first come, first served) instead of meeting SQLITE_BUSY inside SQLite, which would leave
 * its statement half-run. The holder keeps the gate until its connection is back in autocommit.
 */
export class WriteGate {
  private holder: object | null = null;
  private readonly queue: Waiter[] = [];

  constructor(private readonly waitMs: number) {}

  heldBy(owner: object): boolean {
    return this.holder === owner;
  }

  acquire(owner: object): Promise<void> {
    if (this.holder === owner) return Promise.resolve();
    if (this.holder === null) {
      this.holder = owner;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        owner,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.drop(waiter);
          reject(new StmtError(`SQLite error: database is locked (another stream held the write lock for ${this.waitMs} ms)`, 'SQLITE_BUSY'));
        }, this.waitMs),
      };
      this.queue.push(waiter);
    });
  }

  release(owner: object): void {
    if (this.holder !== owner) return;
    const next = this.queue.shift();
    this.holder = next?.owner ?? null;
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
    }
  }

  /** The owner's request was cancelled while it waited: it leaves the queue with this error. */
  cancel(owner: object, error: StmtError): void {
    for (const w of this.queue.filter((x) => x.owner === owner)) {
      this.drop(w);
      w.reject(error);
    }
  }

  private drop(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const i = this.queue.indexOf(waiter);
    if (i >= 0) this.queue.splice(i, 1);
  }
}
