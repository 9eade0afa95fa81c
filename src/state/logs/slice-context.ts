import type { StoreApi } from 'zustand/vanilla';
import type { LogsViewModel, ViewWindow } from './view-model';
import type { UiStore } from '../ui-store';
import type { PauseAnchor } from './pause-anchor';
import type { LogsState } from './types';

/** What the logs store's action modules share: the model, the state, and the store's own view refresh. */
export interface LogsSliceContext {
  model: LogsViewModel;
  pause: PauseAnchor;
  ui: UiStore;
  now: () => number;
  get: StoreApi<LogsState>['getState'];
  set: StoreApi<LogsState>['setState'];
  /** The window as it would be drawn now. */
  computeWindow(): ViewWindow;
  /** Sets `extra`, recomputes the window now and anchors a paused view at its selection. */
  refreshView(extra?: Partial<LogsState>): void;
  /** Rows of the table on screen. */
  viewportHeight(): number;
}

/** Shows an info line in the status bar for `ms`. */
export function infoStatus(ctx: Pick<LogsSliceContext, 'ui'>, text: string, ms: number): void {
  ctx.ui.getState().setStatus(text, 'info', ms);
}

/** Selects view position `pos` at the middle of the screen, pausing (as moving does). */
export function selectPaused(ctx: LogsSliceContext, pos: number, row = Math.floor(ctx.viewportHeight() / 2)): void {
  const following = ctx.get().following;
  ctx.pause.moveTo(pos, row);
  ctx.refreshView({ following: false, rowsEvicted: false, ...(following ? ctx.pause.resetCounts() : {}) });
}
