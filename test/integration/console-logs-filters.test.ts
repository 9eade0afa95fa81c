import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { logRows, openZone } from '../helpers/logs-screen';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import { v1Date } from '../../src/api/logs/v1';
import type { LogEntry } from '../../src/api/logs/entry';

// The logs screen's server filters, local pattern, export and v1 day, rendered in this process
// (was the pty test e2e/logs-screen-filters). The export is written to a working directory of its
// own, as the binary's to the directory it was started in. TZ=UTC: the rows' times are the records'.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-inproc-'));
after(() => fs.rmSync(cwd, { recursive: true, force: true }));

const start = (): InProcessConsole => renderConsole(api, { cols: 100, rows: 30, cwd, env: { TZ: 'UTC' } });

test('server filter status 5xx: refused input first, then only 5xx rows; local regex filter and its errors; export of what is shown', async () => {
  const app = start();
  await openZone(app, busy.Id);

  // the client's validation: nothing is sent, the form stays with the message
  await app.press('logs.filters');
  await app.waitFor('Server filters');
  await app.type('5xx,abc');
  await app.press('prompt.apply');
  await app.waitFor('"abc" is not a status code (100-599) or a class (1xx-5xx)');
  assert.match(app.screenText(), /Server filters/);
  await app.press('ctrl-u');
  await app.type('5xx');
  await app.press('prompt.apply');
  await app.waitFor('server: status=5xx');
  await app.press('logs.window3d'); // the whole retention: 5xx are rare
  let screen = await app.waitFor(/window 3d · server: status=5xx[\s\S]*● following[\s\S]*newest of [\d,]+/, 15_000);
  const rows = logRows(screen);
  assert.ok(rows.length >= 3, screen);
  for (const r of rows) assert.match(r.ST!, /^5\d\d$/, `only 5xx rows: ${r.TIME}`);
  const all = generatedLogRecords(emu.world, busy.Id, Date.now() - 3 * 86_400_000, Date.now());
  for (const r of rows) {
    assert.ok(
      all.some((g) => String(g.timestamp).slice(11, 23) === r.TIME && String(g.statusCode) === r.ST),
      `${r.TIME} is an emulator record`,
    );
  }
  await app.press('logs.clearFilters');
  await app.waitFor('no server filter');
  await app.press('logs.window15m');
  await app.waitFor(/window 15m[\s\S]*● following/);

  // local regex: an invalid one is a message; a good one keeps only matching rows
  await app.press('list.filter');
  await app.type('(');
  await app.waitFor('invalid regular expression "(":');
  await app.press('prompt.cancel');
  await app.press('list.filter');
  await app.type('^(MISS|EXPIRED)$');
  await app.press('prompt.apply');
  screen = await app.waitFor(/\/\^\(MISS\|EXPIRED\)\$\/ filter: [\d,]+ match/);
  // read by the columns' headers, not their places
  const shown = logRows(screen);
  assert.ok(shown.length >= 3, screen);
  for (const r of shown) {
    assert.match(r.CACHE!, /^(MISS|EXPIRED)$/, r.TIME);
    assert.match(r.ST!, /^\d{3}$/, r.TIME);
  }

  // export: the default name in the working directory, what is shown (the matches)
  await app.press('logs.export');
  await app.waitFor(/export [\d,]+ records \(NDJSON, tab switches\) to:/);
  await app.press('prompt.apply');
  screen = await app.waitFor(/exported [\d,]+ records? \(NDJSON, [\d.]+[BKM]\) to burrow-logs-\d+-\d{8}-\d{6}\.ndjson/);
  const file = path.join(cwd, /to (burrow-logs-\S+\.ndjson)/.exec(screen)![1]!);
  const count = Number(/exported ([\d,]+)/.exec(screen)![1]!.replace(/,/g, ''));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the export is private');
  const written = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LogEntry);
  assert.equal(written.length, count);
  assert.ok(written.length > 0);
  const byId = new Map(generatedLogRecords(emu.world, busy.Id, Date.now() - 20 * 60_000, Date.now()).map((r) => [r.requestId as string, r]));
  for (const e of written) {
    assert.match(e.cacheStatus!, /^(MISS|EXPIRED)$/);
    assert.deepEqual(e, byId.get(e.requestId!), "the exported record is the emulator's record, every field");
  }
  for (let i = 1; i < written.length; i++) assert.ok(written[i - 1]!.timestamp <= written[i]!.timestamp);

  // the same name again as CSV: tab switches the format; an existing file is never replaced silently
  await app.press('logs.export');
  await app.press('tab');
  await app.waitFor(/\(CSV, tab switches\)/);
  await app.press('ctrl-u');
  await app.type(path.basename(file));
  await app.press('prompt.apply');
  await app.waitFor('already exists');
  await app.press('confirm.no');
  await app.waitFor('that file exists');
  await app.press('prompt.cancel');
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, count, 'the file was not touched');

  await app.press('app.quit');
  await app.exited;
});

test('v1: a past day is checked, fetched, parsed and shown like the live view', async () => {
  const app = start();
  await openZone(app, busy.Id);
  await app.press('logs.v1');
  await app.waitFor('v1 day (MM-dd-yy, UTC):');
  await app.press('ctrl-u');
  await app.type('02-30-26');
  await app.press('prompt.apply');
  const refused = await app.waitFor('is not a date: use MM-dd-yy');
  // the label keeps its place: typed text and the message come after it, never over it
  assert.match(refused, /^v1 day \(MM-dd-yy, UTC\): 02-30-26\s+✖ /m);
  await app.press('ctrl-u');
  await app.type(v1Date(Date.now() + 2 * 86_400_000));
  await app.press('prompt.apply');
  await app.waitFor('is in the future');
  const day = v1Date(Date.now() - 86_400_000);
  await app.press('ctrl-u');
  await app.type(day);
  await app.press('prompt.apply');
  const screen = await app.waitFor(new RegExp(`v1 day ${day} \\(UTC\\) · [\\d,]+ lines · [\\d,]+ shown · 0 skipped \\(malformed\\)`), 15_000);
  const want = await api.logs.v1Day(busy.Id, day, { order: 'desc', end: 100_000 });
  const lines = Number(/· ([\d,]+) lines/.exec(screen)![1]!.replace(/,/g, ''));
  assert.equal(lines, want.lines);
  const rows = logRows(screen);
  assert.ok(rows.length >= 5);
  const newest = want.entries.slice(0, 200);
  const last = rows.at(-1)!;
  assert.ok(
    newest.some((e) => e.timestamp.slice(11, 23) === last.TIME && String(e.statusCode) === last.ST),
    'the newest line of the day is at the bottom',
  );
  assert.match(screen, /zone \d+ shop-assets · v1 file/);
  await app.press('app.back');
  await app.waitFor(/window 15m[\s\S]*● following/);
  await app.press('app.quit');
  await app.exited;
});
