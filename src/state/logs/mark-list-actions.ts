import { formatTime } from '../../text/time-format';
import type { LogMarks, MarkRow } from './marks';
import type { LogsSliceContext } from './slice-context';

export interface MarkListContext extends Pick<LogsSliceContext, 'ui' | 'get' | 'set'> {
  marks: LogMarks;
  /** The time of the selected record (NaN when there is none). */
  selectedTime(): number;
  /** Selects a view position, paused (as moving up pauses). */
  select(pos: number): void;
  /** Opens the stats panel, where the list is, when it is closed. */
  showStats(): void;
  /** The timeline panel gives the keys back to the table (one panel has them at a time). */
  blurTimeline(): void;
}

const GONE: Record<Exclude<MarkRow['state'], 'held'>, string> = {
  evicted: 'was evicted: the full buffer let it go (it stays listed until C clears the marks)',
  hidden: 'is hidden by the local filter (esc clears it)',
  'not held': 'is not in the buffer: outside the window or the server filters',
};

/**
 * The marks list of the stats panel with the keys (`'`): a cursor on one mark, and enter selects
 * that mark's record in the table, or says why it cannot (evicted, hidden, not held).
 */
export function logsMarkListActions(ctx: MarkListContext) {
  const { marks, get, set } = ctx;
  const status = (text: string, level: 'info' | 'warn' = 'info') => ctx.ui.getState().setStatus(text, level, 5000);

  return {
    /** Gives the keys to the marks list (the cursor on the mark at or after the selected record), or back to the table. */
    focusMarks(): void {
      if (get().markCursor !== null) {
        set({ markCursor: null });
        return;
      }
      if (marks.size === 0) {
        status('no marks: m marks the selected record');
        return;
      }
      ctx.showStats();
      ctx.blurTimeline();
      const t = ctx.selectedTime();
      const list = marks.set.list();
      const at = Number.isNaN(t) ? -1 : list.findIndex((m) => m.time >= t);
      set({ markCursor: at < 0 ? list.length - 1 : at });
    },

    /** Moves the cursor by `delta` marks, stopping at the ends. */
    moveMarkCursor(delta: number): void {
      const c = get().markCursor;
      if (c === null) return;
      set({ markCursor: Math.max(0, Math.min(marks.size - 1, c + delta)) });
    },

    /** Enter on the list: the table selects the cursor's mark (paused there), or the status bar says why it cannot. */
    jumpToMarkCursor(): void {
      const c = get().markCursor;
      const mark = c === null ? undefined : marks.set.list()[c];
      if (c === null || !mark) return;
      const what = `mark ${c + 1} of ${marks.size} (${formatTime(mark.time, 'clockMs')} ${mark.status})`;
      const at = marks.locate(mark);
      if (typeof at !== 'number') {
        status(`${what} ${GONE[at]}`, 'warn');
        return;
      }
      ctx.select(at);
      status(`${what}: selected (paused; G follows again)`);
    },

    /** Gives the keys back to the table; false when the list did not have them. */
    leaveMarks(): boolean {
      if (get().markCursor === null) return false;
      set({ markCursor: null });
      return true;
    },
  };
}

/** The cursor after the marks changed: on the same index at most the last, none without marks. */
export function clampMarkCursor(cursor: number | null, size: number): number | null {
  return cursor === null || size === 0 ? null : Math.min(cursor, size - 1);
}
