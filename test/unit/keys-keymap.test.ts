import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildKeymap, contextChain, CORE_ACTIONS, findConflicts, resolveAction, type ActionDef } from '../../src/keys/keymap';
import { isValidKeyName } from '../../src/keys/key-event';
import { allActions } from '../../src/app/app-keymap';
import { SCREENS } from '../../src/app/screens';

const keysOf = (actions: ActionDef[], id: string) => actions.find((a) => a.id === id)!.keys;

test('the default keymap (core + every screen) has no conflicts and only valid key names', () => {
  const { keymap, warnings } = buildKeymap(allActions(SCREENS));
  assert.deepEqual(warnings, []);
  assert.deepEqual(findConflicts(keymap), []);
  for (const a of keymap.actions) for (const k of a.keys) assert.ok(isValidKeyName(k), `${a.id}: "${k}"`);
  assert.equal(new Set(keymap.actions.map((a) => a.id)).size, keymap.actions.length, 'action ids are unique');
});

test('an override replaces the default keys of that action only', () => {
  const { keymap, warnings } = buildKeymap(CORE_ACTIONS, { 'nav.down': ['n', 'down'] });
  assert.deepEqual(warnings, []);
  assert.deepEqual(keysOf(keymap.actions, 'nav.down'), ['n', 'down']);
  assert.deepEqual(keysOf(keymap.actions, 'nav.up'), ['k', 'up']);
  assert.deepEqual(keysOf(CORE_ACTIONS, 'nav.down'), ['j', 'down'], 'the defaults are not mutated');
});

test('unknown action ids and bad key names are warnings, and the rest still applies', () => {
  const { keymap, warnings } = buildKeymap(CORE_ACTIONS, {
    'nav.dwn': ['x'],
    'nav.up': ['k', 'hyper-k', 'ctrl-', 'up'],
    'app.quit': ['nonsense'],
  });
  assert.equal(warnings.length, 4);
  assert.match(warnings[0]!, /unknown action "nav\.dwn" \(did you mean nav\.down/);
  assert.match(warnings[1]!, /"hyper-k" for nav\.up is not a key name/);
  assert.match(warnings[2]!, /"ctrl-" for nav\.up/);
  assert.match(warnings[3]!, /"nonsense" for app\.quit/);
  assert.deepEqual(keysOf(keymap.actions, 'nav.up'), ['k', 'up'], 'valid keys of a partly bad entry apply');
  assert.deepEqual(keysOf(keymap.actions, 'app.quit'), ['q'], 'an entry with no valid key keeps the default');
});

test('an override that takes a key from another action in the same context wins, with a warning', () => {
  const { keymap, warnings } = buildKeymap(CORE_ACTIONS, { 'nav.top': ['j'] });
  assert.deepEqual(keysOf(keymap.actions, 'nav.top'), ['j']);
  assert.deepEqual(keysOf(keymap.actions, 'nav.down'), ['down']);
  assert.deepEqual(warnings, ['keys: "j" is now nav.top, so nav.down no longer has it']);
  assert.deepEqual(findConflicts(keymap), []);
});

test('an override may shadow a global key on screens (more specific context), with a warning', () => {
  const { keymap, warnings } = buildKeymap(CORE_ACTIONS, { 'screen.refresh': ['q'] });
  assert.deepEqual(keysOf(keymap.actions, 'app.quit'), []);
  assert.match(warnings.join('\n'), /"q" is now screen\.refresh, so app\.quit no longer has it \(it has no key left\)/);
  // the help overlay's own q (another layer) is untouched
  assert.deepEqual(keysOf(keymap.actions, 'help.close'), ['esc', '?', 'q']);
});

test('keys in different layers never conflict (esc closes the palette and goes back on screens)', () => {
  const { keymap } = buildKeymap(CORE_ACTIONS);
  const esc = (chain: string[]) => resolveAction(keymap, chain, 'esc', () => true).map((a) => a.id);
  assert.deepEqual(esc(contextChain('palette')), ['palette.close']);
  assert.deepEqual(esc(contextChain('screen', 'containers')), ['app.back']);
  assert.deepEqual(esc(contextChain('confirm')), ['confirm.no']);
});

test('resolution: most specific context first, and only actions that are handled', () => {
  const actions: ActionDef[] = [
    ...CORE_ACTIONS,
    { id: 'containers.restart', keys: ['R'], description: 'restart', context: 'containers' },
    { id: 'containers.open', keys: ['enter'], description: 'open app', context: 'containers' },
  ];
  const { keymap } = buildKeymap(actions);
  const chain = contextChain('screen', 'containers');
  assert.deepEqual(
    resolveAction(keymap, chain, 'enter', () => true).map((a) => a.id),
    ['containers.open', 'list.open'],
  );
  assert.deepEqual(
    resolveAction(keymap, chain, 'enter', (id) => id !== 'containers.open').map((a) => a.id),
    ['list.open'],
  );
  assert.deepEqual(
    resolveAction(keymap, chain, 'R', () => true).map((a) => a.id),
    ['containers.restart'],
  );
  assert.deepEqual(
    resolveAction(keymap, contextChain('screen', 'home'), 'R', () => true),
    [],
    'another screen does not see it',
  );
  // findConflicts reports the deliberate shadowing of list.open by a screen action
  assert.deepEqual(findConflicts(keymap), ['"enter": containers.open (containers) and list.open (list)']);
});
