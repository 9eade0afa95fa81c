import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiFor, useEmulator } from '../helpers/emulator';
import { resolveSettings } from '../../src/config/settings';
import { textOf } from '../../src/keys/text-edit';
import { DomainStores } from '../../src/state/domain-stores';
import { createUiStore } from '../../src/state/ui-store';
import { createLogsStore, FILTER_FIELDS, type LogsStore } from '../../src/state/logs/store';
import { v1Date } from '../../src/api/logs/v1';
import { configureLoggingRateLimit, loggingStats } from '../../src/emulator/logging/index';
import { liveStatusParts } from '../../src/screens/logs/status-view';
import { EmulatorClock } from '../../src/emulator/clock';
import { until } from '../helpers/wait';
import { confirmYes } from '../helpers/confirm';

// The emulator's clock (and so the client's) starts at a fixed time: the same traffic, the same
// timestamps and the same day files on every run, whatever the hour.
const clock = new EmulatorClock(Date.parse('2026-03-02T10:00:00Z'));
const emu = await useEmulator({ seed: 5, logRate: 6, ingestDelayMs: 800, now: clock.now });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const noLogging = emu.world.pullZones.find((z) => !z.EnableLogging)!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-store-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function makeStore(): { store: LogsStore; ui: ReturnType<typeof createUiStore> } {
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = resolveSettings({}, {}, {});
  const stores = new DomainStores({ api, settings, ui, now: clock.now });
  const store = stores.get((deps) => createLogsStore(deps, { cwd: dir, frameMs: 30, statsMs: 50 }));
  return { store, ui };
}

test('follow: the window is the newest rows of the buffer, stats add up, pause freezes the view and counts new records', async () => {
  const { store } = makeStore();
  const s = () => store.getState();
  const detach = s().attach(String(busy.Id));
  after(detach);
  s().setViewport(100, 12);
  await until('records', () => s().view.total > 20);
  await until('following', () => s().live?.state === 'following');
  const v = s().view;
  assert.ok(v.rows.length <= 12 && v.rows.length > 0);
  assert.equal(v.selected, v.total - 1, 'the newest row is selected while following');
  assert.equal(v.rows[v.rows.length - 1]!.pos, v.total - 1);
  for (let i = 1; i < v.rows.length; i++) assert.ok(v.rows[i - 1]!.entry!.timestamp <= v.rows[i]!.entry!.timestamp);

  s().toggleStats();
  const stats = await until('stats', () => s().stats);
  assert.ok(stats.records > 0);
  assert.equal(
    stats.cache.reduce((n, c) => n + c.count, 0),
    stats.records,
  );
  assert.equal(
    stats.statusClasses.reduce((a, b) => a + b, 0),
    stats.records,
  );

  s().togglePause();
  assert.equal(s().following, false);
  const frozen = s().view.rows.map((r) => r.entry);
  // with the backfill in, the engine polls every 10 s: move the emulator's time on past the
  // ingestion delay and poll now (the refresh key) instead of waiting for the next turn
  clock.advance(5000);
  s().pollNow();
  await until('new records while paused', () => s().newWhilePaused > 0, 15_000);
  assert.deepEqual(
    s().view.rows.map((r) => r.entry),
    frozen,
    'the paused view does not move',
  );
  const before = s().view.rows.find((r) => r.pos === s().view.selected)!.entry;
  s().move('up');
  // the row above in the buffer as it is now (a late record may have landed in between)
  const rowsNow = s().view.rows;
  const at = rowsNow.findIndex((r) => r.pos === s().view.selected);
  assert.equal(rowsNow[at + 1]!.entry, before, 'up selects the row right above the one selected before');
  assert.equal(s().following, false);
  s().move('bottom');
  assert.equal(s().following, true);
  assert.equal(s().newWhilePaused, 0);
});

