import type { LogBuffer } from '../../log-engine/buffer';
import { statusClassOf } from '../../log-records/timeline';
import { TimelineCounts } from '../../log-records/timeline-counts';
import type { LogsViewModel } from './view-model';

/** Main-thread time per slice when a pattern's match counts are built, taken in steps of matches. */
const SLICE_MS = 4;
const MATCH_STEP = 1000;

/** The match counts of one pattern: built oldest first, a slice at a time, then kept up to date. */
interface MatchCounts {
  key: RegExp;
  counts: TimelineCounts;
  /** Matches up to this time are counted; later ones are still to walk (+Infinity once built). */
  upTo: number;
}

/**
 * The timeline's counts for the logs view, kept as records come and go: every record held (the
 * server filters already applied), and the local pattern's matches while it filters. Counting
 * follows the store's insert/evict listeners, so a frame never rescans the records. A new store
 * (a new query) is walked once; a new pattern's final matches are walked a slice at a time
 * (SLICE_MS per turn of the event loop), so no frame waits for a whole store's worth.
 */
export class TimelineSource {
  private buffer: LogBuffer | null = null;
  private detach: () => void = () => {};
  private all = new TimelineCounts();
  private matches: MatchCounts | null = null;
  private timer: ReturnType<typeof setImmediate> | null = null;

  constructor(
    private readonly model: LogsViewModel,
    /** Told when a slice of match counts was added (the panel can draw more). */
    private readonly onProgress: () => void = () => {},
    /** Matches per step and time per slice (a test takes one small step a slice, to interleave records with the walk). */
    private readonly pace: { step: number; sliceMs: number } = { step: MATCH_STEP, sliceMs: SLICE_MS },
  ) {}

  /** Follows the model's current store (it is replaced on a new query). Cheap when it is the same. */
  sync(): void {
    const buffer = this.model.buffer;
    if (buffer === this.buffer) return;
    this.detach();
    this.buffer = buffer;
    this.all = new TimelineCounts();
    this.dropMatches();
    const cols = buffer.columns;
    for (let i = 0; i < buffer.length; i++) {
      const slot = buffer.slotAt(i);
      this.all.add(cols.time(slot), statusClassOf(cols.statusCode(slot)));
    }
    const offAdded = buffer.onAdded((slots) => {
      const m = this.matches;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const t = cols.time(slot);
        const cls = statusClassOf(cols.statusCode(slot));
        this.all.add(t, cls);
        // a match after the part walked so far is counted when the walk reaches it
        if (m && t <= m.upTo && this.model.isMatch(slot)) m.counts.add(t, cls);
      }
    });
    const offEvicted = buffer.onEvicted((slot, t) => {
      const cls = statusClassOf(cols.statusCode(slot));
      this.all.remove(t, cls);
      const m = this.matches;
      if (m && t <= m.upTo && this.model.isMatch(slot)) m.counts.remove(t, cls);
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
      this.dropMatches();
      return { counts: this.all, filtered: false };
    }
    const key = this.model.highlight!;
    if (this.matches?.key !== key) {
      this.dropMatches();
      if (this.model.counting) return { counts: null, filtered: true };
      this.matches = { key, counts: new TimelineCounts(), upTo: Number.NEGATIVE_INFINITY };
      this.walk();
    }
    const m = this.matches!;
    return { counts: m.upTo === Number.POSITIVE_INFINITY ? m.counts : null, filtered: true };
  }

  /** One slice of the walk over the pattern's matches; the next one after the event loop's turn. */
  private walk(): void {
    this.timer = null;
    this.sync();
    const m = this.matches;
    if (!m || m.upTo === Number.POSITIVE_INFINITY) return;
    // the pattern changed (or stopped filtering) since: the next counts() starts over
    if (!this.model.filtering || this.model.highlight !== m.key || this.model.counting) {
      this.dropMatches();
      return;
    }
    const cols = this.model.buffer.columns;
    const add = (slot: number) => m.counts.add(cols.time(slot), statusClassOf(cols.statusCode(slot)));
    const end = performance.now() + this.pace.sliceMs;
    do {
      const r = this.model.forEachMatchSlot(add, m.upTo, this.pace.step);
      m.upTo = r.done ? Number.POSITIVE_INFINITY : r.upTo;
    } while (m.upTo !== Number.POSITIVE_INFINITY && performance.now() < end);
    if (m.upTo === Number.POSITIVE_INFINITY) this.onProgress();
    else this.timer = setImmediate(() => this.walk());
  }

  private dropMatches(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = null;
    this.matches = null;
  }
}
