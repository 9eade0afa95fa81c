import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Key } from 'ink';
import { InputRouter, PRIORITY, type ActionHandlers } from '../../src/keys/input-router';
import { buildKeymap, contextChain, CORE_ACTIONS, type ActionDef } from '../../src/keys/keymap';
import { keyEventsFromInk, type KeyEvent } from '../../src/keys/key-event';
import { editText, textOf } from '../../src/keys/text-edit';
import { helpLines } from '../../src/components/HelpOverlay';

// A screen action only these tests declare (screens add theirs the same way in their actions.ts).
declare module '../../src/keys/keymap' {
  interface ActionIds {
    'zones.delete': true;
  }
}

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const ev = (name: string, text: string | null = null): KeyEvent => ({ name, text });

test('Ink input becomes key events: arrows, ctrl, alt, and a chunk of several keys one by one', () => {
  assert.deepEqual(keyEventsFromInk('', { ...noKey, downArrow: true }), [ev('down')]);
  assert.deepEqual(keyEventsFromInk('c', { ...noKey, ctrl: true }), [ev('ctrl-c')]);
  assert.deepEqual(keyEventsFromInk('x', { ...noKey, meta: true }), [ev('alt-x')]);
  assert.deepEqual(keyEventsFromInk('', { ...noKey, escape: true, meta: true }), [ev('esc')]);
  assert.deepEqual(keyEventsFromInk('', { ...noKey, tab: true, shift: true }), [ev('shift-tab')]);
  assert.deepEqual(keyEventsFromInk('', { ...noKey, delete: true }), [ev('backspace')], 'DEL from the Backspace key');
  assert.deepEqual(keyEventsFromInk('G', { ...noKey, shift: true }), [ev('G', 'G')]);
  assert.deepEqual(keyEventsFromInk(':co \r\x03', noKey), [ev(':', ':'), ev('c', 'c'), ev('o', 'o'), ev('space', ' '), ev('enter'), ev('ctrl-c')]);
});

function setup(readOnly = false) {
  const actions: ActionDef[] = [...CORE_ACTIONS, { id: 'zones.delete', keys: ['D'], description: 'delete the zone', context: 'zones', mutates: true }];
  const { keymap } = buildKeymap(actions);
  const refused: string[] = [];
  const router = new InputRouter({
    keymap: () => keymap,
    allow: (a) => {
      if (a.mutates && readOnly) {
        refused.push(a.id);
        return false;
      }
      return true;
    },
    hidden: (a) => Boolean(a.mutates && readOnly),
  });
  return { router, refused };
}

test('the top active layer gets the key; lower layers do not', () => {
  const { router } = setup();
  const log: string[] = [];
  let paletteOpen = false;
  router.addLayer({ id: 'screen:a', priority: PRIORITY.screen, active: () => true, chain: () => contextChain('screen', 'zones') });
  router.addHandlers('screen:a', () => ({ 'nav.down': () => void log.push('screen down'), 'app.back': () => void log.push('screen back') }));
  router.addLayer({ id: 'palette', priority: PRIORITY.palette, active: () => paletteOpen, chain: () => contextChain('palette') });
  router.addHandlers('palette', () => ({ 'palette.close': () => void log.push('palette close'), 'palette.next': () => void log.push('palette next') }));
  assert.equal(router.dispatch(ev('j', 'j')), 'nav.down');
  paletteOpen = true;
  assert.equal(router.dispatch(ev('esc')), 'palette.close');
  assert.equal(router.dispatch(ev('down')), 'palette.next');
  assert.equal(router.dispatch(ev('j', 'j')), null, 'j means nothing in the palette (no text handler here)');
  paletteOpen = false;
  assert.equal(router.dispatch(ev('esc')), 'app.back');
  assert.deepEqual(log, ['screen down', 'palette close', 'palette next', 'screen back']);
});

test('a text layer takes printable keys before any action, and editing keys no action took', () => {
  const { router } = setup();
  let field = textOf('');
  const actions: string[] = [];
  router.addLayer({
    id: 'palette',
    priority: PRIORITY.palette,
    active: () => true,
    chain: () => contextChain('palette'),
    text: (e) => {
      const next = editText(field, e);
      if (next) field = next;
      return next !== null;
    },
  });
  router.addHandlers('palette', () => ({ 'palette.run': () => void actions.push('run') }));
  router.addGlobalHandlers(() => ({ 'app.quit': () => void actions.push('quit'), 'app.interrupt': () => void actions.push('interrupt') }));
  for (const e of keyEventsFromInk('q?:/x', noKey)) router.dispatch(e);
  assert.equal(field.value, 'q?:/x', 'q, ? and : are text here, not quit/help/palette');
  router.dispatch(ev('backspace'));
  router.dispatch(ev('left'));
  router.dispatch(ev('ctrl-a'));
  router.dispatch(ev('Z', 'Z'));
  assert.deepEqual(field, { value: 'Zq?:/', cursor: 1 });
  router.dispatch(ev('enter'));
  router.dispatch(ev('ctrl-c'));
  assert.deepEqual(actions, ['run', 'interrupt'], 'ctrl-c (context always) still works inside a field');
});

