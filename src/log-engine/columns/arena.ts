export const ARENA_CHUNK = 1 << 20;
const CHUNK = ARENA_CHUNK;

interface Chunk {
  bytes: Buffer;
  /** Blobs written here that are still held. */
  live: number;
}

/** Chunks held at once at most (4 GiB of blobs): a reference fits 32 bits. */
const MAX_CHUNKS = 4096;

/**
 * The variable-length bytes of records (paths, and the rare fields that do not fit a column), one
 * blob per record appended to 1 MiB chunks. A chunk is let go when every blob in it was released;
 * records arrive roughly in time order and leave oldest first, so chunks empty in turn.
 * A blob's reference is chunk number * 2^20 + offset, 32 bits: numbers of chunks let go are used
 * again.
 */
export class Arena {
  private readonly chunks = new Map<number, Chunk>();
  private current: Chunk | null = null;
  private currentNo = -1;
  private nextNo = 0;
  private readonly freeNos: number[] = [];
  private used = CHUNK;

  /** Starts a blob of at most `maxBytes`; write it with `bytes` at `at`, then `commit(length)`. */
  reserve(maxBytes: number): { bytes: Buffer; at: number; ref: number } {
    if (this.current === null || this.used + maxBytes > this.current.bytes.length) {
      if (this.current !== null && this.current.live === 0) {
        // nothing in it is held any more: let it go as we move on
        this.chunks.delete(this.currentNo);
        this.freeNos.push(this.currentNo);
      }
      this.currentNo = this.freeNos.pop() ?? this.nextNo++;
      if (this.currentNo >= MAX_CHUNKS) throw new RangeError('the log store holds more than 4 GiB of text');
      // a blob bigger than a chunk gets a chunk of its own
      this.current = { bytes: Buffer.allocUnsafeSlow(Math.max(CHUNK, maxBytes)), live: 0 };
      this.chunks.set(this.currentNo, this.current);
      this.used = 0;
    }
    return { bytes: this.current.bytes, at: this.used, ref: this.currentNo * CHUNK + this.used };
  }

  commit(length: number): void {
    this.used += length;
    this.current!.live++;
  }

  /** The chunk and offset of a blob. */
  locate(ref: number): { bytes: Buffer; at: number } {
    const no = Math.floor(ref / CHUNK);
    return { bytes: this.chunks.get(no)!.bytes, at: ref - no * CHUNK };
  }

  chunkOf(ref: number): Buffer {
    return this.chunks.get(Math.floor(ref / CHUNK))!.bytes;
  }

  release(ref: number): void {
    const no = Math.floor(ref / CHUNK);
    const chunk = this.chunks.get(no);
    if (!chunk || --chunk.live > 0) return;
    if (chunk === this.current) {
      // keep writing into it from the start
      this.used = 0;
      return;
    }
    this.chunks.delete(no);
    this.freeNos.push(no);
  }

  /** Bytes held in chunks. */
  get bytes(): number {
    let n = 0;
    for (const c of this.chunks.values()) n += c.bytes.length;
    return n;
  }

  clear(): void {
    this.chunks.clear();
    this.current = null;
    this.currentNo = -1;
    this.nextNo = 0;
    this.freeNos.length = 0;
    this.used = CHUNK;
  }
}