test('server filter 5xx: validated first, then only 5xx records; local regex with context and highlight modes', async () => {
  const { store, ui } = makeStore();
  const s = () => store.getState();
  const detach = s().attach(String(busy.Id));
  after(detach);
  s().setViewport(100, 30);
  await until('records', () => s().view.total > 0);

  s().openForm();
  const field = (id: string) => {
    while (FILTER_FIELDS[s().form!.focus]!.id !== id) s().focusField(1);
  };
  field('status');
  s().setFormText(textOf('5xx,99'));
  field('country');
  s().setFormText(textOf('Germany'));
  assert.equal(s().applyForm(), false);
  assert.match(s().form!.errors.status!, /"99" is not a status code/);
  assert.match(s().form!.errors.country!, /alpha-2/);
  assert.match(ui.getState().status!.text, /not sent/);
  field('status');
  s().setFormText(textOf('5xx'));
  field('country');
  s().setFormText(textOf(''));
  assert.equal(s().applyForm(), true);
  // 5xx are rare: the whole retention, filtered by the server, is still a small read
  s().setWindow('3d');
  await until('following the 5xx query', () => s().live?.state === 'following' && s().live!.coveredTo !== null, 15_000);
  const since = clock.now() - 3 * 86_400_000 + 120_000;
  const want = await api.logs.fetchAll(busy.Id, { status: '5xx', from: since }, { maxRecords: 100_000 });
  assert.ok(want.entries.length > 3, 'the emulator made some 5xx');
  await until('5xx records', () => s().view.total >= want.entries.length - 5, 15_000);
  assert.ok(s().view.rows.length > 3);
  for (const r of s().view.rows) assert.equal(Math.floor(r.entry!.statusCode / 100), 5);
  s().setWindow('15m');

  // local pattern on the whole stream: filter with context, then highlight. The clock stands still
  // from here, so the records held once the backfill is done are all there will be: the view and
  // the status line count the same records, whenever each was last drawn.
  clock.freeze();
  after(() => clock.resume());
  s().clearServerFilters();
  // rows other than 5xx: the new query's records; then its state is the new engine's
  await until('all records again, backfill done', () => s().view.rows.some((r) => r.entry!.statusCode < 500) && s().live?.state === 'following', 15_000);
  assert.ok(s().live!.buffered > 10_000, 'the 15 minutes took more than one page');
  s().togglePause();
  s().startLocalEdit();
  s().setLocalText(textOf('('));
  assert.match(s().local.error!, /invalid regular expression/);
  s().applyLocal();
  assert.equal(s().local.pattern, null, 'an invalid pattern is not applied');
  s().setLocalText(textOf('^(404|503)$'));
  s().applyLocal();
  assert.equal(s().local.pattern, '^(404|503)$');
  for (const r of s().view.rows) assert.ok([404, 503].includes(r.entry!.statusCode) && r.match);
  const matches = s().local.matches;
  assert.ok(matches > 0);
  assert.equal(s().view.total, matches);
  s().changeContext(1);
  assert.ok(s().view.total > matches, 'context lines add rows');
  const rows = s().view.rows;
  for (let i = 1; i < rows.length - 1; i++) {
    const r = rows[i]!;
    if (r.entry === null || r.match) continue;
    const near = [rows[i - 1], rows[i + 1]].some((n) => n?.entry && n.match);
    assert.ok(near, 'a context row sits next to a match');
  }
  s().toggleLocalMode();
  assert.equal(s().view.total, s().live!.buffered, 'highlight mode shows every record');
  s().jumpMatch(-1);
  const sel = s().view.rows.find((r) => r.pos === s().view.selected)!;
  assert.equal(sel.match, true);
  clock.resume();
});

test('a zone without logging gets a clear message; the picker lists only zones with logging', async () => {
  const { store } = makeStore();
  const s = () => store.getState();
  const detach = s().attach(String(noLogging.Id));
  await until('problem', () => s().zoneProblem);
  assert.match(s().zoneProblem!, new RegExp(`logging is not enabled for pull zone ${noLogging.Id} \\(${noLogging.Name}\\)`));
  assert.equal(s().live, null, 'nothing is followed');
  detach();
  const d2 = s().attach(null);
  await until('zones', () => s().picker.loadedAt);
  d2();
  const want = emu.world.pullZones
    .filter((z) => z.EnableLogging)
    .map((z) => z.Id)
    .sort();
  assert.deepEqual(
    s()
      .picker.zones.map((z) => z.id)
      .sort(),
    want,
  );
  assert.equal(s().picker.withoutLogging, emu.world.pullZones.length - want.length);
});

