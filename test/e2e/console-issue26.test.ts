import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow, type PtySession } from '../helpers/pty';

// What a new on-call user hit in the console (issue 26), in a pseudo-terminal (npm run build first).

const emu = await useEmulator({ seed: 26, logRate: 10, ingestDelayMs: 300 });
const shop = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const video = emu.world.pullZones.find((z) => z.Name === 'video-edge')!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-console26-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function openLogs(app: PtySession, zone: number): Promise<void> {
  await app.press(':');
  await app.type(`logs ${zone}`);
  await app.press('enter');
  // this zone's screen, not the one before it (a key pressed in between would be lost)
  await app.waitFor(new RegExp(`^zone ${zone} [\\s\\S]*● following .* [1-9][\\d,]* buf`, 'm'), 20_000);
}

test('a config file others can read is named in the console too, not only before it takes the screen', async () => {
  const cfg = path.join(dir, 'cfg');
  fs.mkdirSync(path.join(cfg, 'burrow'), { recursive: true });
  const file = path.join(cfg, 'burrow', 'config.yaml');
  fs.writeFileSync(file, 'profiles:\n  work:\n    readOnly: false\n');
  fs.chmodSync(file, 0o644);
  const app = startBurrow([], { env: envFor(emu, { XDG_CONFIG_HOME: cfg }), cols: 140, rows: 30 });
  await app.waitFor('Screens');
  await app.waitFor(/warning: \S+config\.yaml is readable by other users \(mode 644\)/);
  app.kill();
});

test('marks belong to the zones they were made on; an open timeline without room says why it is not shown', async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 80, rows: 24 });
  await app.waitFor('Screens');
  await openLogs(app, shop.Id);
  await app.press('m');
  await app.waitFor(/\(1 mark: M next/);
  await openLogs(app, video.Id);
  await app.press('M');
  await app.waitFor('no marks: m marks the selected record');
  // back on the zone it was made on, the mark is there again
  await openLogs(app, shop.Id);
  await app.press('M');
  await app.waitFor(/mark 1 of 1: \d\d:\d\d:\d\d\.\d{3} \d{3}/);
  // 80x24 with the stats below: no room for the timeline, and a line says so
  await app.press('i');
  await app.press('T');
  await app.waitFor(/timeline hidden: \d+ more rows? needed \(i closes the stats below\) · T closes it/);
  app.kill();
});

test('Q on the logs screen: the export message stays behind; ctrl-c never quits the shell; quitting asks about marks and the TEMP table', async () => {
  // a deep working directory: the export path is longer than its field and is cut at the left
  const cwd = path.join(dir, 'a-rather-long-directory-name-for-exports', 'and-another-level-of-folders-below-it', 'and-one-more');
  fs.mkdirSync(cwd, { recursive: true });
  const app = startBurrow([], { env: envFor(emu), cols: 100, rows: 30, cwd });
  await app.waitFor('Screens');
  await openLogs(app, shop.Id);
  await app.press('m');
  await app.waitFor(/\(1 mark: M next/);
  await app.press('e');
  await app.waitFor(/to: …\S+\.ndjson/);
  await app.press('enter');
  await app.waitFor(/exported [\d,]+ records/);
  await app.press('Q');
  await app.waitFor(/^logs>/m);
  await app.waitForGone(/exported [\d,]+ records/);
  await app.press('ctrl-c');
  await app.waitFor(/ctrl-c does not leave the SQL shell: ctrl-d on an empty input or \.quit does/);
  await app.press('ctrl-c');
  await app.type('CREATE TEMP TABLE mine AS SELECT 1 AS x;\r');
  await app.type('SELECT count(*) AS n FROM mine;\r');
  await app.waitFor(/\|\s+n\s+\|/, 20_000);
  await app.press('ctrl-d');
  await app.waitFor(/● following/);
  await app.press('q');
  const asked = await app.waitFor(/Quit burrow\?/);
  assert.match(asked.replace(/\s+/g, ' '), /1 mark on the logs screen/);
  assert.match(asked.replace(/\s+/g, ' '), /table mine in :sql logs/);
  await app.press('n');
  await app.waitForGone(/Quit burrow\?/);
  await app.press('ctrl-c');
  await app.waitFor(/Quit burrow\?/);
  await app.press('ctrl-c');
  assert.equal((await app.exited).exitCode, 0);
});
