import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogEntry } from '../../src/api/logs/entry';
import { textOf } from '../../src/keys/text-edit';
import { createAlertsSlice, noticeText } from '../../src/state/logs/alerts';
import { createUiStore } from '../../src/state/ui-store';
import { logEntry } from '../helpers/log-entry';

const T0 = Date.UTC(2026, 7, 8, 12, 0, 0);

function entry(statusCode: number): LogEntry {
  return logEntry({ timestamp: '', cacheStatus: 'HIT', statusCode, bytesSent: 1 });
}

function setup() {
  let end: number | null = T0;
  const history = { entries: [entry(500), entry(500), entry(200)], times: [T0 - 5000, T0 - 4000, T0 - 3000] };
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {}, now: () => T0 });
  const slice = createAlertsSlice({
    ui,
    windowEnd: () => end,
    history: (from) => ({ entries: history.entries.filter((_, i) => history.times[i]! >= from), times: history.times.filter((t) => t >= from) }),
  });
  const a = () => slice.store.getState();
  const add = (rule: string) => {
    a().openPanel();
    a().setText(textOf(rule));
    return a().submit();
  };
  return { slice, ui, a, add, setEnd: (t: number | null) => (end = t) };
}

test('the panel: a bad rule stays in the field with the message; a good one is added and starts from the records held', () => {
  const { slice, a, add } = setup();
  assert.equal(add('status=5xx count>=2 over 10s and'), false);
  assert.match(a().panel!.error!, /^at "and" \(column 30\): unexpected "and" after the window/);
  assert.equal(a().panel!.text.value, 'status=5xx count>=2 over 10s and', 'the text is kept to be fixed');
  a().setText(textOf('status=5xx count>=2 over 10s'));
  assert.equal(a().panel!.error, null, 'typing clears the message');
  assert.equal(a().submit(), true);
  assert.deepEqual(
    a().rules.map((r) => r.text),
    ['status=5xx count>=2 over 10s'],
  );
  assert.equal(a().panel!.text.value, '', 'the field is ready for the next one');
  assert.equal(add('status=5xx count>=2 over 10s'), false);
  assert.match(a().panel!.error!, /already in the list/);
  // the two 5xx already held count: it fires at the first evaluation, with no new record
  slice.evaluate();
  assert.equal(a().rules[0]!.firing, true);
  assert.equal(a().rules[0]!.observed, '2');
});

test('firing calls for attention once and puts a notice up until acknowledged; clearing replaces it with how long it lasted', () => {
  const { slice, ui, a, add, setEnd } = setup();
  add('status=5xx count>=2 over 10s');
  a().closePanel();
  slice.evaluate();
  assert.equal(ui.getState().attention?.seq, 1);
  assert.equal(ui.getState().attention?.body, 'status=5xx count>=2 over 10s: 2');
  assert.deepEqual(
    a().notices.map((n) => n.kind),
    ['fired'],
  );
  setEnd(T0 + 1000);
  slice.evaluate();
  assert.equal(ui.getState().attention?.seq, 1, 'no second call while it stays firing');
  assert.equal(a().acknowledge(), true);
  assert.deepEqual(a().notices, []);
  assert.equal(a().acknowledge(), false, 'nothing left: the key passes on');
  // the records leave the window; 10 s under the threshold later it clears
  for (let t = T0 + 2000; t <= T0 + 20_000; t += 1000) {
    setEnd(t);
    slice.evaluate();
  }
  const [n] = a().notices;
  assert.equal(n?.kind, 'cleared');
  assert.equal(
    noticeText(n!, (ms) => new Date(ms).toISOString().slice(11, 19)),
    'cleared status=5xx count>=2 over 10s at 12:00:16 after 16s (now 0)',
  );
  assert.equal(ui.getState().attention?.seq, 1, 'clearing rings no bell');
});

test('removing a rule takes its notice with it; with no end known nothing changes', () => {
  const { slice, a, add, setEnd } = setup();
  add('status=5xx count>=2 over 10s');
  add('count>0 over 10s');
  setEnd(null);
  slice.evaluate();
  assert.deepEqual(a().notices, []);
  setEnd(T0);
  slice.evaluate();
  assert.equal(a().notices.length, 2);
  a().openPanel();
  a().select(-5);
  assert.equal(a().panel!.selected, 0);
  assert.equal(a().removeSelected(), true);
  assert.deepEqual(
    a().rules.map((r) => r.text),
    ['count>0 over 10s'],
  );
  assert.deepEqual(
    a().notices.map((n) => n.rule),
    ['count>0 over 10s'],
  );
});
