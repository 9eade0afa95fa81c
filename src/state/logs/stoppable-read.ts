/** One read in progress: aborted by `cancel` (forgotten) or by `stop` (what was read is kept). */
export interface ReadInProgress {
  readonly ctl: AbortController;
  stopped: boolean;
}

/** How a read ended. */
export type ReadOutcome = 'done' | 'stopped' | 'cancelled';

/**
 * What a long read into the logs screen's store shares (a v1 day, a window of the log store): at
 * most one at a time, `cancel` forgets it (a new read, leaving the screen), `stop` ends it and keeps
 * the records read so far.
 */
export class StoppableRead {
  protected current: ReadInProgress | null = null;

  /** Whether a read is running. */
  get reading(): boolean {
    return this.current !== null;
  }

  /** Ends a read, forgetting it. */
  cancel(): void {
    this.current?.ctl.abort();
    this.current = null;
  }

  /** Ends a read and keeps the records read so far; false when nothing is being read. */
  stop(): boolean {
    const read = this.current;
    if (!read) return false;
    read.stopped = true;
    read.ctl.abort();
    return true;
  }

  /** Starts a read (cancelling the one before). */
  protected begin(): ReadInProgress {
    this.cancel();
    const read = { ctl: new AbortController(), stopped: false };
    this.current = read;
    return read;
  }

  /** How the read ended, when it was aborted. */
  protected ended(read: ReadInProgress): ReadOutcome {
    return read.stopped ? 'stopped' : 'cancelled';
  }

  /** The read is over (its `finally`). */
  protected finish(read: ReadInProgress): void {
    if (this.current === read) this.current = null;
  }
}
