import { emptyText, textOf } from '../../keys/text-edit';
import { compilePattern } from '../../log-records/filter';
import type { LocalMode } from './view-model';
import { infoStatus, selectPaused, type LogsSliceContext } from './slice-context';
import type { LogsState } from './types';

type LocalPatternActions = Pick<
  LogsState,
  'startLocalEdit' | 'setLocalText' | 'applyLocal' | 'cancelLocalEdit' | 'clearLocal' | 'toggleLocalMode' | 'changeContext' | 'jumpMatch'
>;

/** The local pattern as the store starts it: none, filtering, no context lines. */
export function initialLocal(): LogsState['local'] {
  return { editing: false, text: emptyText, error: null, pattern: null, mode: 'filter', context: 0, matches: 0, counting: false, progress: 1 };
}

/** The logs store's local pattern (`/`): typing, applying, filter or highlight mode, context lines, n/N. */
export function logsLocalPatternActions(ctx: LogsSliceContext): LocalPatternActions {
  const { model, pause, get, set, refreshView } = ctx;
  return {
    startLocalEdit() {
      const s = get();
      set({ local: { ...s.local, editing: true, text: textOf(s.local.pattern ?? ''), error: null } });
    },

    setLocalText(text) {
      const p = text.value.trim() === '' ? null : compilePattern(text.value);
      set((s) => ({ local: { ...s.local, text, error: p && !p.ok ? p.message : null } }));
    },

    applyLocal() {
      const s = get();
      const source = s.local.text.value;
      if (source.trim() === '') {
        model.setPattern(null);
        refreshView({ local: { ...s.local, editing: false, error: null, pattern: null, matches: 0 } });
        return;
      }
      const p = compilePattern(source);
      if (!p.ok) {
        set({ local: { ...s.local, error: p.message } });
        return;
      }
      model.setMode(s.local.mode);
      // matched outward from the record on screen (paused) or from the newest (following)
      model.setPattern(p, s.following ? null : (pause.anchor?.time ?? null));
      refreshView({ local: { ...s.local, editing: false, error: null, pattern: p.source, matches: model.matches } });
    },

    cancelLocalEdit() {
      set((s) => ({ local: { ...s.local, editing: false, error: null } }));
    },

    clearLocal() {
      const s = get();
      if (s.local.pattern === null) return false;
      model.setPattern(null);
      refreshView({ local: { ...s.local, pattern: null, matches: 0, error: null } });
      return true;
    },

    toggleLocalMode() {
      const s = get();
      const mode: LocalMode = s.local.mode === 'filter' ? 'highlight' : 'filter';
      model.setMode(mode);
      refreshView({ local: { ...s.local, mode } });
      infoStatus(
        ctx,
        mode === 'filter'
          ? 'local pattern filters: only matches (and context lines) are shown'
          : 'local pattern highlights: every record is shown, n/N jump between matches',
        4000,
      );
    },

    changeContext(delta) {
      const s = get();
      model.setContext(s.local.context + delta);
      refreshView({ local: { ...s.local, context: model.context } });
      if (s.local.mode !== 'filter' || s.local.pattern === null) infoStatus(ctx, `context lines: ${model.context} (used when a / pattern filters)`, 3000);
    },

    jumpMatch(dir) {
      const s = get();
      if (s.local.pattern === null) {
        infoStatus(ctx, 'no local pattern: press / to set one', 3000);
        return;
      }
      const target = model.nextMatch(ctx.computeWindow().selected, dir);
      if (target < 0) {
        infoStatus(ctx, `no ${dir > 0 ? 'later' : 'earlier'} match of /${s.local.pattern}`, 3000);
        return;
      }
      selectPaused(ctx, target);
    },
  };
}
