import type { ResourceLimits, Worker as WorkerThread } from 'node:worker_threads';

export interface ThreadLaneOptions {
  /** The thread's code (run with `eval`: functions' source text, see the worker sources), or what makes it when the thread first starts. */
  source: string | (() => string);
  resourceLimits: ResourceLimits;
  /** The thread stops after this long without work (its heap is not kept). */
  idleMs: number;
  onMessage(message: unknown): void;
  /** The running thread failed or exited on its own: the lane is broken from then on. */
  onFailure(): void;
  /** Whether the thread may stop now (nothing in flight). */
  canRetire(): boolean;
  /** The thread was stopped for being idle (state kept for it, such as dictionaries, is stale). */
  onRetire?(): void;
}

/**
 * One worker thread of the log engine, run from source text: started on first use (node's
 * worker_threads loaded then), kept from holding the process open while idle, stopped after
 * `idleMs` without work, and broken for good once it fails. The page reader's lanes and the
 * pattern scan's worker are each one; what they send and how they answer is theirs.
 */
export class ThreadLane {
  private worker: WorkerThread | null = null;
  private startup: Promise<WorkerThread | null> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  /** The thread cannot run (or stopped): the owner works elsewhere. */
  broken = false;

  constructor(private readonly options: ThreadLaneOptions) {}

  /** The thread running now, if any. */
  get current(): WorkerThread | null {
    return this.worker;
  }

  /** The thread, started when needed; null when it cannot run. */
  start(): Promise<WorkerThread | null> {
    if (this.worker) return Promise.resolve(this.worker);
    this.startup ??= import('node:worker_threads').then(
      ({ Worker }) => {
        try {
          const w = new Worker(typeof this.options.source === 'string' ? this.options.source : this.options.source(), {
            eval: true,
            resourceLimits: this.options.resourceLimits,
          });
          w.unref();
          w.on('message', (m: unknown) => this.options.onMessage(m));
          const fail = () => {
            if (this.worker !== w) return; // retired or closed
            this.worker = null;
            this.startup = null;
            this.broken = true;
            this.options.onFailure();
          };
          w.on('error', fail);
          w.on('exit', fail);
          this.worker = w;
          return w;
        } catch {
          this.broken = true;
          return null;
        }
      },
      () => {
        this.broken = true;
        return null;
      },
    );
    return this.startup;
  }

  /** Work is in flight: the thread keeps the process alive and does not retire. */
  busy(): void {
    this.clearIdle();
    this.worker?.ref();
  }

  /** No work in flight: the thread lets the process exit, and stops after idleMs unless busy again. */
  idle(): void {
    this.worker?.unref();
    this.clearIdle();
    this.idleTimer = setTimeout(() => this.retire(), this.options.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private retire(): void {
    this.idleTimer = null;
    const w = this.worker;
    if (!w || !this.options.canRetire()) return;
    this.worker = null;
    this.startup = null;
    this.options.onRetire?.();
    void w.terminate();
  }

  /** Stops the thread now (a later start() starts another unless the owner marks the lane broken). */
  async close(): Promise<void> {
    this.clearIdle();
    const w = this.worker;
    this.worker = null;
    this.startup = null;
    if (w) await w.terminate();
  }
}
