import { BUCKET_STEPS, formatBucket } from '../../log-records/timeline';
import { bucketOf, stepFor, timelineView, type TimelineView } from '../../log-records/timeline-view';
import type { LogsViewModel } from './view-model';
import { TimelineSource } from './timeline-source';
import { formatTime } from '../../text/time-format';

/** The logs screen's timeline panel: open or not, which part has the keys, zoom, cursor, and what it draws. */
export interface TimelineState {
  open: boolean;
  /** Which of the panel and the table takes the keys both have (+ - enter left right esc). */
  focus: 'timeline' | 'table';
  /** Zoom step asked for (index into BUCKET_STEPS); null: the one that fits the window. */
  step: number | null;
  /** A time in the cursor's bucket; null: the newest bucket (the cursor moves on with it). */
  cursorAt: number | null;
  view: TimelineView | null;
  /** The counts are the local pattern's matches (it filters). */
  filtered: boolean;
  /** The local pattern's matches are still being counted. */
  counting: boolean;
}

export interface TimelineActions {
  /** Opens the panel (with the keys) or closes it. */
  toggleTimeline(): void;
  /** Gives the keys to the panel or back to the table; false when the panel is closed. */
  switchTimelineFocus(to?: 'timeline' | 'table'): boolean;
  /** One zoom step: -1 finer buckets, 1 coarser. */
  zoomTimeline(dir: 1 | -1): void;
  /** Moves the cursor by `delta` buckets. */
  moveTimelineCursor(delta: number): void;
  /** The table jumps to the first record of the cursor's bucket (and pauses there). */
  jumpToTimelineCursor(): void;
}

export interface TimelineDeps {
  model: LogsViewModel;
  get: () => { timeline: TimelineState };
  set: (patch: { timeline: TimelineState }) => void;
  /** Asks for a frame (the match counts of a new pattern were finished). */
  schedule: () => void;
  /** Columns the panel has (one per bucket). */
  columns: () => number;
  /**
   * While following the live API: the time up to which records are in (now less the ingestion
   * lag); the window reaches it, so a stop in traffic shows as empty buckets. Null otherwise.
   */
  settledBefore: () => number | null;
  /** The table selects the first row at or after time `t` (pausing); the time of that row, or null when there is none. */
  jumpToTime: (t: number) => number | null;
  status: (text: string, level: 'info' | 'warn') => void;
}

export const initialTimeline = (): TimelineState => ({ open: false, focus: 'table', step: null, cursorAt: null, view: null, filtered: false, counting: false });

const hhmmss = (t: number) => formatTime(t, 'clock');

/**
 * The timeline slice of the logs store: its state, its actions, and `frame()`, which the store's
 * frame clock calls to refresh what the panel draws (only when the counts, the window's end, the
 * width, the zoom or the cursor changed).
 */
export function createTimelineSlice(deps: TimelineDeps): { actions: TimelineActions; frame: () => TimelineState | null } {
  const source = new TimelineSource(deps.model, deps.schedule);
  let scrollFirst: number | null = null;
  let lastKey = '';

  function window(): { start: number | null; end: number | null } {
    const b = deps.model.buffer;
    const start = b.oldestTime;
    if (start === null) return { start: null, end: null };
    const newest = b.newestTime!;
    const settled = deps.settledBefore();
    return { start, end: settled === null ? newest : Math.max(newest, settled - 1) };
  }

  function compute(t: TimelineState, force: boolean): TimelineState | null {
    const { counts, filtered } = source.counts();
    const w = window();
    const columns = deps.columns();
    const size = BUCKET_STEPS[stepFor({ ...w, columns, step: t.step })]!;
    const key = `${counts?.version ?? -1}:${filtered}:${w.start === null ? '' : Math.floor(w.start / size)}:${w.end === null ? '' : Math.floor(w.end / size)}:${columns}:${t.step}:${t.cursorAt}`;
    if (!force && key === lastKey) return null;
    lastKey = key;
    const view = counts ? timelineView(counts, { ...w, columns, step: t.step, cursorAt: t.cursorAt, scrollFirst }) : null;
    scrollFirst = view ? view.first : null;
    return { ...t, view, filtered, counting: filtered && counts === null };
  }

  function update(patch: Partial<TimelineState>): void {
    const next = { ...deps.get().timeline, ...patch };
    deps.set({ timeline: next.open ? compute(next, true)! : next });
  }

  const actions: TimelineActions = {
    toggleTimeline() {
      const t = deps.get().timeline;
      if (t.open) update({ open: false, focus: 'table', view: null });
      else {
        scrollFirst = null;
        update({ open: true, focus: 'timeline' });
      }
    },

    switchTimelineFocus(to) {
      const t = deps.get().timeline;
      if (!t.open) return false;
      update({ focus: to ?? (t.focus === 'timeline' ? 'table' : 'timeline') });
      return true;
    },

    zoomTimeline(dir) {
      const t = deps.get().timeline;
      const w = window();
      const current = stepFor({ ...w, columns: deps.columns(), step: t.step });
      const step = Math.max(0, Math.min(BUCKET_STEPS.length - 1, current + dir));
      if (step === current) {
        deps.status(`${formatBucket(BUCKET_STEPS[step]!)} buckets are the ${dir < 0 ? 'finest' : 'coarsest'}`, 'info');
        return;
      }
      // the cursor stays at the time it was on
      const at = t.cursorAt ?? (t.view && !t.view.cursorLive ? bucketOf(t.view, t.view.cursor).start : null);
      update({ step, cursorAt: at });
    },

    moveTimelineCursor(delta) {
      const t = deps.get().timeline;
      const v = t.view;
      if (!v) return;
      const at = bucketOf(v, v.cursor).start + delta * v.size;
      const firstStart = v.first - v.offset * v.size;
      const lastStart = firstStart + (v.spanned - 1) * v.size;
      // past the newest bucket: the cursor follows the newest again
      update({ cursorAt: at >= lastStart ? null : Math.max(firstStart, at) });
    },

    jumpToTimelineCursor() {
      const v = deps.get().timeline.view;
      if (!v) return;
      const b = bucketOf(v, v.cursor);
      const at = deps.jumpToTime(b.start);
      if (at === null) deps.status('no records to jump to', 'info');
      else if (at >= b.end || at < b.start) deps.status(`no record in ${hhmmss(b.start)}–${hhmmss(b.end)}: on the next one (${hhmmss(at)})`, 'info');
      else deps.status(`first record of ${hhmmss(b.start)}–${hhmmss(b.end)} (paused; G follows again)`, 'info');
    },
  };

  return {
    actions,
    frame() {
      source.sync();
      const t = deps.get().timeline;
      return t.open ? compute(t, false) : null;
    },
  };
}
