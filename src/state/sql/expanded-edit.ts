import { editorOf } from '../../sql-repl/editor';
import { isBrowsable } from './transcript';
import type { SqlContext } from './context';
import type { SqlState } from './types';

export type ExpandedEditActions = Pick<SqlState, 'setExpanded' | 'toggleBrowsedExpanded' | 'editExternally'>;

/** pgcli's habits: expanded records (`\x`: here `.x` and `x`) and the input in an editor (`\e`: `.edit`, ctrl-x ctrl-e). */
export function expandedEditActions(ctx: SqlContext): ExpandedEditActions {
  const { get, set, message } = ctx;
  const ui = ctx.deps.ui;
  return {
    setExpanded(on) {
      const s = get();
      const isOn = s.mode === 'line';
      const want = on ?? !isOn;
      if (want === isOn) {
        message('info', `expanded records ${isOn ? 'on' : 'off'} (mode ${s.mode})`);
        return;
      }
      if (want) {
        set({ mode: 'line', expandedFrom: s.mode });
        message('info', 'expanded records on: one line per column (.x again, or x on a result, turns it off)');
      } else {
        const back = s.expandedFrom ?? 'table';
        set({ mode: back, expandedFrom: null });
        message('info', `expanded records off (mode ${back})`);
      }
    },

    toggleBrowsedExpanded() {
      const s = get();
      const browsable = s.entries.filter(isBrowsable);
      const id = s.browse.entryId ?? browsable[browsable.length - 1]?.id ?? null;
      const entry = s.entries.find((e) => e.id === id);
      if (!entry || entry.kind !== 'result') {
        ui.getState().setStatus('x expands a result set: this is text', 'info', 3000);
        return;
      }
      const next =
        entry.mode === 'line'
          ? { ...entry, mode: entry.expandedFrom ?? 'table', expandedFrom: undefined }
          : { ...entry, mode: 'line' as const, expandedFrom: entry.mode };
      // a new entry object: the view's caches of lines (kept per entry) are made again
      set({ entries: s.entries.map((e) => (e.id === entry.id ? next : e)), browse: { ...s.browse, entryId: entry.id, top: 0, h: 0, row: 0 } });
      ui.getState().setStatus(next.mode === 'line' ? 'expanded: one line per column (x again: back)' : `back to ${next.mode}`, 'info', 3000);
    },

    editExternally(what) {
      const s = get();
      // .edit itself is the newest history entry: the input before it is the one meant
      const last = [...s.history].reverse().find((h) => !/^\.e(dit)?\s*$/i.test(h)) ?? '';
      const text = what === 'input' ? s.editor.text : last;
      const run = ui.getState().externalEditor;
      if (!run) {
        message('error', 'no terminal to open an editor in');
        return;
      }
      const result = run(text, 'sql');
      if ('error' in result) {
        message('error', result.error);
        return;
      }
      set({ historyIndex: null, draft: '' });
      ctx.setEditor(editorOf(result.text.replace(/\s+$/, '')));
      ui.getState().setStatus('edited: enter runs it', 'info', 3000);
    },
  };
}