test('a handler returning false passes the key on (esc clears a filter before going back)', () => {
  const { router } = setup();
  const log: string[] = [];
  let filter = 'abc';
  router.addLayer({ id: 'screen:a', priority: 0, active: () => true, chain: () => contextChain('screen', 'zones') });
  router.addHandlers('screen:a', () => ({
    'app.back': () => {
      if (!filter) return false;
      filter = '';
      log.push('cleared');
      return true;
    },
  }));
  router.addGlobalHandlers(() => ({ 'app.back': () => void log.push('popped') }));
  router.dispatch(ev('esc'));
  router.dispatch(ev('esc'));
  assert.deepEqual(log, ['cleared', 'popped']);
});

test('read-only: a mutating action is refused (key consumed) and hidden from help', () => {
  const { router, refused } = setup(true);
  let deleted = false;
  router.addLayer({ id: 'screen:z', priority: 0, active: () => true, chain: () => contextChain('screen', 'zones') });
  router.addHandlers('screen:z', () => ({ 'zones.delete': () => void (deleted = true), 'nav.down': () => {} }));
  assert.equal(router.dispatch(ev('D', 'D')), 'zones.delete');
  assert.equal(deleted, false);
  assert.deepEqual(refused, ['zones.delete']);
  assert.deepEqual(
    router.available().map((a) => a.id),
    ['nav.down'],
  );
  const rw = setup(false);
  rw.router.addLayer({ id: 'screen:z', priority: 0, active: () => true, chain: () => contextChain('screen', 'zones') });
  rw.router.addHandlers('screen:z', () => ({ 'zones.delete': () => void (deleted = true) }));
  rw.router.dispatch(ev('D', 'D'));
  assert.equal(deleted, true);
});

test('handlers may be added before their layer exists (child effects run first) and are removed on unmount', () => {
  const { router } = setup();
  const log: string[] = [];
  const removeHandlers = router.addHandlers('screen:b', () => ({ 'nav.down': () => void log.push('down') }));
  const removeLayer = router.addLayer({ id: 'screen:b', priority: 0, active: () => true, chain: () => contextChain('screen') });
  const v = router.version;
  router.dispatch(ev('down'));
  removeHandlers();
  assert.ok(router.version > v, 'listeners hear about it');
  assert.equal(router.dispatch(ev('down')), null);
  removeLayer();
  assert.deepEqual(log, ['down']);
});

test('text editing keys', () => {
  const s = textOf('hello world');
  assert.deepEqual(editText(s, ev('ctrl-w')), { value: 'hello ', cursor: 6 });
  assert.deepEqual(editText({ value: 'hello world', cursor: 5 }, ev('ctrl-u')), { value: ' world', cursor: 0 });
  assert.deepEqual(editText({ value: 'abc', cursor: 1 }, ev('ctrl-k')), { value: 'a', cursor: 1 });
  assert.deepEqual(editText({ value: 'abc', cursor: 0 }, ev('backspace')), { value: 'abc', cursor: 0 });
  assert.deepEqual(editText({ value: 'abc', cursor: 3 }, ev('right')), { value: 'abc', cursor: 3 });
  assert.equal(editText(s, ev('enter')), null);
  assert.equal(editText(s, ev('tab')), null);
});

test('a disabled action says why: its key shows the reason instead of running, help lists it greyed with the reason', () => {
  const { keymap } = buildKeymap(CORE_ACTIONS);
  const told: string[] = [];
  const router = new InputRouter({ keymap: () => keymap, onDisabled: (a, reason) => told.push(`${a.id}: ${reason}`) });
  let sorted = false;
  let reversed = 0;
  router.addLayer({ id: 'screen:t', priority: PRIORITY.screen, active: () => true, chain: () => contextChain('screen') });
  router.addHandlers('screen:t', () => ({
    'list.sortReverse': { disabledReason: () => (sorted ? null : 'not sorted yet'), run: () => void (reversed += 1) },
  }));
  assert.equal(router.dispatch(ev('S', 'S')), 'list.sortReverse', 'the key is consumed');
  assert.equal(reversed, 0);
  assert.deepEqual(told, ['list.sortReverse: not sorted yet']);
  assert.equal(router.disabledReason('list.sortReverse'), 'not sorted yet');
  const lines = helpLines([{ title: 'Tables', actions: router.available(), disabledReason: (id) => router.disabledReason(id) }], []);
  assert.deepEqual(
    lines.filter((l) => l.disabled).map((l) => l.text.replace(/\s+/g, ' ').trim()),
    ['S reverse the sort order (not now: not sorted yet)'],
  );

  sorted = true;
  router.dispatch(ev('S', 'S'));
  assert.equal(reversed, 1);
  assert.equal(router.disabledReason('list.sortReverse'), null);
  assert.equal(told.length, 1);
});

test('action ids are typed: a handler for an action nobody declared is a compile error (npm run typecheck)', () => {
  const handlers: ActionHandlers = {
    'nav.down': () => {},
    'shield.send': () => {},
    // @ts-expect-error no screen declares this action; if ActionId ever widened to string, this directive would fail the typecheck
    'shield.explode': () => {},
  };
  assert.deepEqual(Object.keys(handlers), ['nav.down', 'shield.send', 'shield.explode']);
});
