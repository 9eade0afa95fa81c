import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildKeymap, contextChain, CORE_ACTIONS, findConflicts, panelContexts, type ActionDef } from '../../src/keys/keymap';
import { InputRouter } from '../../src/keys/input-router';
import { allActions } from '../../src/app/app-keymap';
import { SCREENS } from '../../src/app/screens';
import type { KeyEvent } from '../../src/keys/key-event';

// A panel of a screen (`logs:timeline`) has keys of its own that shadow the screen's while it has
// the focus, and pass them on otherwise.

const actions: ActionDef[] = [
  ...CORE_ACTIONS,
  { id: 'logs.contextMore', keys: ['+'], description: 'context', context: 'logs' },
  { id: 'timeline.zoomIn', keys: ['+'], description: 'zoom', context: 'logs:timeline' },
  { id: 'timeline.jump', keys: ['enter'], description: 'jump', context: 'logs:timeline' },
];

const ev = (name: string): KeyEvent => ({ name, text: null });

test('a panel context shadows the screen on purpose: no conflict, but two panel actions on one key are one', () => {
  const { keymap } = buildKeymap(actions);
  assert.deepEqual(findConflicts(keymap), []);
  assert.deepEqual(panelContexts(keymap, 'logs'), ['logs:timeline']);
  const twice = buildKeymap([...actions, { id: 'timeline.other', keys: ['enter'], description: 'x', context: 'logs:timeline' }]).keymap;
  assert.deepEqual(findConflicts(twice), ['"enter": timeline.jump (logs:timeline) and timeline.other (logs:timeline)']);
  // ctrl-c works everywhere: a panel may not take it
  const always = buildKeymap([...actions, { id: 'timeline.bad', keys: ['ctrl-c'], description: 'x', context: 'logs:timeline' }]).keymap;
  assert.equal(findConflicts(always).length, 1);
});

test('an override of a panel key takes it from the panel only, not from the table below', () => {
  const { keymap, warnings } = buildKeymap(actions, { 'timeline.zoomIn': ['j'] });
  assert.deepEqual(warnings, []);
  assert.deepEqual(keymap.byId.get('nav.down')!.keys, ['j', 'down']);
  assert.deepEqual(keymap.byId.get('timeline.zoomIn')!.keys, ['j']);
});

test('dispatch: the panel handler runs while it has the focus, and passes the key to the screen otherwise', () => {
  const { keymap } = buildKeymap(actions);
  const router = new InputRouter({ keymap: () => keymap });
  router.addLayer({ id: 'screen', priority: 0, active: () => true, chain: () => [...panelContexts(keymap, 'logs'), ...contextChain('screen', 'logs')] });
  let focused = true;
  const ran: string[] = [];
  router.addHandlers('screen', () => ({
    'timeline.zoomIn': () => {
      if (!focused) return false;
      ran.push('zoom');
      return true;
    },
    'logs.contextMore': () => void ran.push('context'),
  }));
  assert.equal(router.dispatch(ev('+')), 'timeline.zoomIn');
  focused = false;
  assert.equal(router.dispatch(ev('+')), 'logs.contextMore');
  assert.deepEqual(ran, ['zoom', 'context']);
});

test("the app's keymap keeps the logs screen's panel context, and has no conflicts", () => {
  const all = allActions(SCREENS);
  assert.equal(all.find((a) => a.id === 'timeline.zoomIn')!.context, 'logs:timeline');
  assert.equal(all.find((a) => a.id === 'logs.timeline')!.context, 'logs');
  assert.deepEqual(findConflicts(buildKeymap(all).keymap), []);
});
