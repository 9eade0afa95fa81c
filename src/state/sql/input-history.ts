import type { KeyEvent } from '../../keys/key-event';
import { editorOf } from '../../sql-repl/editor';
import { addHistory, historyStep, searchOlder, searchType } from '../../sql-repl/history';
import { appendHistory, loadHistory } from '../../sql-repl/history-file';
import { errorMessage } from '../domain-stores';
import type { SqlContext } from './context';

export interface InputHistory {
  /** Reads the database's history file; later inputs are appended to it. */
  open(file: string): void;
  remember(text: string): void;
  /** Up/down past the editor's first/last line: the older or newer input. */
  step(dir: -1 | 1): void;
  /** Ctrl-R: starts a reverse search, or finds an older match. */
  reverseSearch(): void;
  /** A key while a reverse search is open. */
  searchKey(ev: KeyEvent): boolean;
}

/** Inputs already run, per database, walked with up/down and searched with ctrl-r. */
export function createInputHistory(ctx: SqlContext): InputHistory {
  const { get, set } = ctx;
  let file: string | null = null;
  let warned = false;

  return {
    open(path) {
      file = path;
      set({ history: loadHistory(path) });
    },

    remember(text) {
      set((s) => ({ history: addHistory(s.history, text), historyIndex: null, draft: '' }));
      if (!file) return;
      try {
        appendHistory(file, text.trim());
      } catch (error) {
        if (!warned) ctx.message('warn', `history is not saved: ${errorMessage(error)}`);
        warned = true;
      }
    },

    step(dir) {
      const s = get();
      const next = historyStep(s.history, s.historyIndex, dir);
      if (next === undefined) return;
      const draft = s.historyIndex === null ? s.editor.text : s.draft;
      const text = next === null ? draft : s.history[next]!;
      set({ historyIndex: next, draft });
      ctx.setEditor(editorOf(text));
    },

    reverseSearch() {
      const s = get();
      if (s.search) set({ search: searchOlder(s.history, s.search) });
      else set({ search: { query: '', match: -1, failed: false }, completions: null });
    },

    searchKey(ev) {
      const s = get();
      const search = s.search!;
      if (ev.text !== null) {
        set({ search: searchType(s.history, search, search.query + ev.text) });
        return true;
      }
      switch (ev.name) {
        case 'backspace':
          set({ search: searchType(s.history, null, search.query.slice(0, -1)) });
          return true;
        case 'esc':
        case 'ctrl-g':
          set({ search: null });
          return true;
        default: {
          // any other key takes the match into the editor and then does what it does there
          const found = search.match >= 0 ? s.history[search.match]! : s.editor.text;
          set({ search: null, historyIndex: null });
          ctx.setEditor(editorOf(found));
          if (ev.name === 'enter') {
            void get().enter();
            return true;
          }
          return get().key(ev);
        }
      }
    },
  };
}
