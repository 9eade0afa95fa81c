interface Job {
  run: () => Promise<void>;
  done: () => void;
}

/**
 * Inputs run one after another: what is typed while a query runs waits its turn. The number
 * waiting is reported for the screen; a job's unexpected failure is reported and the next runs.
 */
export class JobQueue {
  private readonly jobs: Job[] = [];
  private draining = false;

  constructor(
    private readonly onQueued: (waiting: number) => void,
    private readonly onUnexpected: (error: unknown) => void,
  ) {}

  /** Resolves when the job has run, or was dropped by clear. */
  enqueue(run: () => Promise<void>): Promise<void> {
    return new Promise<void>((done) => {
      this.jobs.push({ run, done });
      if (this.draining) this.onQueued(this.jobs.length);
      void this.drain();
    });
  }

  /** Drops the jobs not started yet; returns how many. */
  clear(): number {
    const dropped = this.jobs.splice(0);
    for (const job of dropped) job.done();
    return dropped.length;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.jobs.length) {
        this.onQueued(this.jobs.length - 1);
        const job = this.jobs.shift()!;
        try {
          await job.run();
        } catch (error) {
          this.onUnexpected(error);
        } finally {
          job.done();
        }
      }
    } finally {
      this.draining = false;
      this.onQueued(0);
    }
  }
}
