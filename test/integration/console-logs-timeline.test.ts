import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { until } from '../helpers/wait';
import { logRows, openZone, selectedLogRow } from '../helpers/logs-screen';

// The logs screen's timeline panel, rendered in this process (was the pty test
// e2e/logs-screen-timeline): T opens it with the keys, +/- zoom, left/right move the cursor, enter
// jumps the table to the cursor's bucket, tab gives the keys back to the table (where + is a
// context line again). TZ=UTC, as the binary's tests run it.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
/** A console drawing in colour (the bars are █) or without (NO_COLOR: the classes by character). */
const start = (cols: number, rows: number, color = true) => renderConsole(api, { cols, rows, styles: true, settings: { color }, env: { TZ: 'UTC' } });

const HEADER = /([▶ ]) timeline · (\d+[smh]) buckets( \(auto\))? · max ([\d,]+)/;
const CURSOR = /▲ (\d\d:\d\d(?::\d\d)?)–(\d\d:\d\d(?::\d\d)?)( \(newest\))? · ([\d,]+) requests? · 2xx ([\d,]+) · 3xx ([\d,]+) · 4xx ([\d,]+) · 5xx ([\d,]+)/;

const header = (screen: string) => HEADER.exec(screen);
const secondsOf = (hhmmss: string) => hhmmss.split(':').reduce((n, x) => n * 60 + Number(x), 0);
/** a - b in seconds, for times of day less than half a day apart (a run across midnight included). */
const secondsAfter = (a: string, b: string) => ((secondsOf(a) - secondsOf(b) + 86_400 + 43_200) % 86_400) - 43_200;
const clockMinus = (hhmmss: string, s: number) => new Date(((secondsOf(hhmmss) - s + 86_400) % 86_400) * 1000).toISOString().slice(11, 19);
const cursor = (screen: string) => CURSOR.exec(screen);

