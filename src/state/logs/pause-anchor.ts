import type { LogsViewModel, ViewWindow } from './view-model';

export interface PauseCounts {
  newWhilePaused: number;
  newMatchesWhilePaused: number;
  evictedWhilePaused: number;
  rowsEvicted: boolean;
}

/**
 * Where a paused view stays: the record selected (by sequence number and time, so it is found
 * again as records come and go) and its row on screen; and what happened since the pause (new
 * records, new matches, records the full store let go).
 */
export class PauseAnchor {
  anchor: { seq: number; time: number } | null = null;
  row = 0;
  newSince = 0;
  newMatchesSince = 0;
  private evictedAt = 0;

  constructor(private readonly model: LogsViewModel) {}

  /** The selection of a window becomes the anchor. */
  remember(w: ViewWindow): void {
    const seq = this.model.seqAt(w.selected);
    this.anchor = seq ? { seq, time: this.model.timeAt(w.selected) } : null;
    this.row = Math.max(
      0,
      w.rows.findIndex((r) => r.pos === w.selected),
    );
  }

  /** Anchors at view position `pos`, shown at `row`. */
  moveTo(pos: number, row: number): void {
    const seq = this.model.seqAt(pos);
    this.anchor = seq ? { seq, time: this.model.timeAt(pos) } : null;
    this.row = Math.max(0, row);
  }

  clear(): void {
    this.anchor = null;
  }

  /** The anchored record is no longer in the store (evicted while paused). */
  gone(): boolean {
    return this.anchor !== null && this.model.buffer.indexOfSeq(this.anchor.seq, this.anchor.time) < 0;
  }

  /** Records evicted since the counts were last reset. */
  evictedSince(): number {
    return this.model.evicted - this.evictedAt;
  }

  /** Starts the counts over (a pause, or following again); returns the state patch saying so. */
  resetCounts(): PauseCounts {
    this.newSince = 0;
    this.newMatchesSince = 0;
    this.evictedAt = this.model.evicted;
    return { newWhilePaused: 0, newMatchesWhilePaused: 0, evictedWhilePaused: 0, rowsEvicted: false };
  }
}
