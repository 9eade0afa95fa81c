import type { LogBuffer } from '../log-engine/buffer';
import type { Yield } from './column-load';
import type { LogsSqlEngine } from './engine';

/** What one sync did. */
export interface SyncReport {
  /** Rows put in the table (all of them when the table was made again). */
  added: number;
  /** Rows taken out because the buffer let their records go. */
  removed: number;
  /** The table was emptied and loaded again (another buffer: a new zone, window or filter). */
  reloaded: boolean;
  /** The table did not match the buffer after the sync and was made again from it (a fault of the sync). */
  rebuilt: boolean;
}

/**
 * Keeps the engine's `logs` table equal to a screen's record buffer, one sync at a time:
 * - the first sync (and any after the screen started a new buffer) loads every record held;
 * - later syncs append only the records the buffer kept since the last one (it tells us each
 *   insert's slots; a slot whose record left again before the sync is skipped);
 * - records the full buffer evicted leave the table too (the oldest go first, so the rows older
 *   than the buffer's oldest record are deleted), so the table holds exactly what the screen
 *   holds and its row count is the screen's.
 * Syncs never overlap, and the store is read in slices with the event loop in between.
 */
export class LogsTableSync {
  private buffer: LogBuffer | null = null;
  private slots: number[] = [];
  private seqs: number[] = [];
  private evicted = 0;
  private offs: (() => void)[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly engine: LogsSqlEngine,
    private readonly source: () => LogBuffer | null,
    private readonly pause: Yield = () => new Promise<void>((resolve) => setImmediate(resolve)),
    /** Milliseconds of loading between two turns of the event loop. */
    private readonly sliceMs?: number,
  ) {}

  /** Runs `work` after every sync and statement queued before it (the engine does one thing at a time). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Brings the table up to date with the buffer. */
  sync(): Promise<SyncReport> {
    return this.exclusive(() => this.syncNow());
  }

  /** Stops listening to the buffer (the engine is closed by its owner). */
  detach(): void {
    for (const off of this.offs) off();
    this.offs = [];
    this.buffer = null;
  }

  private listen(buffer: LogBuffer): void {
    this.detach();
    this.buffer = buffer;
    this.slots = [];
    this.seqs = [];
    this.evicted = 0;
    this.offs.push(
      buffer.onAdded((slots) => {
        for (const slot of slots) {
          this.slots.push(slot);
          this.seqs.push(buffer.columns.seqs[slot]!);
        }
      }),
      buffer.onEvicted(() => {
        this.evicted++;
      }),
    );
  }

  private async syncNow(): Promise<SyncReport> {
    const buffer = this.source();
    if (buffer !== this.buffer) {
      let removed = 0;
      if (this.engine.rowCount > 0) removed = await this.engine.deleteRows();
      if (!buffer) {
        this.detach();
        return { added: 0, removed, reloaded: true, rebuilt: false };
      }
      this.listen(buffer);
      const added = await this.loadRange(buffer, 0, buffer.length);
      return { added, removed, reloaded: true, rebuilt: false };
    }
    if (!buffer) return { added: 0, removed: 0, reloaded: false, rebuilt: false };
    let removed = 0;
    if (this.evicted > 0) {
      this.evicted = 0;
      const oldest = buffer.oldestTime;
      removed = oldest === null ? await this.engine.deleteRows() : await this.engine.deleteRows(oldest);
    }
    const slots = this.slots;
    const seqs = this.seqs;
    this.slots = [];
    this.seqs = [];
    let added = await this.engine.appendStored(buffer.columns, slots, seqs, this.pause, this.sliceMs);
    // records at the oldest time may be partly evicted: that millisecond is put back from the store
    if (this.evicted === 0 && this.slots.length === 0 && this.engine.rowCount !== buffer.length) {
      const oldest = buffer.oldestTime;
      if (oldest !== null) {
        removed += await this.engine.deleteAt(oldest);
        added += await this.loadRange(buffer, 0, buffer.upperBound(oldest));
      }
      if (this.engine.rowCount !== buffer.length) {
        // should not happen; made again rather than left wrong
        removed += await this.engine.deleteRows();
        added = await this.loadRange(buffer, 0, buffer.length);
        return { added, removed, reloaded: true, rebuilt: true };
      }
    }
    return { added, removed, reloaded: false, rebuilt: false };
  }

  private loadRange(buffer: LogBuffer, start: number, end: number): Promise<number> {
    const n = Math.max(0, end - start);
    const slots = new Int32Array(n);
    const seqs = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const slot = buffer.slotAt(start + i);
      slots[i] = slot;
      seqs[i] = buffer.columns.seqs[slot]!;
    }
    return this.engine.appendStored(buffer.columns, slots, seqs, this.pause, this.sliceMs);
  }
}
