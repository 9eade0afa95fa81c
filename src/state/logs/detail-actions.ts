import type { LogEntry } from '../../api/logs/index';
import { copyTextOf } from './copy';
import type { LogsSliceContext } from './slice-context';
import type { LogsState } from './types';

type DetailActions = Pick<LogsState, 'openDetail' | 'scrollDetail' | 'closeDetail' | 'copyText'>;

/** The record open in the detail view, else the selected row's. */
export function selectedEntry(get: LogsSliceContext['get']): LogEntry | null {
  const s = get();
  if (s.detail) return s.detail.entry;
  return s.view.rows.find((r) => r.pos === s.view.selected)?.entry ?? null;
}

/** The logs store's detail view of one record, and the copies of it. */
export function logsDetailActions(ctx: Pick<LogsSliceContext, 'get' | 'set'>, showSecrets: boolean): DetailActions {
  const { get, set } = ctx;
  return {
    openDetail() {
      const e = selectedEntry(get);
      if (e) set({ detail: { entry: e, scroll: 0 } });
    },

    scrollDetail(delta) {
      const d = get().detail;
      if (d) set({ detail: { ...d, scroll: Math.max(0, d.scroll + delta) } });
    },

    closeDetail() {
      if (!get().detail) return false;
      set({ detail: null });
      return true;
    },

    copyText(kind) {
      return copyTextOf(selectedEntry(get), kind, showSecrets);
    },
  };
}
