import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
/**
 * A Hrana stream: one SQLite connection in the engine process (taken on first use, known here by
 * its id and the engine generation it lives in) and its stored SQL texts.
 */
export interface Stream {
  id: bigint;
  seq: bigint;
  database: string;
  conn: number | null;
  /** The engine generation of `conn`: when the engine restarts, the connection is gone. */
  connGeneration: number;
  /** The connection's transaction state after its last request (true without a connection). */
  autocommit: boolean;
  sqls: Map<number, string>;
  readOnly: boolean;
  busy: boolean;
  closed: boolean;
  timer: NodeJS.Timeout | null;
}

export type Lookup = { ok: true; stream: Stream } | { ok: false; reason: 'invalid' | 'reused' | 'expired' };

/** How long an expired stream's baton still gets STREAM_EXPIRED instead of "invalid" (sqld: 300 s). */
const TOMBSTONE_MS = 300_000;

/**
 * Streams by baton, as sqld keeps them: a baton is stream id + sequence number + MAC, valid for
 * exactly one request. A stream idle for `idleMs` expires and its transaction is rolled back.
 */
export class StreamStore {
  private readonly key = randomBytes(32);
  private readonly live = new Map<bigint, Stream>();
  private readonly tombstones = new Map<bigint, number>();
  private expired = 0;

  constructor(
    private readonly idleMs: number,
    private readonly release: (stream: Stream) => void,
    private readonly now: () => number = Date.now,
  ) {}

  open(database: string): Stream {
    const id = randomBytes(8).readBigUInt64BE();
    const stream: Stream = {
      id,
      seq: randomBytes(8).readBigUInt64BE() >> 1n,
      database,
      conn: null,
      connGeneration: -1,
      autocommit: true,
      sqls: new Map(),
      readOnly: false,
      busy: false,
      closed: false,
      timer: null,
    };
    this.live.set(id, stream);
    return stream;
  }

  /** Finds the stream of a baton and consumes the baton (it is single-use). */
  take(baton: string, database: string): Lookup {
    const raw = /^[A-Za-z0-9_-]{43,44}$/.test(baton) ? Buffer.from(baton, 'base64url') : null;
    if (!raw || raw.length !== 32) return { ok: false, reason: 'invalid' };
    const body = raw.subarray(0, 16);
    const mac = createHmac('sha256', this.key).update(body).digest().subarray(0, 16);
    if (!timingSafeEqual(mac, raw.subarray(16))) return { ok: false, reason: 'invalid' };
    const id = body.readBigUInt64BE(0);
    const seq = body.readBigUInt64BE(8);
    const stream = this.live.get(id);
    if (!stream) {
      this.prune();
      return this.tombstones.has(id) ? { ok: false, reason: 'expired' } : { ok: false, reason: 'invalid' };
    }
    if (stream.database !== database) return { ok: false, reason: 'invalid' };
    if (stream.busy || seq !== stream.seq) return { ok: false, reason: 'reused' };
    stream.seq++;
    return { ok: true, stream };
  }

  /** The baton for the stream's next request. */
  baton(stream: Stream): string {
    const body = Buffer.alloc(16);
    body.writeBigUInt64BE(stream.id, 0);
    body.writeBigUInt64BE(BigInt.asUintN(64, stream.seq), 8);
    const mac = createHmac('sha256', this.key).update(body).digest().subarray(0, 16);
    return Buffer.concat([body, mac]).toString('base64url');
  }

  begin(stream: Stream): void {
    stream.busy = true;
    if (stream.timer) clearTimeout(stream.timer);
    stream.timer = null;
  }

  /** The request is done: the idle clock starts again. */
  end(stream: Stream): void {
    stream.busy = false;
    if (stream.closed) return;
    stream.timer = setTimeout(() => this.expire(stream), this.idleMs);
    stream.timer.unref();
  }

  /** Closes at once (a `close` request, or an HTTP error that aborts the pipeline). */
  destroy(stream: Stream): void {
    if (stream.timer) clearTimeout(stream.timer);
    stream.timer = null;
    stream.closed = true;
    if (this.live.delete(stream.id)) this.release(stream);
  }

  private expire(stream: Stream): void {
    if (stream.busy || stream.closed) return;
    this.destroy(stream);
    this.tombstones.set(stream.id, this.now() + TOMBSTONE_MS);
    this.expired++;
  }

  private prune(): void {
    const t = this.now();
    for (const [id, until] of this.tombstones) if (until <= t) this.tombstones.delete(id);
  }

  /** Streams that match (the ones whose connection died with the engine). */
  destroyWhere(pred: (stream: Stream) => boolean): number {
    let n = 0;
    for (const s of [...this.live.values()]) {
      if (!pred(s)) continue;
      this.destroy(s);
      n++;
    }
    return n;
  }

  /** Every stream of a database (revocation does not close them: the next request is refused). */
  closeAll(): void {
    for (const s of [...this.live.values()]) this.destroy(s);
    this.tombstones.clear();
  }

  get size(): number {
    return this.live.size;
  }

  /** Streams expired for idleness so far (tests wait on it instead of sleeping past the limit). */
  get expiredCount(): number {
    return this.expired;
  }
}