test('T opens the timeline: axis, bars, zoom, cursor, and enter jumps the table to the first record of the bucket', async () => {
  const app = start(110, 34);
  await openZone(app, busy.Id, /● following[\s\S]*newest of [\d,]+/);

  await app.press('logs.timeline');
  let screen = await app.waitFor(/▶ timeline · \d+[smh] buckets \(auto\)[\s\S]*┬[\s\S]*\d\d:\d\d:\d\d[\s\S]*▲ \d\d:\d\d:\d\d–/);
  const lines = app.lines();
  const axis = lines.findIndex((l) => /─.*┬|┬.*─/.test(l));
  assert.ok(axis > 0, screen);
  // bars above the axis, time labels under it
  assert.ok(
    lines.slice(axis - 4, axis).some((l) => l.includes('█')),
    screen,
  );
  assert.match(lines[axis + 1]!, /\d\d:\d\d:\d\d/);
  const auto = header(screen)!;
  assert.equal(auto[1], '▶', 'the panel has the keys');
  // 15 minutes in about 110 columns: 10 s buckets
  assert.equal(auto[2], '10s');
  assert.ok(cursor(screen)![3], 'the cursor starts on the newest bucket');

  // ? lists the panel's keys while it has them
  await app.press('app.help');
  await app.waitFor('This screen (logs)');
  await app.press('pgdn');
  await app.waitFor(/This screen's timeline \(when it has the keys\)[\s\S]*timeline: finer buckets/);
  await app.press('help.close');
  await app.waitForGone(/This screen's timeline/);

  // zoom: + finer, - coarser (the panel has the keys, so + is not a context line)
  await app.press('timeline.zoomIn');
  screen = await app.waitFor(/▶ timeline · 5s buckets · max/);
  await app.press('timeline.zoomOut', 'timeline.zoomOut');
  screen = await app.waitFor(/▶ timeline · 30s buckets · max/);
  assert.doesNotMatch(screen, /context lines/);

  // the cursor: three buckets back, one key at a time; its counts are the records of that half minute
  await app.press('timeline.older');
  screen = await app.waitFor(/▲ \d\d:\d\d:\d\d–\d\d:\d\d:\d\d · /);
  const first = cursor(screen)![1]!;
  for (const back of [30, 60]) {
    await app.press('timeline.older');
    screen = await app.waitFor(`▲ ${clockMinus(first, back)}–${clockMinus(first, back - 30)} · `);
  }
  const c = cursor(screen)!;
  assert.equal(c[3], undefined, 'no longer on the newest bucket');
  const [from, to] = [c[1]!, c[2]!];
  const total = Number(c[4]!.replace(/,/g, ''));
  const classes = [5, 6, 7, 8].map((i) => Number(c[i]!.replace(/,/g, '')));
  assert.ok(total > 0, screen);
  assert.ok(classes.reduce((a, b) => a + b, 0) <= total);

  // enter: the table pauses on the first record of that bucket, at the top
  await app.press('timeline.jump');
  screen = await app.waitFor(`first record of ${from}–${to}`);
  await app.waitFor(/❚❚ paused/);
  const selected = selectedLogRow(app);
  assert.ok(selected, app.screenText());
  const time = selected.TIME!.slice(0, 8);
  assert.ok(secondsAfter(time, from) >= 0 && secondsAfter(time, to) < 0, `selected ${time} in ${from}–${to}`);
  assert.equal(logRows(app.screenText())[0]?.TIME, selected.TIME, 'at the top of the table');
  const row = Number(/row ([\d,]+) of [\d,]+/.exec(screen)![1]!.replace(/,/g, ''));
  // it is the first: the record before it (one row up) is older than the bucket
  await app.press('nav.up');
  await app.waitFor(`row ${(row - 1).toLocaleString('en-US')} of`);
  const up = selectedLogRow(app);
  assert.ok(up && secondsAfter(up.TIME!.slice(0, 8), from) < 0, `${up?.TIME} is before ${from}`);

  // tab: the keys go back to the table: + is a context line again, the panel says who has the keys
  await app.press('logs.timelineFocus');
  screen = await app.waitFor(/ {2}timeline · 30s buckets[\s\S]*tab: keys to the timeline/);
  await app.press('logs.contextMore');
  await app.waitFor(/context lines: 1/);
  assert.match(app.screenText(), /30s buckets/, 'no zoom while the table has the keys');

  // T closes the panel
  await app.press('logs.timeline');
  await app.waitForGone(/timeline · \d+[smh] buckets/);
  app.unmount();
});

test('without colour the classes are told apart by their characters', async () => {
  const app = start(100, 30, false);
  await openZone(app, busy.Id, /● following[\s\S]*newest of [\d,]+/);
  await app.press('logs.timeline');
  const screen = await app.waitFor(/#2xx =3xx \+4xx X5xx[\s\S]*┬/);
  assert.doesNotMatch(screen, /█/);
  assert.match(screen, /#{3,}/, 'bars of 2xx as #');
  app.unmount();
});

test('the timeline follows the local pattern in filter mode, and moves on while following', async () => {
  const app = start(110, 34);
  await openZone(app, busy.Id, /● following[\s\S]*newest of [\d,]+/);
  await app.press('list.filter');
  await app.type('^404$');
  await app.press('prompt.apply');
  await app.waitFor(/\/\^404\$\/ filter: [\d,]+ match/);
  await app.press('logs.timeline');
  // 5 min buckets: each holds some 404s
  await app.press('timeline.zoomOut', 'timeline.zoomOut', 'timeline.zoomOut');
  let screen = await app.waitFor(/▶ timeline · 5m buckets · max [\d,]+ · \/\^404\$\/ only/);
  await app.press('timeline.older');
  screen = await app.waitFor(/▲ \d\d:\d\d–\d\d:\d\d · /);
  const c = cursor(screen)!;
  const [total, s2, s3, s4, s5] = [4, 5, 6, 7, 8].map((i) => Number(c[i]!.replace(/,/g, '')));
  assert.ok(total! > 0, screen);
  assert.deepEqual([s2, s3, s4, s5], [0, 0, total, 0], 'only the matches (404s) are counted');

  // back on the newest bucket, 1 s buckets: the newest bucket moves on as records come in
  await app.press('timeline.newer');
  await app.press('timeline.zoomIn', 'timeline.zoomIn', 'timeline.zoomIn', 'timeline.zoomIn', 'timeline.zoomIn');
  screen = await app.waitFor(/▶ timeline · 1s buckets[\s\S]*▲ \d\d:\d\d:\d\d–\d\d:\d\d:\d\d \(newest\)/);
  const newest = cursor(screen)![1]!;
  const moved = await until(
    'the newest bucket moves on',
    () => {
      const now = cursor(app.screenText());
      return now?.[3] && now[1] !== newest ? now[1] : null;
    },
    15_000,
  );
  assert.notEqual(moved, newest);
  app.unmount();
});
