import type { LogBuffer } from '../../api/logs/buffer';
import { statusClassOf } from '../../log-records/timeline';
import { TimelineCounts } from '../../log-records/timeline-counts';
import type { LogsViewModel } from '../logs-view-model';

/**
 * The timeline's counts for the logs view, kept as records come and go: every record held (the
 * server filters already applied), and the local pattern's matches while it filters. Counting
 * follows the store's insert/evict listeners, so a frame never rescans the records; only a new
 * store (a new query) or a new pattern's final matches are walked once.
 */
export class TimelineSource {
  private buffer: LogBuffer | null = null;
  private detach: () => void = () => {};
  private all = new TimelineCounts();
  private matches: TimelineCounts | null = null;
  /** The pattern the match counts are of (the model's RegExp object, new for each pattern set). */
  private matchKey: RegExp | null = null;

  constructor(private readonly model: LogsViewModel) {}

  /** Follows the model's current store (it is replaced on a new query). Cheap when it is the same. */
  sync(): void {
    const buffer = this.model.buffer;
    if (buffer === this.buffer) return;
    this.detach();
    this.buffer = buffer;
    this.all = new TimelineCounts();
    this.matches = null;
    const cols = buffer.columns;
    for (let i = 0; i < buffer.length; i++) {
      const slot = buffer.slotAt(i);
      this.all.add(cols.times[slot]!, statusClassOf(cols.statusCode(slot)));
    }
    const offAdded = buffer.onAdded((slots) => {
      const m = this.matches;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const t = cols.times[slot]!;
        const cls = statusClassOf(cols.statusCode(slot));
        this.all.add(t, cls);
        if (m && this.model.isMatch(slot)) m.add(t, cls);
      }
    });
    const offEvicted = buffer.onEvicted((slot, t) => {
      const cls = statusClassOf(cols.statusCode(slot));
      this.all.remove(t, cls);
      if (this.matches && this.model.isMatch(slot)) this.matches.remove(t, cls);
    });
    this.detach = () => {
      offAdded();
      offEvicted();
    };
  }

  /**
   * The counts the view shows: every record, or the matches when a local pattern filters (null
   * while its matches are still being counted).
   */
  counts(): { counts: TimelineCounts | null; filtered: boolean } {
    this.sync();
    if (!this.model.filtering) {
      this.matches = null;
      this.matchKey = null;
      return { counts: this.all, filtered: false };
    }
    const key = this.model.highlight;
    if (this.matches === null || this.matchKey !== key) {
      this.matches = null;
      if (this.model.counting) return { counts: null, filtered: true };
      const m = new TimelineCounts();
      const cols = this.model.buffer.columns;
      this.model.forEachMatchSlot((slot) => m.add(cols.times[slot]!, statusClassOf(cols.statusCode(slot))));
      this.matches = m;
      this.matchKey = key;
    }
    return { counts: this.matches, filtered: true };
  }
}
