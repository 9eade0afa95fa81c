import type { Worker as WorkerThread } from 'node:worker_threads';
import type { PageBodyReader, ReadPage as ApiReadPage, V1Piece as ApiV1Piece, V1PieceSpec } from '../api/logs/page';
import { createByteRecordReader } from './page-bytes';
import { ThreadLane } from './thread-lane';
import { CODEC_FIELDS, createPageEncoder, PageDecoder, type EncodedPage, type PageEncoder } from './page-codec';
import type { RecordBatch } from './record-batch';
import { createV1Reader, V1_SOURCES, type V1Reader } from '../api/logs/v1';

/** A v2 page body read into records: the records as columns (what the store inserts). */
export type ReadPage = ApiReadPage<RecordBatch>;

/** A piece of a v1 day read into records: the records as columns. */
export type V1Piece = ApiV1Piece<RecordBatch>;

export interface PageReaderOptions {
  /** Bodies of at least this many bytes (or characters) are parsed in a worker thread (default 256 KiB; Infinity: never). */
  workerThreshold?: number;
  /** A worker thread stops after this long without a page (default 1.5 s): its heap is not kept between a follow's polls. */
  workerIdleMs?: number;
  /**
   * Worker threads at most (default 2): a second one starts only while the first is reading a
   * page and another arrives (a backfill's pages in flight), so following keeps one.
   */
  workers?: number;
}

interface Pending {
  resolve: (page: EncodedPage, decoder: PageDecoder) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads v2 page bodies into record batches (columns; LogEntry objects on demand, equal to what
 * JSON.parse + readLogEntry give). Big bodies are parsed in worker threads, so the main thread
 * (the screen, the follow engine) does no parsing and builds no object per record; small bodies,
 * and every body when no worker can run, are read on this thread. Each worker has its own
 * dictionaries (a page's batch names them; the store maps them to its own once per value).
 * Rejects with a SyntaxError when a body is not JSON.
 */
export class LogPageReader implements PageBodyReader<RecordBatch> {
  private readonly threshold: number;
  private local: { encoder: PageEncoder; decoder: PageDecoder } | null = null;
  private localV1: { reader: V1Reader; text: InstanceType<typeof TextDecoder> } | null = null;
  private readonly lanes: WorkerLane[];
  private broken = false;

  constructor(options: PageReaderOptions = {}) {
    this.threshold = options.workerThreshold ?? 256 * 1024;
    const idleMs = options.workerIdleMs ?? 1500;
    this.lanes = Array.from({ length: Math.max(1, options.workers ?? 2) }, () => new WorkerLane(idleMs));
  }

  /** Time the worker threads spent reading pages so far (ms; for benchmarks). */
  get workerBusyMs(): number {
    return this.lanes.reduce((sum, l) => sum + l.busyMs, 0);
  }

  /** Worker threads running now. */
  get workersRunning(): number {
    return this.lanes.filter((l) => l.running).length;
  }

  /** Whether a worker thread is running now. */
  get workerRunning(): boolean {
    return this.workersRunning > 0;
  }

  /** Reads a body on this thread. */
  readSync(body: string | Uint8Array): ReadPage {
    const local = (this.local ??= { encoder: createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader), decoder: new PageDecoder() });
    return finish(typeof body === 'string' ? local.encoder.encode(body) : local.encoder.encodeBytes(body), local.decoder);
  }

  async read(body: string | Uint8Array): Promise<ReadPage> {
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size < this.threshold || this.broken) return this.readSync(body);
    const lane = this.freeLane();
    if (lane === null) return this.readSync(body);
    return (await lane.read(body)) ?? this.read(body);
  }

