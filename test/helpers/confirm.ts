import assert from 'node:assert/strict';
import type { UiStore } from '../../src/state/ui-store';

/** Presses "yes" on the open confirm, as the confirm layer does, and waits for the send. */
export async function confirmYes(ui: UiStore): Promise<void> {
  const o = ui.getState().overlay;
  assert.equal(o?.kind, 'confirm', 'a confirm is open');
  if (o?.kind !== 'confirm') return;
  ui.getState().closeOverlay();
  await o.request.onYes();
}
