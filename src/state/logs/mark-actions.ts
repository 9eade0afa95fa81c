import { emptyText } from '../../keys/text-edit';
import { displayZone, formatTime } from '../../text/time-format';
import { parseTimeInput } from '../../text/time-parse';
import { clampMarkCursor } from './mark-list-actions';
import { markStatus } from './mark-status';
import { timeTarget, type LogMarks } from './marks';
import type { LogsSliceContext } from './slice-context';
import type { LogsState, Prompt } from './types';

export interface MarkActionsContext extends Pick<LogsSliceContext, 'model' | 'ui' | 'now' | 'get' | 'set'> {
  marks: LogMarks;
  /** The selected view position now. */
  selected(): number;
  /** Selects a view position, paused (as moving up pauses). */
  select(pos: number): void;
  /**
   * `@` to a time past the platform's retention with a log store configured: opens the window
   * around it from the store; false when it does not (no store, or a time the platform keeps).
   */
  openPast?: (t: number) => boolean;
}

/** The logs store's actions for marks and time jumps (`m`, `M`, `U`, `C`, `@`, ctrl-t in the export prompt). */
export function logsMarkActions(ctx: MarkActionsContext) {
  const { model, marks, ui, get, set } = ctx;
  const status = (text: string, ms: number) => ui.getState().setStatus(text, 'info', ms);
  const publish = () => {
    set({ marks: { count: marks.size, version: marks.set.version }, markCursor: clampMarkCursor(get().markCursor, marks.size) });
    // marks live only as long as the console (on every zone): quitting asks while there are any
    const n = marks.set.total;
    ui.getState().setPending('logs:marks', n ? `${n} mark${n === 1 ? '' : 's'} on the logs screen` : null);
  };

  return {
    toggleMark(): void {
      const pos = ctx.selected();
      const e = model.entryAt(pos);
      if (!e) {
        status('no record selected to mark', 3000);
        return;
      }
      const time = model.timeAt(pos);
      const on = marks.set.toggle(e, time);
      publish();
      status(markStatus(on, e, time, marks.size), 5000);
    },

    jumpMark(dir: 1 | -1): void {
      const target = marks.target(ctx.selected(), dir);
      if ('message' in target) {
        status(target.message, 4000);
        return;
      }
      ctx.select(target.pos);
      const n = marks.set.list().indexOf(target.mark) + 1;
      const around = target.wrapped ? ` (went around to the ${dir > 0 ? 'first' : 'last'})` : '';
      status(`mark ${n} of ${marks.size}: ${formatTime(target.mark.time, 'clockMs')} ${target.mark.status}${around}`, 4000);
    },

    clearMarks(): void {
      const n = marks.set.clear();
      publish();
      status(n ? `${n} mark${n === 1 ? '' : 's'} cleared` : 'no marks to clear', 3000);
    },

    isMarked(e: Parameters<LogsState['isMarked']>[0]): boolean {
      return marks.set.has(e);
    },

    markRows() {
      return marks.rows();
    },

    openTimeJump(): void {
      // with a log store, a time past the retention can be opened even from an empty screen
      if (model.total === 0 && !ctx.openPast) {
        status('no records to jump in yet', 3000);
        return;
      }
      set({ prompt: { kind: 'time', text: emptyText, error: null, offer: null } });
    },

    /** Enter in the `@` field: jump, or keep the field open with why not (a second enter takes the nearest record offered). */
    submitTimeJump(p: Extract<Prompt, { kind: 'time' }>): void {
      const text = p.text.value.trim();
      const parsed = parseTimeInput(text, ctx.now(), displayZone());
      if (!parsed.ok) {
        set({ prompt: { ...p, error: parsed.message, offer: null } });
        return;
      }
      const target = timeTarget(model, parsed.ms);
      // not among the records held, older than the platform keeps: the window around it from the store
      if (!('pos' in target) && ctx.openPast?.(parsed.ms)) {
        set({ prompt: null });
        return;
      }
      if ('pos' in target || ('nearest' in target && p.offer === text)) {
        set({ prompt: null });
        ctx.select('pos' in target ? target.pos : target.nearest);
        const at = model.timeAt(get().view.selected);
        status(
          `${'pos' in target ? 'at' : 'nearest to'} ${formatTime(parsed.ms, 'dateTime')}: the record of ${formatTime(at, 'clockMs')} (G follows again)`,
          6000,
        );
        return;
      }
      set({ prompt: { ...p, error: target.message, offer: 'nearest' in target ? text : null } });
    },

    toggleExportMarked(): void {
      const p = get().prompt;
      if (p?.kind !== 'export') return;
      if (!p.markedOnly && marks.size === 0) {
        set({ prompt: { ...p, error: 'no marks: m marks records (esc, mark, then e again)' } });
        return;
      }
      set({ prompt: { ...p, markedOnly: !p.markedOnly, marked: marks.size, error: null } });
    },
  };
}