  /** Reads a piece of a v1 day (whole lines, UTF-8) on this thread. */
  readV1Sync(bytes: Uint8Array, spec: V1PieceSpec): V1Piece {
    const local = (this.local ??= { encoder: createPageEncoder(CODEC_FIELDS, undefined, createByteRecordReader), decoder: new PageDecoder() });
    const v1 = (this.localV1 ??= { reader: createV1Reader(V1_SOURCES), text: new TextDecoder() });
    const text = v1.text.decode(bytes);
    const page = local.encoder.encodeEach(text.length >> 8, (add) => {
      const { entries: _none, ...counts } = v1.reader.readLinesEach(text, spec.zoneId, spec.firstLine, spec.problemRoom, add);
      return counts;
    });
    return v1Piece(page, local.decoder);
  }

  /**
   * Reads a piece of a v1 day (whole lines, UTF-8): in a worker thread when it is big enough, so
   * the main thread only stores the records. The bytes may be moved to the worker (emptied here).
   */
  async readV1(bytes: Uint8Array, spec: V1PieceSpec): Promise<V1Piece> {
    if (bytes.byteLength < this.threshold || this.broken) return this.readV1Sync(bytes, spec);
    const lane = this.freeLane();
    if (lane === null) return this.readV1Sync(bytes, spec);
    const piece = await lane.readV1(bytes, spec);
    return piece ?? this.readV1(bytes, spec);
  }

  /** The first lane that can run, unless another one is less busy. */
  private freeLane(): WorkerLane | null {
    let lane: WorkerLane | null = null;
    for (const l of this.lanes) if (!l.broken && (lane === null || l.pendingCount < lane.pendingCount)) lane = l;
    return lane;
  }

  /** Stops the worker threads; later reads happen on the calling thread. */
  async close(): Promise<void> {
    this.broken = true;
    await Promise.all(this.lanes.map((l) => l.close()));
  }
}

/** One worker thread (a ThreadLane) and its decoder. */
class WorkerLane {
  private remote: PageDecoder | null = null;
  private readonly lane: ThreadLane;
  /** Reads waiting for the thread to start. */
  private starting = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private workerBusy = 0;
  private retiredBusy = 0;

  constructor(idleMs: number) {
    this.lane = new ThreadLane({
      source: WORKER_SOURCE,
      // A page is parsed and forgotten: a small young generation is enough, and the heap stays small.
      resourceLimits: { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 96 },
      idleMs,
      onMessage: (m) => {
        const { id, page, busyMs } = m as { id: number; page: EncodedPage; busyMs: number };
        this.workerBusy = busyMs;
        this.answer(id, page);
      },
      onFailure: () => this.fail(),
      canRetire: () => this.pending.size === 0,
      onRetire: () => {
        // the next big page starts a new thread, with new dictionaries
        this.remote = null;
        this.retiredBusy += this.workerBusy;
        this.workerBusy = 0;
      },
    });
  }

  /** The thread cannot run (or stopped): the reader uses another lane or its own thread. */
  get broken(): boolean {
    return this.lane.broken;
  }

  get busyMs(): number {
    return this.retiredBusy + this.workerBusy;
  }

  get running(): boolean {
    return this.lane.current !== null;
  }

  /** Pages given to this lane and not answered yet (those waiting for the thread to start too). */
  get pendingCount(): number {
    return this.pending.size + this.starting;
  }

  /** The page read by this lane's thread; null when the thread cannot run (read it elsewhere). */
  async read(body: string | Uint8Array): Promise<ReadPage | null> {
    return this.send(body, null, finish);
  }

  /** A piece of a v1 day read by this lane's thread; null when the thread cannot run. */
  async readV1(body: Uint8Array, spec: V1PieceSpec): Promise<V1Piece | null> {
    return this.send(body, spec, v1Piece);
  }

