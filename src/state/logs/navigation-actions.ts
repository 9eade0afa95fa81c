import { selectPaused, type LogsSliceContext } from './slice-context';
import type { LogsState } from './types';

type NavigationActions = Pick<LogsState, 'move' | 'togglePause' | 'jumpToTime'>;

/** The logs store's moves: rows, pages, top and bottom, pause, and a jump to a time. */
export function logsNavigationActions(ctx: LogsSliceContext): NavigationActions {
  const { model, pause, get, refreshView } = ctx;
  return {
    move(kind) {
      const s = get();
      if (s.view.total === 0 && model.total === 0) return;
      if (kind === 'bottom') {
        pause.clear();
        refreshView({ following: true, ...pause.resetCounts() });
        return;
      }
      // Positions now (records may have come or gone since the last frame).
      const w = ctx.computeWindow();
      const visibleRows = Math.max(1, w.rows.length);
      const row = Math.max(
        0,
        w.rows.findIndex((r) => r.pos === w.selected),
      );
      let target = w.selected;
      let targetRow = row;
      // while a new pattern is counting, the rows a move needs are matched first
      let from = w.selected;
      if (kind === 'down' || kind === 'pageDown') from = model.reach(from, 1, kind === 'down' ? 1 : visibleRows);
      else if (kind === 'up' || kind === 'pageUp') from = model.reach(from, -1, kind === 'up' ? 1 : visibleRows);
      else if (kind === 'top') model.reachEnd(-1);
      const total = model.total;
      if (kind === 'down') {
        target = model.realRow(from + 1, 1);
        targetRow = row + 1;
      } else if (kind === 'up') {
        target = model.realRow(from - 1, -1);
        targetRow = row - 1;
      } else if (kind === 'pageDown') target = model.realRow(Math.min(total - 1, from + visibleRows), 1);
      else if (kind === 'pageUp') target = model.realRow(Math.max(0, from - visibleRows), -1);
      else if (kind === 'top') {
        target = model.realRow(0, 1);
        targetRow = 0;
      }
      selectPaused(ctx, target, targetRow);
    },

    togglePause() {
      if (get().following) {
        refreshView({ following: false, ...pause.resetCounts() });
      } else {
        pause.clear();
        refreshView({ following: true, ...pause.resetCounts() });
      }
    },

    jumpToTime(t) {
      if (model.total === 0) return null;
      const pos = model.realRow(model.positionOf(-1, t), 1);
      const at = model.timeAt(pos);
      selectPaused(ctx, pos, 0);
      return Number.isNaN(at) ? null : at;
    },
  };
}
