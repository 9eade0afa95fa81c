import type { PageBodyReader, V1Piece } from './page';
import { MAX_V1_PROBLEMS } from './v1';

/*
 * A v1 day file read as a stream: the body's chunks are cut into pieces of whole lines (about a
 * MiB each), each piece is read into records by the page reader (in a worker thread), and the
 * pieces are handed over in file order. A day of a busy zone is gigabytes: nothing here holds
 * more than a few pieces.
 */

/** Bytes per piece: big enough to keep a worker busy, small enough that the first screen comes quickly. */
export const V1_PIECE_BYTES = 1024 * 1024;
/** Bytes of the first piece. */
const FIRST_PIECE_BYTES = 64 * 1024;
/** Pieces read at once (the page reader has two worker threads). */
const IN_FLIGHT = 3;
/** Complete lines waiting this long for the rest of their piece go on their own. */
const IDLE_MS = 50;

/** Cuts a stream of bytes into pieces that end at a line end (LF, or CR when a piece has no LF). */
export class V1PieceCutter {
  private parts: Buffer[] = [];
  private size = 0;
  /** The first piece is small: the first screen shows before a whole piece has come (read on the calling thread, no worker to start). */
  private threshold: number;

  constructor(private readonly pieceBytes = V1_PIECE_BYTES) {
    this.threshold = Math.min(pieceBytes, FIRST_PIECE_BYTES);
  }

  /** Adds a chunk; returns the pieces now complete (each owns its bytes). */
  push(chunk: Buffer): Buffer[] {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size < this.threshold) return [];
    let end = this.lastLineEnd(10);
    // a file with CR line ends, or one endless line: cut at a CR, else wait for more (up to 16 pieces)
    if (end < 0) end = this.lastLineEnd(13);
    if (end < 0) {
      if (this.size < this.pieceBytes * 16) return [];
      end = this.size;
    }
    this.threshold = this.pieceBytes;
    return [this.take(end)];
  }

  /** Offset just after the last byte `code` waiting, or -1. */
  private lastLineEnd(code: number): number {
    let offset = this.size;
    for (let i = this.parts.length - 1; i >= 0; i--) {
      const part = this.parts[i]!;
      offset -= part.length;
      const at = part.lastIndexOf(code);
      if (at >= 0) return offset + at + 1;
    }
    return -1;
  }

  /**
   * The first `end` bytes as a piece of its own (its buffer moves to a worker thread whole,
   * without the rest); what follows stays.
   */
  private take(end: number): Buffer {
    const piece = Buffer.allocUnsafeSlow(end);
    let at = 0;
    let i = 0;
    for (; i < this.parts.length && at < end; i++) {
      const part = this.parts[i]!;
      const n = Math.min(part.length, end - at);
      part.copy(piece, at, 0, n);
      at += n;
      if (n < part.length) {
        this.parts = [Buffer.from(part.subarray(n)), ...this.parts.slice(i + 1)];
        this.size -= end;
        return piece;
      }
    }
    this.parts = this.parts.slice(i);
    this.size -= end;
    return piece;
  }

  /** Bytes waiting for more. */
  get pending(): number {
    return this.size;
  }

  /** The complete lines waiting, as a piece (the stream is slow: show what came), or null. */
  flushLines(): Buffer | null {
    const end = this.lastLineEnd(10);
    return end <= 0 ? null : this.take(end);
  }

  /** What is left at the end of the stream (a last line without a line end). */
  end(): Buffer | null {
    if (this.size === 0) return null;
    const last = Buffer.allocUnsafeSlow(this.size);
    Buffer.concat(this.parts, this.size).copy(last);
    this.parts = [];
    this.size = 0;
    return last;
  }
}

export interface V1Progress {
  /** Bytes of the file read so far. */
  bytes: number;
  /** The file's size when the server said it (Content-Length), else null. */
  totalBytes: number | null;
  /** Non-blank lines read so far, and those of them that could not be read. */
  lines: number;
  skipped: number;
  /** The first few unreadable lines: line number and why. */
  problems: { line: number; reason: string }[];
}

/**
 * Reads the pieces of one download and hands them over in file order, each as soon as it and
 * those before it are read: `push` each chunk (awaiting it: it waits while IN_FLIGHT pieces are
 * being read or handed over), then `finish`. Complete lines that wait more than IDLE_MS for the
 * rest of a piece (a slow server) go as a piece of their own. Problems' line numbers are counted
 * from the start of the file.
 */
export class V1PieceReader {
  readonly progress: V1Progress = { bytes: 0, totalBytes: null, lines: 0, skipped: 0, problems: [] };
  private readonly cutter: V1PieceCutter;
  /** Hand-overs not finished, oldest first. */
  private readonly pending: Promise<void>[] = [];
  /** The last hand-over: each piece's waits for the one before. */
  private delivered: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  private abandoned = false;
  private idle: NodeJS.Timeout | null = null;
  private lineEnds = 0;

  constructor(
    private readonly reader: PageBodyReader,
    private readonly zoneId: number,
    private readonly deliver: (piece: V1Piece, progress: V1Progress) => void | Promise<void>,
    pieceBytes = V1_PIECE_BYTES,
  ) {
    this.cutter = new V1PieceCutter(pieceBytes);
  }

  async push(chunk: Buffer): Promise<void> {
    this.clearIdle();
    this.check();
    this.progress.bytes += chunk.length;
    for (const piece of this.cutter.push(chunk)) {
      this.start(piece);
      while (this.pending.length >= IN_FLIGHT) await this.pending[0];
      this.check();
    }
    if (this.cutter.pending > 0) {
      this.idle = setTimeout(() => {
        this.idle = null;
        const lines = this.cutter.flushLines();
        if (lines) this.start(lines);
      }, IDLE_MS);
      this.idle.unref();
    }
  }

  async finish(): Promise<V1Progress> {
    this.clearIdle();
    const last = this.cutter.end();
    if (last) this.start(last);
    await this.delivered;
    this.check();
    return this.progress;
  }

  /** A stopped download: nothing more is handed over; pieces being read are awaited and dropped. */
  async abandon(): Promise<void> {
    this.clearIdle();
    this.abandoned = true;
    await this.delivered.catch(() => {});
  }

  /** Starts reading a piece now (pieces start in file order) and queues its hand-over. */
  private start(piece: Buffer): void {
    const read = this.reader.readV1(piece, { zoneId: this.zoneId, firstLine: 1, problemRoom: MAX_V1_PROBLEMS });
    // a failed read is reported by its hand-over
    read.catch(() => {});
    const done = this.delivered.then(async () => {
      const p = await read;
      if (this.abandoned) return;
      this.account(p);
      await this.deliver(p, this.progress);
    });
    this.delivered = done;
    this.pending.push(done);
    done.then(
      () => this.pending.splice(this.pending.indexOf(done), 1),
      (error: unknown) => {
        this.failure ??= { error };
        this.pending.splice(this.pending.indexOf(done), 1);
      },
    );
  }

  private account(piece: V1Piece): void {
    const p = this.progress;
    for (const problem of piece.problems) {
      if (p.problems.length < MAX_V1_PROBLEMS) p.problems.push({ line: problem.line + this.lineEnds, reason: problem.reason });
    }
    this.lineEnds += piece.lineEnds;
    p.lines += piece.lines;
    p.skipped += piece.skipped;
  }

  private check(): void {
    if (this.failure) throw this.failure.error;
  }

  private clearIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }
}
