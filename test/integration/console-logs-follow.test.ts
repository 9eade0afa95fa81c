import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { logRows, openZone, selectedLogRow } from '../helpers/logs-screen';
import { generatedLogRecords } from '../../src/emulator/logging/index';

// The logs screen following a zone, rendered in this process (was the pty test
// e2e/logs-screen-follow: nothing here needs a terminal; the copies are read from the bytes
// written to it). TZ=UTC: the rows' times are the records' UTC timestamps.

const emu = await useEmulator({ seed: 7, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const noLogging = emu.world.pullZones.find((z) => !z.EnableLogging)!;
/** A terminal with no multiplexer, times in UTC. */
const TERMINAL = { TZ: 'UTC', TMUX: undefined, STY: undefined };

function start(cols = 100, rows = 30): InProcessConsole {
  return renderConsole(api, { cols, rows, styles: true, env: TERMINAL });
}

async function openLogs(app: InProcessConsole, arg: string): Promise<void> {
  await app.waitFor('Screens');
  await runCommand(app, `logs ${arg}`.trim());
}

/** Every record the emulator made for the zone in the last `ms` (visible or not yet). */
const generated = (ms: number) => generatedLogRecords(emu.world, busy.Id, Date.now() - ms, Date.now() + 1000);

function osc52Payloads(raw: string): string[] {
  return [...raw.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
}

test("follow shows the emulator's records; pause counts new ones; enter shows one in full; y/Y copy over OSC 52; stats", async () => {
  const app = start();
  await openZone(app, busy.Id, new RegExp(`zone ${busy.Id} ${busy.Name}`));
  let screen = await app.waitFor(/● following · lag \d+(ms|s) · re-checking last \d+ s · budget \d+\/28 · [\d,]+ buffered · 0 dropped/);
  screen = await app.waitFor(/newest of [\d,]+/);

  // the rows on screen are records the emulator generated, newest last
  const records = generated(16 * 60_000);
  const rows = logRows(screen);
  assert.ok(rows.length >= 10, `rows shown:\n${screen}`);
  for (const { TIME: time, ST: status, CACHE: cache } of rows) {
    // a narrow cache column cuts long values: "REVALIDATED" shows as "REVALID…"
    const sameCache = (value: string) => (cache!.endsWith('…') ? value.startsWith(cache!.slice(0, -1)) : value === cache);
    const hit = records.find((r) => String(r.timestamp).slice(11, 23) === time && String(r.statusCode) === status && sameCache(String(r.cacheStatus ?? '')));
    assert.ok(hit, `row ${time} ${status} ${cache} is an emulator record`);
  }
  const times = rows.map((r) => r.TIME!);
  assert.deepEqual([...times].sort(), times, 'oldest first, newest at the bottom');
  assert.equal(selectedLogRow(app)?.TIME, times.at(-1), 'following selects the newest record');

  // pause: the view stays, new records are counted
  await app.press('screen.pause');
  screen = await app.waitFor(/❚❚ paused · [1-9][\d,]* new/, 10_000);
  const paused = logRows(screen);
  const more = Number(/paused · ([\d,]+) new/.exec(screen)![1]!.replace(/,/g, ''));
  await app.waitFor(new RegExp(`❚❚ paused · (?!${more.toLocaleString('en-US')} new)[\\d,]+ new`), 10_000);
  assert.deepEqual(logRows(app.screenText()), paused, 'the paused rows do not move while new records are counted');
  await app.press('nav.bottom');
  await app.waitFor('● following');
  await app.press('screen.pause');
  await app.waitFor('❚❚ paused');

  // enter: every field of the selected (newest) record
  const selected = selectedLogRow(app);
  assert.ok(selected, app.screenText());
  await app.press('list.open');
  screen = await app.waitFor(/request id\s+[0-9a-f]{32}/);
  const id = /request id\s+([0-9a-f]{32})/.exec(screen)![1]!;
  const rec = generated(20 * 60_000).find((r) => r.requestId === id);
  assert.ok(rec, 'the record shown is one the emulator generated');
  assert.equal(String(rec.timestamp).slice(11, 23), selected.TIME, 'the one selected in the table');
  const field = (label: string) => new RegExp(`^${label}\\s+(.*)$`, 'm').exec(screen)?.[1]?.trim();
  assert.equal(field('status'), String(rec.statusCode));
  assert.equal(field('cache status'), rec.cacheStatus ?? '—');
  assert.equal(field('remote ip'), rec.remoteIp ?? '—');
  assert.equal(field('country'), rec.countryCode ?? '—');
  assert.equal(field('time'), rec.timestamp);
  for (const label of ['host', 'path', 'url', 'user agent', 'referer', 'edge location', 'asn', 'bytes sent', 'ja4 fingerprint', 'authorization']) {
    assert.match(screen, new RegExp(`^${label}\\s`, 'm'), `${label} is shown`);
  }

  // copies: the request id, then the whole record as JSON
  await app.press('logs.copyId');
  await app.waitFor('copied request id');
  await app.press('logs.copyJson');
  await app.waitFor('as JSON');
  const copied = osc52Payloads(app.rawOutput());
  assert.equal(copied.length, 2, 'one OSC 52 sequence per copy');
  assert.equal(copied[0], id);
  assert.deepEqual(JSON.parse(copied[1]!), rec);
  await app.press('app.back');
  await app.waitForGone(/request id\s+[0-9a-f]{32}/);

  // stats: every cache status with its count, the hit ratio HIT / records with a cache status
  await app.press('logs.stats');
  screen = await app.waitFor(/hit ratio \d+\.\d% HIT of [\d,]+ with a cache status/);
  const num = (s: string) => Number(s.replace(/,/g, ''));
  const total = num(/Stats ([\d,]+) records/.exec(screen)![1]!);
  const cacheLine = /^cache (.*)$/m.exec(screen)![1]!;
  const counts = new Map([...cacheLine.matchAll(/(HIT|MISS|BYPASS|REVALIDATED|STALE|UPDATING|EXPIRED|-|\(none\)) ([\d,]+)/g)].map((m) => [m[1]!, num(m[2]!)]));
  assert.ok(counts.has('HIT') && counts.has('MISS'), cacheLine);
  const emulatorStatuses = new Set(records.map((r) => (r.cacheStatus as string | null) ?? '(none)'));
  for (const k of counts.keys()) assert.ok(emulatorStatuses.has(k), `${k} is a cache status the emulator produced`);
  const m = /hit ratio (\d+\.\d)% HIT of ([\d,]+)/.exec(screen)!;
  const withStatus = [...counts].filter(([k]) => k !== '-' && k !== '(none)').reduce((a, [, v]) => a + v, 0);
  if (!cacheLine.includes('…')) {
    assert.equal(
      [...counts.values()].reduce((a, b) => a + b, 0),
      total,
      'the cache statuses add up to the records',
    );
    assert.equal(num(m[2]!), withStatus);
  }
  assert.ok(Math.abs(Number(m[1]) - (100 * counts.get('HIT')!) / num(m[2]!)) < 0.06, 'hit ratio = HIT / with a cache status');
  assert.match(screen, /^status 1xx \d+ 2xx [\d,]+ 3xx [\d,]+ 4xx [\d,]+ 5xx [\d,]+/m);
  assert.match(screen, /^req\/s \d+\.\d [▁▂▃▄▅▆▇█]+/m);
  assert.match(screen, /^paths \/\S+ [\d,]+/m);

  await app.press('app.quit');
  await app.exited;
});

test(':logs lists the zones with logging; a zone without logging says so', async () => {
  const app = start();
  await openLogs(app, '');
  let screen = await app.waitFor(/Pull zones with logging .*\d+ zones? without logging not listed/);
  for (const z of emu.world.pullZones) {
    const listed = new RegExp(`^${z.Id}\\s+${z.Name}\\s`, 'm').test(screen);
    assert.equal(listed, z.EnableLogging, `${z.Name} listed iff logging is on`);
  }
  await runCommand(app, `logs ${noLogging.Id}`);
  screen = await app.waitFor(`logging is not enabled for pull zone ${noLogging.Id} (${noLogging.Name})`);
  assert.doesNotMatch(screen, /following/);
  await app.press('app.back');
  await app.waitFor('Pull zones with logging');
  // enter on the first zone follows it
  const first = emu.world.pullZones.filter((z) => z.EnableLogging).sort((a, b) => a.Id - b.Id)[0]!;
  await app.press('nav.top', 'list.open');
  await app.waitFor(`zone ${first.Id} ${first.Name}`);
  await app.press('app.quit');
  await app.exited;
});

test('a long backfill shows the history bar (records, pages, rate, ETA) under the newest records, and it goes when the history is in', async () => {
  // 100 records/s: 15 minutes are about 90,000 records, ten pages; each answer 0.4 s
  // late, so the bar is on screen for a few seconds
  const busyEmu = await useEmulator({ seed: 8, logRate: 100, ingestDelayMs: 500, faults: { latencyMs: 400, error: 0, reset: 0, malformed: 0, ratelimit: 0 } });
  const zone = busyEmu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
  const app = renderConsole(apiFor(busyEmu), { cols: 120, rows: 30, env: TERMINAL });
  await openLogs(app, String(zone.Id));
  const screen = await app.waitFor(/history [█░]+ \d+% · [\d,]+ records · \d+ pages? · [\d,]+\/s · ETA \d+(s|m \d\ds)/, 20_000);
  // the newest records are on screen while the history loads
  assert.ok(logRows(screen).length >= 10, screen);
  const done = await app.waitForGone(/history [█░]+/, 120_000);
  // the whole window is in: tens of thousands of records, nothing dropped or capped
  assert.match(done, /● following · .* · \d{2,3},\d{3} buffered · 0 dropped/);
  assert.doesNotMatch(done, /backfill capped/);
  await app.press('app.quit');
  await app.exited;
});
