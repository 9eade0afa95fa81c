import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from 'zustand/vanilla';
import { createUiStore } from '../../src/state/ui-store';
import { guardLeave, watchUnsent } from '../../src/state/unsent-guard';

function setup(readOnly = false) {
  let quits = 0;
  const ui = createUiStore({ readOnly, home: 'home', onQuit: () => (quits += 1), now: () => 1000 });
  const screen = createStore<{ edits: number }>()(() => ({ edits: 0 }));
  watchUnsent(ui, 'screen', screen, (s) => (s.edits ? `${s.edits} edits not sent yet` : null));
  return { ui, screen, quits: () => quits };
}

const question = (ui: ReturnType<typeof setup>['ui']) => {
  const o = ui.getState().overlay;
  return o?.kind === 'confirm' ? o.request : null;
};

test('the ui store follows the screen store: an edit registers, sending or discarding clears', () => {
  const { ui, screen } = setup();
  assert.deepEqual(ui.getState().unsent, {});
  screen.setState({ edits: 2 });
  assert.deepEqual(ui.getState().unsent, { screen: '2 edits not sent yet' });
  screen.setState({ edits: 0 });
  assert.deepEqual(ui.getState().unsent, {});
});

test('leaving with nothing unsent goes at once; with edits it asks, and only yes leaves', () => {
  const { ui, screen } = setup();
  let left = 0;
  guardLeave(ui, 'screen', () => (left += 1));
  assert.equal(left, 1);
  screen.setState({ edits: 1 });
  guardLeave(ui, 'screen', () => (left += 1));
  assert.equal(left, 1, 'not yet');
  const q = question(ui);
  assert.equal(q?.title, 'Discard the changes?');
  assert.match(q?.detail ?? '', /1 edits not sent yet\. Nothing was sent/);
  void q!.onYes();
  assert.equal(left, 2);
  assert.deepEqual(ui.getState().unsent, {});
});

test('quit with unsent edits asks the same question (ctrl-c twice still quits); yes quits', () => {
  const { ui, screen, quits } = setup();
  screen.setState({ edits: 1 });
  ui.getState().requestQuit();
  assert.equal(quits(), 0);
  assert.equal(question(ui)?.title, 'Discard the changes?');
  void question(ui)!.onYes();
  ui.getState().closeOverlay();
  assert.equal(quits(), 1);
  screen.setState({ edits: 3 });
  ui.getState().interrupt();
  assert.equal(quits(), 1, 'the first ctrl-c asks');
  ui.getState().interrupt();
  assert.equal(quits(), 2, 'the second quits');
});

test('read-only: nothing can be edited, so nothing is guarded', () => {
  const { ui, screen, quits } = setup(true);
  screen.setState({ edits: 1 });
  ui.getState().requestQuit();
  assert.equal(quits(), 1);
});
