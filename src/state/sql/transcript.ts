import type { SqlContext } from './context';
import type { Entry, SqlState } from './types';

export type TranscriptActions = Pick<SqlState, 'setFocus' | 'setPageLines' | 'scrollTranscript' | 'browseMove' | 'browseEntry'>;

/** Entries that have lines to page through full screen. */
export function isBrowsable(e: Entry): boolean {
  return e.kind === 'result' || e.kind === 'text' || e.kind === 'words';
}

/** Where the keyboard is (input or results), the transcript's scroll and the result browsed. */
export function transcriptActions({ get, set }: SqlContext): TranscriptActions {
  return {
    setFocus(focus) {
      if (focus === 'results') set({ focus, browse: { entryId: null, top: 0, h: 0, row: 0 }, completions: null });
      else set({ focus });
    },

    setPageLines(n) {
      if (n !== get().pageLines) set({ pageLines: n });
    },

    scrollTranscript(delta) {
      set((s) => ({ scroll: Math.max(0, s.scroll + delta) }));
    },

    browseMove(patch) {
      set((s) => ({ browse: { ...s.browse, ...patch } }));
    },

    browseEntry(dir) {
      const s = get();
      const browsable = s.entries.filter(isBrowsable);
      if (browsable.length === 0) return;
      const current = s.browse.entryId ?? browsable[browsable.length - 1]!.id;
      const at = browsable.findIndex((e) => e.id === current);
      const next = browsable[Math.max(0, Math.min(browsable.length - 1, (at < 0 ? browsable.length - 1 : at) + dir))]!;
      set({ browse: { entryId: next.id, top: 0, h: 0, row: 0 } });
    },
  };
}