test('v1 day: date checked, the day parsed into the same view; export writes the filtered records', async () => {
  const { store, ui } = makeStore();
  const s = () => store.getState();
  const detach = s().attach(String(busy.Id));
  after(detach);
  s().setViewport(100, 20);
  s().openV1();
  s().setPromptText(textOf('13-45-26'));
  s().submitPrompt();
  assert.match((s().prompt as { error: string }).error, /not a date: use MM-dd-yy/);
  s().setPromptText(textOf(v1Date(clock.now() - 9 * 86_400_000)));
  s().submitPrompt();
  assert.match((s().prompt as { error: string }).error, /older than the 3-day retention/);
  // yesterday (UTC): a complete file, so the store and this test read the same lines
  const today = v1Date(clock.now() - 86_400_000);
  s().setPromptText(textOf(today));
  s().submitPrompt();
  assert.equal(s().prompt, null);
  await until('v1 loaded', () => s().v1 && !s().v1!.loading && s().view.total > 0);
  const parsed = await api.logs.v1Day(busy.Id, today, { order: 'desc', end: 100_000 });
  assert.equal(s().v1!.lines, parsed.lines);
  assert.equal(s().v1!.kept, parsed.entries.length);
  assert.equal(s().view.total, parsed.entries.length);

  s().startLocalEdit();
  s().setLocalText(textOf('^MISS$'));
  s().applyLocal();
  s().openExport();
  const p = s().prompt!;
  assert.equal(p.kind, 'export');
  assert.match(p.text.value, new RegExp(`burrow-logs-${busy.Id}-v1-${today}-\\d{8}-\\d{6}\\.ndjson$`));
  s().toggleExportFormat();
  assert.match(s().prompt!.text.value, /\.csv$/);
  s().setPromptText(textOf('misses.ndjson'));
  s().submitPrompt();
  const done = await until('export', () => s().lastExport);
  const lines = fs
    .readFileSync(path.join(dir, 'misses.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { cacheStatus: string });
  assert.equal(done.records, lines.length);
  assert.equal(lines.length, parsed.entries.filter((e) => e.cacheStatus === 'MISS').length);
  assert.ok(lines.every((l) => l.cacheStatus === 'MISS'));
  assert.match(
    ui.getState().status!.text,
    new RegExp(`exported ${lines.length.toLocaleString('en-US')} records \\(NDJSON, [\\d.]+[BKM]\\) to misses\\.ndjson$`),
  );

  // again: the file exists, so a question comes before anything is replaced
  s().openExport();
  s().setPromptText(textOf('misses.ndjson'));
  s().submitPrompt();
  const asked = await until('question', () => ui.getState().overlay);
  assert.equal(asked.kind, 'confirm');
  assert.match(asked.kind === 'confirm' ? asked.request.title : '', /already exists/);
  ui.getState().closeOverlay();
  assert.equal(fs.statSync(path.join(dir, 'misses.ndjson')).mode & 0o777, 0o600, 'the export is private');

  // a link: the question says so; replacing it replaces the link, never writes through it
  const precious = path.join(dir, 'precious.txt');
  fs.writeFileSync(precious, 'precious\n', { mode: 0o644 });
  fs.chmodSync(precious, 0o644);
  fs.symlinkSync(precious, path.join(dir, 'linked.ndjson'));
  s().openExport();
  s().setPromptText(textOf('linked.ndjson'));
  s().submitPrompt();
  const link = await until('question', () => ui.getState().overlay);
  assert.match(link.kind === 'confirm' ? link.request.title : '', /linked\.ndjson is a symbolic link \(to .*precious\.txt\)/);
  const before = s().lastExport;
  await confirmYes(ui);
  await until('the export through the question', () => s().lastExport !== before);
  assert.equal(fs.readFileSync(precious, 'utf8'), 'precious\n', 'nothing written through the link');
  assert.equal(fs.statSync(precious).mode & 0o777, 0o644);
  assert.ok(fs.lstatSync(path.join(dir, 'linked.ndjson')).isFile(), 'the link was replaced by a file');
  assert.equal(fs.statSync(path.join(dir, 'linked.ndjson')).mode & 0o777, 0o600);
  assert.equal(s().closeV1(), true);
  assert.equal(s().source, 'live');
});

test('429 from the platform: the status line says the zone is rate limited and backing off; records still come', async () => {
  const strict = await useEmulator({ seed: 6, logRate: 6, ingestDelayMs: 500 });
  configureLoggingRateLimit(strict.world, { limit: 2, windowMs: 10_000 });
  const strictApi = apiFor(strict);
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const stores = new DomainStores({ api: strictApi, settings: resolveSettings({}, {}, {}), ui, now: Date.now });
  const store = stores.get((deps) => createLogsStore(deps, { cwd: dir, frameMs: 30 }));
  const s = () => store.getState();
  const zone = strict.world.pullZones.find((z) => z.Name === 'shop-assets')!;
  const detach = s().attach(String(zone.Id));
  after(detach);
  s().setViewport(100, 10);
  const live = await until('a 429', () => (s().live && s().live!.rateLimited > 0 ? s().live : null), 15_000);
  assert.ok(loggingStats(strict.world).zone(zone.Id).rateLimited > 0, 'the emulator answered 429');
  const shown = await until(
    'backoff shown',
    () => {
      const parts = liveStatusParts(
        { following: true, newWhilePaused: 0, newMatchesWhilePaused: 0, filtering: false, live: s().live, windowKey: '15m' },
        Date.now(),
      );
      const text = parts.map((p) => p.text).join(' · ');
      return /rate limited \(429\)/.test(text) ? text : null;
    },
    10_000,
  );
  assert.match(shown, /rate limited \(429\)(: backing off \d+(ms|s))?/);
  assert.ok(live.rateLimited > 0);
  await until('records despite the 429s', () => s().view.total > 0, 15_000);
});
