import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createUiStore, topScreen } from '../../src/state/ui-store';
import { diffLineText, diffValues } from '../../src/text/diff';
import { ApiError } from '../../src/api/errors';

function store(readOnly = false) {
  let quits = 0;
  const ui = createUiStore({ readOnly, home: 'home', onQuit: () => (quits += 1), now: () => 1000 });
  return { ui, quits: () => quits };
}

test('navigation: push, go back to a screen already on the stack, esc pops, home stays', () => {
  const { ui } = store();
  const s = () => ui.getState();
  s().navigate('containers');
  s().navigate('shield');
  assert.deepEqual(
    s().stack.map((x) => x.id),
    ['home', 'containers', 'shield'],
  );
  s().navigate('shield');
  assert.equal(s().stack.length, 3, 'the screen on top again is a no-op');
  s().navigate('containers');
  assert.deepEqual(
    s().stack.map((x) => x.id),
    ['home', 'containers'],
    'back to it, not a second copy',
  );
  s().navigate('logs', '123');
  s().navigate('logs', '456');
  assert.deepEqual(
    s().stack.map((x) => `${x.id}${x.arg ?? ''}`),
    ['home', 'containers', 'logs123', 'logs456'],
  );
  assert.equal(topScreen(s()).arg, '456');
  while (s().back());
  assert.deepEqual(
    s().stack.map((x) => x.id),
    ['home'],
  );
  assert.equal(s().back(), false);
});

test(': replaces the view on top (home stays under it); esc goes back one step to the view it replaced', () => {
  const { ui } = store();
  const s = () => ui.getState();
  const ids = () => s().stack.map((x) => `${x.id}${x.arg ? ` ${x.arg}` : ''}`);
  s().open('sql');
  s().open('logs');
  s().open('logs', '1058 1411');
  s().open('containers');
  assert.deepEqual(ids(), ['home', 'containers'], 'no stack without end (home › sql › logs › logs 1058 1411 › …)');
  assert.equal(s().back(), true);
  assert.deepEqual(ids(), ['home', 'logs 1058 1411'], 'one step back');
  assert.equal(s().back(), true);
  assert.deepEqual(ids(), ['home'], 'one step only: the view before that is not kept');
  // a drill-down still stacks, and : from it replaces only the top
  s().open('databases');
  s().navigate('sql', null);
  s().open('shield');
  assert.deepEqual(ids(), ['home', 'databases', 'shield']);
  s().open('home');
  assert.deepEqual(ids(), ['home']);
});

test('a screen names its visit in the breadcrumb', () => {
  const { ui } = store();
  ui.getState().open('logs', '1058');
  const key = topScreen(ui.getState()).key;
  ui.getState().setCrumb(key, 'logs shop-assets');
  assert.equal(ui.getState().crumbs[key], 'logs shop-assets');
  ui.getState().setCrumb(key, null);
  assert.equal(ui.getState().crumbs[key], undefined);
});

test('q quits at once with nothing pending, asks first when something is', () => {
  const { ui, quits } = store();
  ui.getState().requestQuit();
  assert.equal(quits(), 1);
  ui.getState().setPending('save', 'saving region settings');
  ui.getState().requestQuit();
  assert.equal(quits(), 1);
  const o = ui.getState().overlay;
  assert.ok(o?.kind === 'confirm' && o.request.kind === 'quit');
  assert.match(o.request.detail ?? '', /1 thing is still pending: saving region settings/);
  ui.getState().interrupt();
  assert.equal(quits(), 2, 'ctrl-c while the quit question shows quits');
});

test('the mutation path: diff, confirm, send, pending while sending, status after', async () => {
  const { ui } = store();
  const sent: unknown[] = [];
  let release!: () => void;
  const opened = ui.getState().confirmMutation({
    title: 'Update WAF',
    before: { wafEnabled: false, mode: 0, name: 'x' },
    after: { wafEnabled: true, mode: 0 },
    patch: true,
    send: () =>
      new Promise<void>((resolve) => {
        sent.push('PATCH');
        release = resolve;
      }),
  });
  assert.equal(opened, true);
  const o = ui.getState().overlay;
  assert.ok(o?.kind === 'confirm');
  assert.deepEqual(o.request.lines.map(diffLineText), ['~ wafEnabled: false → true'], 'only what changes, nothing "removed" for a PATCH');
  const sending = o.request.onYes();
  assert.deepEqual(sent, ['PATCH']);
  assert.equal(Object.keys(ui.getState().pending).length, 1, 'pending while in flight');
  release();
  await sending;
  assert.deepEqual(ui.getState().pending, {});
  assert.match(ui.getState().status!.text, /Update WAF: done/);
});

