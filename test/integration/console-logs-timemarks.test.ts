import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import type { LogEntry } from '../../src/api/logs/entry';
import { logRows, openZone, selectedLogRow, type LogRow } from '../helpers/logs-screen';

// `@` time jumps and marks on the logs screen, rendered in this process (was the pty test
// e2e/logs-screen-timemarks), with the console's local zone set to New York (so the times drawn
// are not the records' UTC timestamps).

const TZ = 'America/New_York';
const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-timemarks-inproc-'));
after(() => fs.rmSync(cwd, { recursive: true, force: true }));

const clock = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  fractionalSecondDigits: 3,
});
/** "14:05:30.123" in New York. */
const nyClock = (ms: number) => clock.format(ms);

async function openBusyZone(): Promise<InProcessConsole> {
  const app = renderConsole(api, { env: { TZ }, cols: 120, rows: 30, cwd, styles: true });
  await openZone(app, busy.Id, /● following[\s\S]*newest of [\d,]+/, 15_000);
  return app;
}

/** The selected row's time, as drawn. */
const selectedTime = (app: InProcessConsole) => selectedLogRow(app)?.TIME;

test('@ 14:05 jumps to the first record at or after that local time and pauses; bad input keeps the field open; outside the buffer the nearest is offered', async () => {
  const app = await openBusyZone();
  const target = Math.floor((Date.now() - 7 * 60_000) / 60_000) * 60_000;
  const typed = nyClock(target).slice(0, 5);
  const first = (generatedLogRecords(emu.world, busy.Id, target, target + 60_000) as { timestamp: string }[])
    .map((r) => Date.parse(r.timestamp))
    .sort((a, b) => a - b)[0]!;
  assert.ok(first >= target);

  await app.press('logs.timeJump');
  await app.waitFor(/jump to time: .*14:05 · 14:05:30 · 2026-11-24 14:05 · 2026-11-24T14:05:30Z · -10m/);
  await app.type('25:00');
  await app.press('prompt.apply');
  await app.waitFor('"25:00" has no hour 25 (0-23)');
  assert.match(app.screenText(), /jump to time: 25:00/, 'the field stays open with the text');
  await app.press('ctrl-u');
  await app.type(typed);
  await app.press('prompt.apply');
  const screen = await app.waitFor(/at \d{4}-\d\d-\d\d \d\d:\d\d:00: the record of \d\d:\d\d:\d\d\.\d{3}/);
  assert.match(screen, new RegExp(`at \\d{4}-\\d\\d-\\d\\d ${typed}:00: the record of ${nyClock(first).replace('.', '\\.')}`));
  assert.match(screen, /❚❚ paused/);
  assert.equal(selectedTime(app), nyClock(first), 'the selected row is that record, in New York time');

  // before anything held: said so, with the oldest held; enter again goes there
  await app.press('logs.timeJump');
  await app.type('-2d');
  await app.press('prompt.apply');
  await app.waitFor(/is before the oldest record held, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(newest/);
  await app.press('prompt.apply');
  await app.waitFor(/nearest to \d{4}-\d\d-\d\d \d\d:\d\d:\d\d: the record of/);
  await app.waitFor(/row 1 of [\d,]+/);
  app.unmount();
});

test('m marks two rows (◆), M and U cycle through them, the stats panel lists them and enter on one there selects it, export writes exactly the marked records, C clears; H is the pattern mode', async () => {
  const app = await openBusyZone();
  await app.press('nav.up', 'nav.up', 'nav.up');
  await app.waitFor(/❚❚ paused/);
  await app.press('logs.mark');
  await app.waitFor(/marked \d\d:\d\d:\d\d\.\d{3} \d{3} .*\(1 mark: M next, U previous, C clears all\)/);
  await app.press('nav.up', 'nav.up');
  await app.press('logs.mark');
  await app.waitFor(/\(2 marks: M next/);
  const marked = logRows(app.screenText()).filter((r) => r.mark === '◆');
  assert.equal(marked.length, 2, app.screenText());
  const [older, newer] = marked as [LogRow, LogRow];
  assert.equal(selectedTime(app), older.TIME!, 'the selection is on the second (older) mark');

  await app.press('logs.nextMark');
  await app.waitFor(`mark 2 of 2: ${newer.TIME!}`);
  assert.equal(selectedTime(app), newer.TIME!);
  await app.press('logs.nextMark');
  await app.waitFor(`mark 1 of 2: ${older.TIME!} ${older.ST} (went around to the first)`);
  assert.equal(selectedTime(app), older.TIME!);
  await app.press('logs.prevMark');
  await app.waitFor(`mark 2 of 2: ${newer.TIME!} ${newer.ST} (went around to the last)`);
  assert.equal(selectedTime(app), newer.TIME!);

  await app.press('logs.stats');
  const stats = await app.waitFor(/Marks 2/);
  assert.match(stats, new RegExp(`◆ ${older.TIME!.slice(0, 8)} ${older.ST}`));
  assert.match(stats, new RegExp(`◆ ${newer.TIME!.slice(0, 8)} ${newer.ST}`));

  // ' gives the keys to the marks list, its cursor (›) on the selected record's mark; k moves it,
  // enter selects that mark's record in the table, esc gives the keys back
  await app.press('logs.marksFocus');
  await app.waitFor(new RegExp(`› ◆ ${newer.TIME!.slice(0, 8)} ${newer.ST}`));
  await app.press('marks.up');
  await app.waitFor(new RegExp(`› ◆ ${older.TIME!.slice(0, 8)} ${older.ST}`));
  await app.press('marks.jump');
  await app.waitFor(`mark 1 of 2 (${older.TIME!} ${older.ST}): selected`);
  assert.equal(selectedTime(app), older.TIME!, 'the table selects the mark under the cursor');
  await app.press('marks.table');
  await app.waitForGone(/› ◆/);

  await app.press('logs.export');
  await app.waitFor(/export [\d,]+ records \(NDJSON, tab switches; ctrl-t: the 2 marked only\) to:/);
  await app.press('ctrl-t');
  await app.waitFor(/export 2 marked records \(NDJSON, tab switches; ctrl-t: all shown\) to:/);
  await app.press('prompt.apply');
  const done = await app.waitFor(/exported 2 records \(NDJSON, [\d.]+[BKM]\) to burrow-logs-\S+\.ndjson/);
  const file = path.join(cwd, /to (burrow-logs-\S+\.ndjson)/.exec(done)![1]!);
  const written = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogEntry);
  assert.deepEqual(
    written.map((e) => `${nyClock(Date.parse(e.timestamp))} ${e.statusCode}`),
    [older, newer].map((m) => `${m.TIME} ${m.ST}`),
    'the two marked records, oldest first',
  );

  await app.press('logs.clearMarks');
  await app.waitFor('2 marks cleared');
  await app.waitForGone(/^◆/m);
  assert.deepEqual(
    logRows(app.screenText()).filter((r) => r.mark !== ''),
    [],
    'no row is marked',
  );
  await app.press('logs.nextMark');
  await app.waitFor('no marks: m marks the selected record');

  await app.press('logs.mode');
  await app.waitFor('local pattern highlights: every record is shown');
  app.unmount();
});

test("the filter form's from/to: refused outside the retention, then a fixed window whose rows are all inside it; 3 follows again", async () => {
  const app = await openBusyZone();
  const from = Math.floor((Date.now() - 12 * 60_000) / 60_000) * 60_000;
  const to = from + 2 * 60_000;
  await app.press('logs.filters');
  await app.waitFor('Server filters');
  for (let i = 0; i < 9; i++) await app.press('tab');
  await app.waitFor(/› from \(time\)/);
  await app.type('-4d');
  await app.press('prompt.apply');
  await app.waitFor(/✖ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d is older than the 3-day retention/);
  await app.press('ctrl-u');
  await app.type(nyClock(from).slice(0, 5));
  await app.press('tab');
  await app.type(nyClock(to).slice(0, 5));
  await app.press('prompt.apply');
  const screen = await app.waitFor(/■ fixed window \(not following\) · [\d,]+ records/, 15_000);
  assert.match(screen, new RegExp(`from \\d{4}-\\d\\d-\\d\\d ${nyClock(from).slice(0, 5)}:00 to ${nyClock(to).slice(0, 5)}:00 \\(UTC-0[45]:00\\)`));
  const count = Number(/· ([\d,]+) records/.exec(screen)![1]!.replace(/,/g, ''));
  const expected = generatedLogRecords(emu.world, busy.Id, from, to).length;
  assert.equal(count, expected, 'every record of the window, no more');
  const shown = logRows(app.screenText()).map((r) => r.TIME!);
  assert.ok(shown.length > 5);
  const [a, b] = [nyClock(from), nyClock(to)];
  // (a window across local midnight wraps around on the clock)
  for (const t of shown) assert.ok(a < b ? t >= a && t < b : t >= a || t < b, `${t} is in the window`);

  await app.press('logs.window15m');
  await app.waitFor(/window 15m[\s\S]*● following/, 15_000);
  app.unmount();
});
