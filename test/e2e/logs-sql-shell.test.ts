import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { type PtySession, runCommand, startBurrow } from '../helpers/pty';
import { until } from '../helpers/wait';
import { EmulatorClock } from '../../src/emulator/clock';

// `Q` on the logs screen: the SQL shell on the screen's records (npm run build first).

const clock = new EmulatorClock(Date.now());
const emu = await useEmulator({ seed: 7, logRate: 20, ingestDelayMs: 300, now: clock.now });
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const HEADER = /logs as of \d\d:\d\d:\d\d, ([\d,]+) rows?/;

async function openLogsSql(app: PtySession): Promise<void> {
  await app.waitFor('Screens');
  await runCommand(app, `logs ${busy.Id}`);
  await app.waitFor(/● following .* [1-9][\d,]* buffered/, 20_000);
  await app.press('Q');
  await app.waitFor(/^logs>/m);
}

const headerRows = (screen: string) => Number(HEADER.exec(screen)?.[1]?.replace(/,/g, '') ?? NaN);

test('Q opens SQL on the buffer: count matches the header, .schema, INSERT INTO logs refused, a TEMP table, completion; new records appear', async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 140, rows: 40 });
  await openLogsSql(app);
  assert.match(app.lines()[0]!, /logs shop-assets › sql logs$/, 'breadcrumbs end in sql logs');

  // new records come in while the shell is open (the follow goes on under it): the header grows
  const first = headerRows(await app.waitFor(HEADER, 20_000));
  await until('the header to count new records', () => headerRows(app.screenText()) > first, 20_000);

  // no more records from here: a count and the header agree (once the last records made before
  // the freeze are in: counted again, with a new name each time, until they do)
  clock.freeze();
  let n = -1;
  let header = -2;
  for (let k = 1; k <= 20 && n !== header; k++) {
    await app.type(`SELECT count(*) AS n${k} FROM logs;\r`);
    const screen = await app.waitFor(new RegExp(`\\|\\s+n${k}\\s+\\|[^|]*\\n[^\\n]*\\n\\|\\s+\\d+\\s+\\|`), 20_000);
    n = Number(new RegExp(`\\|\\s+n${k}\\s+\\|[^|]*\\n[^\\n]*\\n\\|\\s+(\\d+)\\s+\\|`).exec(screen)![1]);
    header = headerRows(screen);
  }
  assert.ok(n > 0, "the table holds the buffer's records");
  assert.equal(n, header, "the count is the header's row count");

  await app.type('.schema logs\r');
  const screen = await app.waitFor(/CREATE TABLE logs \(\n[\s\S]*\n\);/);
  for (const column of [
    'time',
    'time_ms',
    'pull_zone',
    'status',
    'cache_status',
    'bytes',
    'country',
    'edge',
    'remote_ip',
    'user_agent',
    'referer',
    'request_id',
    'url',
  ]) {
    assert.match(screen, new RegExp(`\\b${column} `), `.schema shows ${column}`);
  }

  await app.type('INSERT INTO logs (status) VALUES (500);\r');
  await app.waitFor(/the logs table is read-only/);
  // a refused input is not put back (the next one typed would be added to it): up recalls it
  await app.waitFor(/^logs>\s*$/m);
  await app.press('up');
  await app.waitFor(/^logs> INSERT INTO logs/m);
  await app.press('ctrl-c');
  await app.waitFor(/^logs>\s*$/m);

  await app.type('CREATE TEMP TABLE errs AS SELECT status, count(*) AS c FROM logs WHERE status >= 400 GROUP BY status;\r');
  await app.type('SELECT sum(c) AS total_errors FROM errs;\r');
  await app.waitFor(/\|\s+total_errors\s+\|/, 20_000);

  // completion from the logs table's columns
  await app.type('SELECT cache_sta');
  await app.press('tab');
  await app.waitFor(/^logs> SELECT cache_status/m);
  clock.resume();

  // esc leaves for the logs screen, which is still following; q quits cleanly
  await app.press('ctrl-c');
  await app.press('esc');
  await app.press('esc');
  await app.waitFor(/● following/, 10_000);
  // the TEMP table lives only as long as the console: quitting asks first
  await app.press('q');
  await app.waitFor(/Quit burrow\?[\s\S]*table errs in :sql logs/);
  await app.press('y');
  const exit = await app.exited;
  assert.equal(exit.exitCode, 0, 'the console quits with the logs table open');
});

test('.output in the logs SQL shell: a link is named as one, no keeps it, yes replaces the link (never its target) with a 0600 file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-sql-output-'));
  try {
    const target = path.join(dir, 'precious.txt');
    fs.writeFileSync(target, 'precious\n');
    fs.chmodSync(target, 0o644);
    const link = path.join(dir, 'out.csv');
    fs.symlinkSync(target, link);
    const app = startBurrow([], { env: envFor(emu), cols: 140, rows: 40 });
    await openLogsSql(app);
    await app.type(`.output ${link}\r`);
    await app.waitFor(/out\.csv is a symbolic link \(to .*precious\.txt\)/);
    await app.press('n');
    await app.waitFor(/out\.csv is left as it is/);
    await app.type(`.output ${link}\r`);
    await app.waitFor(/out\.csv is a symbolic link/);
    await app.press('y');
    await app.waitFor(/results go to .*out\.csv/);
    await app.type('.mode csv\r');
    await app.type('SELECT count(*) AS n FROM logs;\r');
    await app.waitFor(/written to .*out\.csv/);
    await app.type('.output\r');
    await app.waitFor(/results go to the screen again/);
    assert.equal(fs.readFileSync(target, 'utf8'), 'precious\n', 'nothing was written through the link');
    assert.equal(fs.statSync(target).mode & 0o777, 0o644);
    assert.ok(fs.lstatSync(link).isFile(), 'the link is now a file of its own');
    assert.equal(fs.statSync(link).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(link, 'utf8'), /^n\n\d+\n$/);
    app.kill('SIGKILL');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
