import { useRef } from 'react';
import type { ActionHandlers } from '../../keys/input-router';
import { wideStream, type WideStream } from '../../log-records/wide-stream';
import type { LogEntry, LogsStore, ViewRow } from '../../state/logs/store';
import { useUi, useUiStore } from '../../state/store-hooks';
import { tableViewKey } from '../../text/table-model';
import { clampOffset, moveSideways, sidewaysIndicator, type SideMove } from '../../text/wide-columns';
import type { TimeMode } from '../../log-records/rows';

/**
 * The log stream's `d` (raw record) and `w` (wide mode) keys. Wide mode and its sideways offset
 * live in the ui store's table views (as for every Table), so they are kept per screen visit.
 * Wide and wrap exclude each other: turning one on turns the other off.
 */
export function useStreamSideways(options: {
  store: LogsStore;
  instanceKey: string;
  rows: readonly ViewRow[];
  timeMode: TimeMode;
  width: number;
  zones?: boolean;
}): {
  side: { stream: WideStream; offset: number } | null;
  indicator: string;
  handlers: ActionHandlers;
  toggleWrap: () => void;
} {
  const { store, instanceKey, rows, timeMode, width, zones = false } = options;
  const ui = useUiStore();
  const key = tableViewKey(instanceKey, 'stream');
  const wideOn = useUi((u) => u.views[key]?.wide === true);
  const offset = useUi((u) => u.views[key]?.hOffset ?? 0);
  const kept = useRef<WideStream | null>(null);
  const sideRef = useRef<{ stream: WideStream; offset: number } | null>(null);
  let side: { stream: WideStream; offset: number } | null = null;
  if (wideOn) {
    const entries: LogEntry[] = [];
    for (const r of rows) if (r.entry) entries.push(r.entry);
    const stream = wideStream(entries, timeMode, kept.current, zones);
    kept.current = stream;
    const at = clampOffset(offset, stream.wide, width);
    const prev = sideRef.current;
    side = prev && prev.stream === stream && prev.offset === at ? prev : { stream, offset: at };
  } else kept.current = null;
  sideRef.current = side;
  const live = useRef({ width, side });
  live.current = { width, side };

  const s = () => store.getState();
  const view = () => ui.getState().views[key];
  const selectedEntry = (): LogEntry | null => {
    const d = s().detail;
    if (d) return d.entry;
    const v = s().view;
    return v.rows.find((r) => r.pos === v.selected)?.entry ?? null;
  };
  const move = (m: SideMove) => ({
    disabledReason: () => (view()?.wide ? null : 'wide mode is off: w turns it on'),
    run: () => {
      const now = live.current.side;
      if (!now) return false;
      ui.getState().setView(key, { hOffset: moveSideways(view()?.hOffset ?? 0, m, now.stream.wide, live.current.width) });
      return true;
    },
  });
  const handlers: ActionHandlers = {
    'list.raw': {
      disabledReason: () => (selectedEntry() ? null : 'no record selected'),
      run: () => {
        const e = selectedEntry();
        if (!e) return false;
        ui.getState().showRecord({ title: `v2 log record ${e.requestId ?? e.timestamp}`, value: e });
        return true;
      },
    },
    'list.wide': () => {
      const on = !view()?.wide;
      if (on && s().wrap) s().toggleWrap();
      ui.getState().setView(key, { wide: on, hOffset: 0 });
    },
    'list.left': move('left'),
    'list.right': move('right'),
    'list.pageLeft': move('pageLeft'),
    'list.pageRight': move('pageRight'),
    'list.firstColumn': move('first'),
    'list.lastColumn': move('last'),
  };
  const toggleWrap = () => {
    if (!s().wrap && view()?.wide) ui.getState().setView(key, { wide: false, hOffset: 0 });
    s().toggleWrap();
  };
  const indicator = side ? `wide ${sidewaysIndicator(side.stream.wide, side.offset, width)}` : '';
  return { side, indicator, handlers, toggleWrap };
}
