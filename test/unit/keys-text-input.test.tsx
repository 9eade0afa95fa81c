import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import { Writable } from 'node:stream';
import React from 'react';
import { render, Text } from 'ink';
import { InputRouter, PRIORITY } from '../../src/keys/input-router';
import { buildKeymap, contextChain, CORE_ACTIONS } from '../../src/keys/keymap';
import { InputContext, useActions, useTextInput } from '../../src/keys/input-hooks';
import { emptyText, type TextState } from '../../src/keys/text-edit';

function fakeStdout(): NodeJS.WriteStream {
  const out = new Writable({ write: (_c, _e, cb) => cb() }) as unknown as NodeJS.WriteStream;
  Object.assign(out, { columns: 80, rows: 24 });
  return out;
}

test('useTextInput: a screen field takes text and its own enter/esc, then gives the keys back', async () => {
  const { keymap } = buildKeymap(CORE_ACTIONS);
  const router = new InputRouter({ keymap: () => keymap });
  let text: TextState = emptyText;
  let editing = true;
  const log: string[] = [];
  router.addLayer({ id: 'screen:x', priority: PRIORITY.screen, active: () => true, chain: () => contextChain('screen', 'x') });

  function Search(): React.JSX.Element {
    useTextInput({
      id: 'x:search',
      active: () => editing,
      get: () => text,
      set: (next) => void (text = next),
      handlers: {
        'prompt.apply': () => {
          editing = false;
          log.push(`search ${text.value}`);
        },
      },
    });
    useActions({ 'nav.down': () => void log.push('down') });
    return <Text>search</Text>;
  }

  const app = render(
    <InputContext.Provider value={{ router, layerId: 'screen:x' }}>
      <Search />
    </InputContext.Provider>,
    { stdout: fakeStdout(), patchConsole: false },
  );
  // the hooks register their layer and handlers in effects, after the first render
  await until('the field has the keyboard', () => router.top()?.id === 'x:search');
  for (const ch of 'jq v') router.dispatch({ name: ch === ' ' ? 'space' : ch, text: ch });
  router.dispatch({ name: 'backspace', text: null });
  assert.equal(text.value, 'jq ', 'j and q are text while the field has the keyboard');
  router.dispatch({ name: 'enter', text: null });
  router.dispatch({ name: 'j', text: 'j' });
  assert.deepEqual(log, ['search jq ', 'down'], 'after enter the screen gets j again');
  app.unmount();
  await until('the field gave the keyboard back', () => router.top()?.id === 'screen:x' && !router.available().some((a) => a.id === 'nav.down'));
  assert.equal(router.dispatch({ name: 'j', text: 'j' }), null, 'unmounted: handlers and layer are gone');
});
