import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { resolveSettings } from '../../src/config/settings';
import { DomainStores } from '../../src/state/domain-stores';
import { createUiStore } from '../../src/state/ui-store';
import { createLogsStore } from '../../src/state/logs/store';
import { until } from '../helpers/wait';

// The marks list of the stats panel (`'`): a cursor over the marks, enter selects a mark's record
// in the table, and an evicted mark says so. A 1,000-record buffer at 400 records/s lets the
// oldest mark go within seconds.
const emu = await useEmulator({ seed: 11, logRate: 400, ingestDelayMs: 300 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;

test("' gives the keys to the marks list; enter selects the cursor's mark in the table, or says it was evicted; one panel has the keys at a time", async () => {
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), logBufferSize: 1000 };
  const stores = new DomainStores({ api, settings, ui, now: Date.now });
  const store = stores.get((deps) => createLogsStore(deps, { frameMs: 30, statsMs: 50 }));
  const s = () => store.getState();
  const status = () => ui.getState().status?.text ?? '';
  const selected = () => s().view.rows.find((r) => r.pos === s().view.selected)!.entry!;
  after(s().attach(String(busy.Id)));
  s().setViewport(120, 20);
  await until('rows to show', () => s().live?.state === 'following' && s().view.rows.length === 20, 15_000);

  s().focusMarks();
  assert.equal(s().markCursor, null);
  assert.equal(status(), 'no marks: m marks the selected record');

  s().togglePause();
  s().move('top');
  const oldest = selected();
  s().toggleMark();
  for (let i = 0; i < 10; i++) s().move('down');
  const middle = selected();
  s().toggleMark();
  for (let i = 0; i < 5; i++) s().move('down');
  const newest = selected();
  s().toggleMark();
  assert.equal(s().marks.count, 3);

  // the cursor starts on the mark of the selected record; the panel opens for the list
  assert.equal(s().showStats, false);
  s().focusMarks();
  assert.equal(s().showStats, true);
  assert.equal(s().markCursor, 2);
  s().moveMarkCursor(-1);
  s().jumpToMarkCursor();
  assert.equal(selected().requestId, middle.requestId, 'the table selects the mark under the cursor');
  assert.match(status(), /^mark 2 of 3 \(\d\d:\d\d:\d\d\.\d{3} \d{3}\): selected/);
  assert.equal(s().following, false);
  s().moveMarkCursor(-5);
  assert.equal(s().markCursor, 0, 'the cursor stops at the oldest');
  s().jumpToMarkCursor();
  assert.equal(selected().requestId, oldest.requestId);
  s().moveMarkCursor(9);
  assert.equal(s().markCursor, 2, 'and at the newest');
  s().jumpToMarkCursor();
  assert.equal(selected().requestId, newest.requestId);

  // the full buffer lets the oldest mark go: enter on it says so and leaves the selection alone
  await until('the oldest mark evicted', () => s().markRows()[0]!.state === 'evicted', 20_000);
  const before = selected().requestId;
  s().moveMarkCursor(-2);
  s().jumpToMarkCursor();
  assert.match(status(), /^mark 1 of 3 \(\d\d:\d\d:\d\d\.\d{3} \d{3}\) was evicted: the full buffer let it go/);
  assert.equal(ui.getState().status?.level, 'warn');
  assert.equal(selected().requestId, before, 'nothing selected for an evicted mark');

  // the timeline taking the keys takes them from the list; esc (leaveMarks) gives them back
  s().toggleTimeline();
  assert.equal(s().timeline.focus, 'timeline');
  assert.equal(s().markCursor, null);
  s().focusMarks();
  assert.equal(s().timeline.focus, 'table', 'the list taking the keys takes them from the timeline');
  assert.notEqual(s().markCursor, null);
  assert.equal(s().leaveMarks(), true);
  assert.equal(s().leaveMarks(), false);

  // the list goes with the panel and with the marks
  s().focusMarks();
  s().toggleStats();
  assert.equal(s().markCursor, null, 'closing the panel gives the keys back');
  s().focusMarks();
  s().clearMarks();
  assert.equal(s().markCursor, null, 'no marks, no list');
});
