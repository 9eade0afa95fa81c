import { defineActions } from '../../keys/keymap';

/** Keys of the video libraries screen (context "videos"); table keys come from the core keymap. */
export const videosActions = defineActions([
  { id: 'videos.search', keys: ['f'], description: 'search libraries on the server (sent as search; empty clears)', context: 'videos', hint: 'search' },
  { id: 'videos.pageSize', keys: ['z'], description: 'set the page size (5 to 1000 libraries per request)', context: 'videos', hint: 'page size' },
  { id: 'videos.reveal', keys: ['v'], description: 'library detail: show the selected key for a few seconds', context: 'videos', hint: 'reveal' },
  {
    id: 'videos.copy',
    keys: ['c'],
    description: 'library detail: copy the selected value to the clipboard (OSC 52: over SSH too; in tmux with set-clipboard on)',
    context: 'videos',
    hint: 'copy',
  },
]);

declare module '../../keys/keymap' {
  interface ActionIds extends Record<(typeof videosActions)[number]['id'], true> {}
}