test('read-only: the mutation path refuses before any confirm; no change: nothing to send', () => {
  const ro = store(true).ui;
  let sent = false;
  const opened = ro.getState().confirmMutation({ title: 'Delete zone', before: { a: 1 }, after: {}, send: async () => void (sent = true) });
  assert.equal(opened, false);
  assert.equal(ro.getState().overlay, null);
  assert.equal(sent, false);
  assert.match(ro.getState().status!.text, /read-only mode: "Delete zone" is not allowed \(start without --read-only/);
  const profile = createUiStore({ readOnly: true, readOnlySource: 'profile prod', home: 'home', onQuit: () => {} });
  profile.getState().confirmMutation({ title: 'Delete zone', before: { a: 1 }, after: {}, send: async () => {} });
  assert.match(profile.getState().status!.text, /read-only \(profile prod\): "Delete zone" is not allowed \(set readOnly: false in profile prod/);
  const rw = store(false).ui;
  assert.equal(rw.getState().confirmMutation({ title: 'x', before: { a: 1 }, after: { a: 1 }, send: async () => {} }), false);
  assert.match(rw.getState().status!.text, /nothing to send/);
});

test('a failed mutation leaves an error message', async () => {
  const { ui } = store();
  ui.getState().confirmMutation({
    title: 'Save',
    before: { a: 1 },
    after: { a: 2 },
    send: async () => {
      throw new Error('400 Bad Request: requiredRegionIds: must be a subset');
    },
  });
  const o = ui.getState().overlay;
  assert.ok(o?.kind === 'confirm');
  await o.request.onYes();
  assert.equal(ui.getState().status!.level, 'error');
  assert.match(ui.getState().status!.text, /Save failed: 400 Bad Request/);
});

test('a mutation whose answer was lost is a warning that says so, never "failed"', async () => {
  const { ui } = store();
  ui.getState().confirmMutation({
    title: 'Save',
    before: { a: 1 },
    after: { a: 2 },
    send: async () => {
      throw new ApiError({
        kind: 'unknown-outcome',
        message: 'unknown outcome: PUT /x timed out after it was sent; it was not retried. Refresh to see the current state.',
      });
    },
  });
  const o = ui.getState().overlay;
  assert.ok(o?.kind === 'confirm');
  await o.request.onYes();
  assert.equal(ui.getState().status!.level, 'warn');
  assert.match(ui.getState().status!.text, /^Save: unknown outcome: PUT \/x timed out/);
  assert.doesNotMatch(ui.getState().status!.text, /failed/);
});

test('diff: nested fields, arrays whole, secrets masked, removed fields in full mode', () => {
  const lines = diffValues(
    { name: 'a', ApiKey: 'secret-key-abcdef', regions: ['DE'], nested: { x: 1, y: 2 } },
    { name: 'b', ApiKey: 'secret-key-zzzzzz', regions: ['DE', 'UK'], nested: { x: 1 } },
  ).map(diffLineText);
  assert.deepEqual(lines, ['~ name: "a" → "b"', '~ ApiKey: ••••••••cdef → ••••••••zzzz', '~ regions: ["DE"] → ["DE","UK"]', '- nested.y: 2']);
});

test('filters and table views are kept per view key', () => {
  const { ui } = store();
  ui.getState().startFilter('k1');
  ui.getState().setFilterText('k1', { value: 'abc', cursor: 3 });
  ui.getState().endFilter(true);
  assert.equal(ui.getState().filters.k1!.text.value, 'abc');
  assert.equal(ui.getState().editingFilter, null);
  ui.getState().startFilter('k1');
  ui.getState().endFilter(false);
  assert.equal(ui.getState().filters.k1!.text.value, '', 'esc while editing clears it');
  ui.getState().setView('k2', { selected: 5 });
  ui.getState().setView('k2', { sortColumn: 'name' });
  assert.deepEqual(ui.getState().views.k2, { selected: 5, offset: 0, sortColumn: 'name', sortDesc: false });
});

test('start-up warnings: one in the status bar, several counted', () => {
  const { ui } = store();
  ui.getState().setWarnings(['a', 'b', 'c']);
  assert.equal(ui.getState().status!.text, '3 warnings (all in ? help): a');
  assert.equal(ui.getState().status!.ttlMs, null);
});
