import type { LogEntry } from '../api/logs/entry';
import type { RecordBatch } from './record-batch';

/**
 * Where the follow engine puts what it reads (a LogBuffer is one; a screen's own store can be
 * another): records of every followed zone, deduped by request id, in time order, bounded.
 */
export interface FollowSink {
  /** Inserts a batch; appends the records it did not hold yet (and their times) to added/addedTimes. */
  insert(batch: readonly LogEntry[], times: ArrayLike<number>, added: LogEntry[], addedTimes: number[]): number;
  /** The same from a page's columns (no objects built); appends the batch indexes of the records kept to addedAt. */
  insertBatch?(batch: RecordBatch, addedAt: number[], addedTimes: number[]): number;
  has(key: string): boolean;
  readonly length: number;
  readonly capacity: number;
  /** Records up to this time were let go for lack of room. */
  readonly evictedUpTo: number;
  /** Changes whenever the content changes. */
  readonly version: number;
  readonly dropped: number;
  readonly duplicates: number;
}
