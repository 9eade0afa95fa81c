import type { StoreApi } from 'zustand/vanilla';
import { discardQuestion } from './confirm-request';
import type { UiStore } from './ui-store';

/**
 * One guard for edits made on a screen and not sent yet: leaving the screen part (esc) and
 * quitting (q, :quit, ctrl-c) ask "Discard the changes?" first, with the same words everywhere.
 * A screen's store keeps the ui store's `unsent` entry in step with its draft (watchUnsent);
 * requestQuit() asks while any entry is there, and guardLeave() asks before esc throws one away.
 */

/** Runs `leave` at once when `id` has no unsent edits, else after the user agrees to discard them. */
export function guardLeave(ui: UiStore, id: string, leave: () => void): void {
  const description = ui.getState().unsent[id];
  if (description === undefined) {
    leave();
    return;
  }
  ui.getState().ask(
    discardQuestion([description], 'back', () => {
      ui.getState().setUnsent(id, null);
      leave();
    }),
  );
}

/** Keeps ui.unsent[id] equal to describe(state) (null = nothing unsent); returns the unsubscribe. */
export function watchUnsent<S>(ui: UiStore, id: string, store: StoreApi<S>, describe: (state: S) => string | null): () => void {
  const sync = (state: S) => ui.getState().setUnsent(id, ui.getState().readOnly ? null : describe(state));
  sync(store.getState());
  return store.subscribe(sync);
}
