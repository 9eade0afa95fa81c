import { Buffer, isAscii } from 'node:buffer';
import type { Worker as WorkerThread } from 'node:worker_threads';
import type { LogEntry } from './entry';
import { createPageEncoder, PageDecoder, type EncodedPage, type PageEncoder } from './page-codec';

/** A v2 page body read into records. */
export interface ReadPage {
  entries: LogEntry[];
  /** Epoch ms of each entry. */
  times: number[];
  /** Elements of `data` that were not LogEntry objects (left out). */
  skipped: number;
  /** The body without its `data` array, parsed (the whole body when it has no data array). */
  envelope: unknown;
  /** Whether the body had a `data` array (its records are `entries`). */
  hasData: boolean;
}

const utf8 = new TextDecoder();

/** Text of a body as undici would give it (UTF-8, BOM dropped), quicker for pure ASCII. */
export function bodyText(body: Uint8Array): string {
  if (isAscii(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  return utf8.decode(body);
}

export interface PageReaderOptions {
  /** Bodies of at least this many bytes (or characters) are parsed in a worker thread (default 256 KiB; Infinity: never). */
  workerThreshold?: number;
  /** The worker thread stops after this long without a page (default 1.5 s): its heap is not kept between a follow's polls. */
  workerIdleMs?: number;
}

interface Pending {
  resolve: (page: ReadPage) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads v2 page bodies into LogEntry records, as JSON.parse + readLogEntry would. Big bodies are
 * parsed in a worker thread, so the main thread (the screen, the follow engine) only builds the
 * objects; small bodies, and every body when no worker can run, are read on this thread.
 * Rejects with a SyntaxError when a body is not JSON.
 */
export class LogPageReader {
  private readonly threshold: number;
  private local: { encoder: PageEncoder; decoder: PageDecoder } | null = null;
  private worker: WorkerThread | null = null;
  private remote: PageDecoder | null = null;
  private starting: Promise<WorkerThread | null> | null = null;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private workerBusy = 0;
  private retiredBusy = 0;
  private readonly idleMs: number;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(options: PageReaderOptions = {}) {
    this.threshold = options.workerThreshold ?? 256 * 1024;
    this.idleMs = options.workerIdleMs ?? 1500;
  }

  /** Time the worker thread spent reading pages so far (ms; for benchmarks). */
  get workerBusyMs(): number {
    return this.retiredBusy + this.workerBusy;
  }

  /** Whether a worker thread is running now. */
  get workerRunning(): boolean {
    return this.worker !== null;
  }

  /** Reads a body on this thread. */
  readSync(body: string | Uint8Array): ReadPage {
    const local = (this.local ??= { encoder: createPageEncoder(), decoder: new PageDecoder() });
    return finish(local.encoder.encode(typeof body === 'string' ? body : bodyText(body)), local.decoder);
  }

  async read(body: string | Uint8Array): Promise<ReadPage> {
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size < this.threshold || this.broken) return this.readSync(body);
    const worker = await this.start();
    if (!worker) return this.readSync(body);
    if (worker !== this.worker) return this.read(body); // retired meanwhile
    this.clearIdle();
    const id = this.nextId++;
    return new Promise<ReadPage>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref();
      if (typeof body !== 'string' && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) {
        // the bytes move to the worker without a copy (the caller's view of them is emptied)
        worker.postMessage({ id, body }, [body.buffer]);
      } else {
        worker.postMessage({ id, body });
      }
    });
  }

  private start(): Promise<WorkerThread | null> {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= import('node:worker_threads').then(
      ({ Worker }) => {
        try {
          // A page is parsed and forgotten: a small young generation is enough, and the heap stays small.
          const w = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 96 } });
          w.unref();
          w.on('message', (m: { id: number; page: EncodedPage; busyMs: number }) => {
            this.workerBusy = m.busyMs;
            this.answer(m.id, m.page);
          });
          w.on('error', () => this.fail(w));
          w.on('exit', () => this.fail(w));
          this.worker = w;
          this.remote = new PageDecoder();
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
    return this.starting;
  }

  private answer(id: number, page: EncodedPage): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.pending.size === 0) {
      this.worker?.unref();
      this.clearIdle();
      this.idleTimer = setTimeout(() => this.retire(), this.idleMs);
      this.idleTimer.unref();
    }
    try {
      p.resolve(finish(page, this.remote!));
    } catch (error) {
      p.reject(error);
    }
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Stops an idle worker; the next big page starts a new one (with new dictionaries). */
  private retire(): void {
    this.idleTimer = null;
    const w = this.worker;
    if (!w || this.pending.size > 0) return;
    this.worker = null;
    this.starting = null;
    this.remote = null;
    this.retiredBusy += this.workerBusy;
    this.workerBusy = 0;
    void w.terminate();
  }

  /** The worker stopped: what it was reading is lost (the caller asks again), later reads happen here. */
  private fail(w: WorkerThread): void {
    if (w !== this.worker) return; // a retired one
    this.broken = true;
    this.worker = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new Error('the log page reader thread stopped'));
  }

  /** Stops the worker thread; later reads happen on the calling thread. */
  async close(): Promise<void> {
    this.broken = true;
    this.clearIdle();
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

function finish(page: EncodedPage, decoder: PageDecoder): ReadPage {
  if (page.syntaxError !== undefined) throw new SyntaxError(page.syntaxError);
  const { entries, times, skipped } = decoder.decode(page);
  return { entries, times, skipped: page.skipped + skipped, envelope: page.envelope, hasData: page.count >= 0 };
}

const WORKER_SOURCE = `
const __name = (f) => f;
const { parentPort } = require('node:worker_threads');
const encoder = (${createPageEncoder.toString()})();
const utf8 = new TextDecoder();
parentPort.on('message', ({ id, body }) => {
  let page;
  try {
    // Not Buffer#toString('latin1'): above 1 MB that makes an external string in malloc'd memory,
    // freed only when V8 collects it, and this thread's malloc arena kept ~60 MB resident (dead
    // page texts) for the life of the process. TextDecoder's string lives in V8's heap.
    const text = typeof body === 'string' ? body : utf8.decode(body);
    page = encoder.encode(text);
  } catch (error) {
    page = { syntaxError: String(error && error.message), count: -1, skipped: 0, newValues: [], newFields: new Uint8Array(0) };
  }
  const transfer = page.nums ? [page.nums.buffer, page.codes.buffer, page.ends.buffer, page.firstValue.buffer] : [];
  parentPort.postMessage({ id, page, busyMs: performance.eventLoopUtilization().active }, transfer);
});
`;
