import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { resolveSettings } from '../../src/config/settings';
import { DomainStores } from '../../src/state/domain-stores';
import { createUiStore } from '../../src/state/ui-store';
import { createLogsStore } from '../../src/state/logs/store';
import { until } from '../helpers/wait';
import { EmulatorClock } from '../../src/emulator/clock';

// 1,000-record buffer, 400 records/s: everything on screen is evicted within a few seconds
const clock = new EmulatorClock(Date.now());
const emu = await useEmulator({ seed: 7, logRate: 400, ingestDelayMs: 300, now: clock.now });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;

test('paused with a full buffer while records keep coming: the rows shown stay sensible after the ones on screen are evicted, and the eviction is counted', async () => {
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), logBufferSize: 1000 };
  const stores = new DomainStores({ api, settings, ui, now: Date.now });
  const store = stores.get((deps) => createLogsStore(deps, { frameMs: 30, statsMs: 50 }));
  const s = () => store.getState();
  after(s().attach(String(busy.Id)));
  s().setViewport(120, 20);
  await until('a full buffer', () => s().live?.state === 'following' && s().live!.buffered >= 1000 && s().view.rows.length === 20, 15_000);

  s().togglePause();
  for (let i = 0; i < 10; i++) s().move('up');
  const shown = s().view.rows.map((r) => r.entry);
  const selected = s().view.rows.find((r) => r.pos === s().view.selected)!.entry!;
  const droppedAtPause = s().live!.dropped;
  // every record that was on screen is gone from the buffer
  await until('the shown records evicted', () => s().live!.dropped - droppedAtPause > 1500, 20_000);
  // a frame drawn after the eviction: the view has noticed its rows are gone
  await until('the view to say its rows were evicted', () => s().rowsEvicted, 5000);

  const check = (when: string) => {
    const v = s().view;
    assert.ok(v.rows.length >= 10, `${when}: rows are shown (${v.rows.length}; row ${v.selected + 1} of ${v.total})`);
    assert.ok(v.selected >= 0 && v.selected < v.total, `${when}: the selection is a row (${v.selected} of ${v.total})`);
    assert.ok(
      v.rows.some((r) => r.pos === v.selected),
      `${when}: the selected row is on screen`,
    );
    assert.ok(v.total <= 1000, `${when}: no more rows than the buffer holds (${v.total})`);
  };
  check('paused, untouched');
  // no new records from here on, so no more evictions: the view and the buffer settle on one state
  // (with records arriving, the view of one frame and the buffer's oldest time of the next differ)
  clock.freeze();
  after(() => clock.resume());
  await until(
    'the view shows only records still held',
    () => s().view.rows.every((r) => r.entry === null || Date.parse(r.entry.timestamp) >= s().live!.oldest! - 1),
    5000,
  );
  assert.ok(s().evictedWhilePaused > 0, `the records evicted while paused are counted (${s().evictedWhilePaused})`);
  assert.equal(s().following, false);
  s().move('down');
  check('after a key');
  assert.equal(s().rowsEvicted, false, 'a key acknowledges it: the notice goes');
  assert.notDeepEqual(
    s().view.rows.map((r) => r.entry),
    shown,
  );
  assert.ok(s().view.rows.every((r) => r.entry !== selected));
  s().move('pageUp');
  check('after page up');
  s().togglePause();
  assert.equal(s().evictedWhilePaused, 0, 'following again: the count starts over');
});

test('a pattern over 20,000 held records: applied at once for the screen, counted in slices ("counting…"), then the whole count; n works meanwhile', async () => {
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), logBufferSize: 20_000 };
  const stores = new DomainStores({ api, settings, ui, now: Date.now });
  const store = stores.get((deps) => createLogsStore(deps, { frameMs: 30, statsMs: 50 }));
  const s = () => store.getState();
  after(s().attach(String(busy.Id)));
  s().setViewport(120, 20);
  await until('a full buffer', () => s().live?.state === 'following' && s().live!.buffered >= 20_000 && s().view.rows.length === 20, 30_000);
  s().togglePause();
  for (let i = 0; i < 300; i++) s().move('pageUp');
  s().startLocalEdit();
  s().setLocalText({ value: 'MISS', cursor: 4 });
  s().applyLocal();
  assert.equal(s().local.counting, true, 'counted in slices');
  assert.equal(s().view.rows.length, 20, 'the screen is filled at once');
  for (const r of s().view.rows) assert.equal(r.entry!.cacheStatus, 'MISS');
  s().jumpMatch(1);
  s().jumpMatch(1);
  assert.equal(s().view.rows.find((r) => r.pos === s().view.selected)!.entry!.cacheStatus, 'MISS');
  await until('the count done', () => !s().local.counting, 15_000);
  assert.ok(s().local.matches > 100);
  assert.equal(s().view.total, s().local.matches);
  for (const r of s().view.rows) assert.equal(r.entry!.cacheStatus, 'MISS');
  // n from the top walks match after match (the count is done: every position is final)
  s().move('top');
  for (let i = 0; i < 30; i++) {
    const sel = s().view.rows.find((r) => r.pos === s().view.selected)!;
    assert.equal(sel.pos, i);
    assert.equal(sel.entry!.cacheStatus, 'MISS');
    s().jumpMatch(1);
  }
  s().toggleLocalMode();
  assert.ok(s().view.total > s().local.matches, 'highlight mode: every record is a row');
});