  private async send<T>(body: string | Uint8Array, v1: V1PieceSpec | null, done: (page: EncodedPage, decoder: PageDecoder) => T): Promise<T | null> {
    this.starting++;
    let worker: WorkerThread | null;
    try {
      worker = await this.lane.start();
    } finally {
      this.starting--;
    }
    if (!worker) return null;
    if (worker !== this.lane.current) return this.broken ? null : this.send(body, v1, done); // retired meanwhile
    this.remote ??= new PageDecoder();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (page, decoder) => resolve(done(page, decoder)), reject });
      if (this.pending.size === 1) this.lane.busy();
      if (typeof body !== 'string' && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer) {
        // the bytes move to the worker without a copy (the caller's view of them is emptied)
        worker.postMessage({ id, body, v1 }, [body.buffer]);
      } else {
        worker.postMessage({ id, body, v1 });
      }
    });
  }

  private answer(id: number, page: EncodedPage): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.lane.idle();
    try {
      p.resolve(page, this.remote!);
    } catch (error) {
      p.reject(error);
    }
  }

  /** The worker stopped: what it was reading is lost (the caller asks again), later reads happen elsewhere. */
  private fail(): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new Error('the log page reader thread stopped'));
  }

  async close(): Promise<void> {
    this.lane.broken = true;
    await this.lane.close();
  }
}

function finish(page: EncodedPage, decoder: PageDecoder): ReadPage {
  if (page.syntaxError !== undefined) throw new SyntaxError(page.syntaxError);
  const batch = decoder.decode(page);
  return {
    batch,
    get entries() {
      return batch.entries();
    },
    times: batch.times,
    skipped: page.skipped,
    envelope: page.envelope,
    hasData: page.count >= 0,
  };
}

function v1Piece(page: EncodedPage, decoder: PageDecoder): V1Piece {
  if (page.syntaxError !== undefined) throw new Error(`a piece of the v1 file could not be read: ${page.syntaxError}`);
  const batch = decoder.decode(page);
  const counts = page.envelope as Omit<V1Piece, 'batch' | 'times'>;
  return { batch, times: batch.times, lines: counts.lines, skipped: counts.skipped, problems: counts.problems, lineEnds: counts.lineEnds };
}

// The worker runs these functions' source text (Function#toString). tsx (tests, benchmarks; esbuild with
// keepNames) wraps named functions and classes in calls to its helper __name(fn, "name"), which
// lives in the compiled module, not in that text: the worker defines it as the identity (a name is then
// not kept, which nothing here needs).
const WORKER_SOURCE = `
const __name = (f) => f;
const { parentPort } = require('node:worker_threads');
// the columns in shared memory: posted without a transfer list (see createPageEncoder's \`shared\`)
const encoder = (${createPageEncoder.toString()})(${JSON.stringify(CODEC_FIELDS)}, undefined, ${createByteRecordReader.toString()}, true);
let v1Reader = null;
const v1Text = new TextDecoder();
parentPort.on('message', ({ id, body, v1 }) => {
  let page;
  try {
    if (v1) {
      // a piece of a v1 day: whole lines, read here into records, then encoded as a page is
      v1Reader ??= (${createV1Reader.toString()})(${JSON.stringify(V1_SOURCES)});
      const text = v1Text.decode(body);
      page = encoder.encodeEach(text.length >> 8, (add) => {
        const { entries, ...counts } = v1Reader.readLinesEach(text, v1.zoneId, v1.firstLine, v1.problemRoom, add);
        return counts;
      });
    } else {
      // Bytes are read as bytes (a body that needs its text is decoded by TextDecoder, whose string
      // lives in V8's heap: Buffer#toString('latin1') above 1 MB makes an external string in malloc'd
      // memory, and this thread's malloc arena kept ~60 MB resident of dead page texts).
      page = typeof body === 'string' ? encoder.encode(body) : encoder.encodeBytes(body);
    }
  } catch (error) {
    page = { syntaxError: String(error && error.message), count: -1, skipped: 0, newValues: [], newFields: new Uint8Array(0) };
  }
  parentPort.postMessage({ id, page, busyMs: performance.eventLoopUtilization().active });
});
`;
