import { commonPrefix, complete } from '../../sql-repl/completion';
import { editKey, emptyEditor, moveLine, onFirstLine, onLastLine, replaceRange } from '../../sql-repl/editor';
import type { SqlContext } from './context';
import { expandedEditActions, type ExpandedEditActions } from './expanded-edit';
import type { InputHistory } from './input-history';
import { isBrowsable } from './transcript';
import type { SqlState } from './types';

/** What ctrl-c says when there is nothing to cancel or clear. */
export const LEAVE_HINT = 'ctrl-c does not leave the SQL shell: ctrl-d on an empty input or .quit does';

export type EditorKeyActions = Pick<SqlState, 'key' | 'tab' | 'interrupt'> & ExpandedEditActions;

/** The keys of the SQL input: editing, history, completion, paging the transcript, esc and ctrl-c/ctrl-d. */
export function editorKeyActions(ctx: SqlContext, history: InputHistory): EditorKeyActions {
  const { get, set } = ctx;
  const ui = ctx.deps.ui;
  // ctrl-x waits for its second key (ctrl-x ctrl-e: the input in $EDITOR, as bash and pgcli)
  let chord = false;
  return {
    // .x / x and .edit / ctrl-x ctrl-e (ctrl-x ctrl-e is one of these keys)
    ...expandedEditActions(ctx),

    key(ev) {
      const s = get();
      if (s.search) return history.searchKey(ev);
      if (chord) {
        chord = false;
        if (ev.name === 'ctrl-e') {
          get().editExternally('input');
          return true;
        }
      } else if (ev.name === 'ctrl-x') {
        chord = true;
        return true;
      }
      if (s.completions && ev.name !== 'tab') set({ completions: null });
      switch (ev.name) {
        case 'enter':
          void get().enter();
          return true;
        case 'up':
        case 'down': {
          const dir = ev.name === 'up' ? -1 : 1;
          const moved = (dir < 0 ? onFirstLine(s.editor) : onLastLine(s.editor)) ? null : moveLine(s.editor, dir);
          if (moved) ctx.setEditor(moved);
          else history.step(dir);
          return true;
        }
        case 'pgup':
          get().scrollTranscript(Math.max(1, s.pageLines - 2));
          return true;
        case 'pgdn':
          get().scrollTranscript(-Math.max(1, s.pageLines - 2));
          return true;
        case 'esc': {
          // back one level: to the results, or with none yet, off the screen
          if (s.entries.some(isBrowsable)) get().setFocus('results');
          else if (ui.getState().stack.length > 1) get().leave('back');
          else ui.getState().setStatus('no results to browse yet; .quit or ctrl-d leaves', 'info', 4000);
          return true;
        }
        case 'ctrl-d':
          if (s.editor.text === '') {
            get().leave(ctx.options.standalone ? 'quit' : 'back');
            return true;
          }
          break;
        default:
          break;
      }
      const next = editKey(s.editor, ev);
      if (!next) return false;
      ctx.setEditor(next);
      return true;
    },

    tab() {
      const s = get();
      if (s.search) return;
      const c = complete(s.editor.text, s.editor.cursor, s.schema);
      if (c.candidates.length === 0) {
        set({ completions: [] });
        return;
      }
      if (c.candidates.length === 1) {
        ctx.setEditor(replaceRange(s.editor, c.start, c.end, c.candidates[0]!));
        return;
      }
      const typed = s.editor.text.slice(c.start, c.end);
      const common = commonPrefix(c.candidates);
      const editor = common.length > typed.length ? replaceRange(s.editor, c.start, c.end, common) : s.editor;
      set({ editor, completions: c.candidates });
    },

    interrupt() {
      const s = get();
      if (s.running) {
        get().cancel();
        return true;
      }
      if (s.search) {
        set({ search: null });
        return true;
      }
      if (s.editor.text !== '') {
        set({ historyIndex: null, draft: '' });
        ctx.setEditor(emptyEditor);
        return true;
      }
      // as psql and pgcli: ctrl-c never leaves the shell (nor quits the console)
      ui.getState().setStatus(LEAVE_HINT, 'info', 4000);
      return true;
    },
  };
}
