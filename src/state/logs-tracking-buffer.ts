import { LogBuffer } from '../api/logs/buffer';
import { entryKey, type LogEntry } from '../api/logs/entry';

export type EvictionListener = (entries: LogEntry[], times: number[]) => void;

/**
 * A LogBuffer that says which records it let go, so statistics and filter indexes over it can
 * stay incremental. A batch of k records can push out at most the k oldest records (the buffer
 * evicts from its head), so only those are looked at: O(k) per batch, nothing when not full.
 */
export class TrackingBuffer extends LogBuffer {
  private readonly evictionListeners = new Set<EvictionListener>();

  onEvicted(listener: EvictionListener): () => void {
    this.evictionListeners.add(listener);
    return () => this.evictionListeners.delete(listener);
  }

  override insert(batch: readonly LogEntry[], times?: ArrayLike<number>, added?: LogEntry[], addedTimes?: number[]): number {
    const atRisk = this.evictionListeners.size > 0 && this.length + batch.length > this.capacity ? Math.min(this.length, batch.length) : 0;
    const front: LogEntry[] = [];
    const frontTimes: number[] = [];
    for (let i = 0; i < atRisk; i++) {
      front.push(this.get(i)!);
      frontTimes.push(this.time(i));
    }
    const droppedBefore = this.dropped;
    const kept = super.insert(batch, times, added, addedTimes);
    // only as many of the oldest as were dropped now can be gone (a re-check's batch of
    // records already held drops nothing: then nothing is looked at)
    const dropped = this.dropped - droppedBefore;
    if (atRisk > 0 && dropped > 0) {
      const gone: LogEntry[] = [];
      const goneTimes: number[] = [];
      for (let i = 0; i < Math.min(front.length, dropped); i++) {
        const e = front[i]!;
        if (this.has(e.requestId ?? entryKey(e)) && this.stillHeld(e, frontTimes[i]!)) continue;
        gone.push(e);
        goneTimes.push(frontTimes[i]!);
      }
      if (gone.length) for (const l of this.evictionListeners) l(gone, goneTimes);
    }
    return kept;
  }

  /** The very object is still in the buffer (not a new record that reused its key). */
  private stillHeld(e: LogEntry, t: number): boolean {
    for (let i = this.lowerBound(t); i < this.length && this.time(i) === t; i++) if (this.get(i) === e) return true;
    return false;
  }
}
