import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import { envFor, useEmulator } from '../helpers/emulator';
import { type PtySession, runCommand, startBurrow } from '../helpers/pty';
import { assertNoHostileBytes, HOSTILE, hostileSpec, startHostileProxy } from '../helpers/hostile';

// The console in a pseudo-terminal against a platform whose every string field carries terminal
// control sequences, and a database with a hostile row, table name and trigger: every screen and
// detail view is drawn, and the raw bytes that reached the terminal hold none of them (the
// console's own colour and cursor codes are allowed; the hostile ones are recognised by their
// payloads). What the user sees instead is the visible escape.

const emu = await useEmulator({ logRate: 3, ingestDelayMs: 300 });
const mgmt = await startHostileProxy(emu.info.baseUrl);
const logging = await startHostileProxy(emu.info.loggingUrl, { keep: ['timestamp'] });
const failing = await startHostileProxy(emu.info.baseUrl, { failPaths: /./ });
// the console runs in a folder of its own: a stray key must not leave an export in the repository
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-hostile-console-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const specFile = path.join(dir, 'hostile-spec.json');
fs.writeFileSync(specFile, JSON.stringify(hostileSpec()));
const hostileEnv = { ...envFor(emu), BURROW_BASE_URL: mgmt.url, BURROW_LOGGING_URL: logging.url };

const db = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => db.close());
const quoted = HOSTILE.replace(/"/g, '""');
await db.execute(`CREATE TABLE "${quoted}t" (id INTEGER PRIMARY KEY)`);
await db.execute('CREATE TABLE hostile_rows (id INTEGER PRIMARY KEY, name TEXT)');
await db.execute({ sql: 'INSERT INTO hostile_rows (id, name) VALUES (1, ?)', args: [`${HOSTILE}row\nsecond line`] });
await db.execute(`CREATE VIEW hostile_view AS SELECT id, name AS "${quoted}col" FROM hostile_rows`);
await db.execute(`CREATE TABLE hostile (id INTEGER PRIMARY KEY)`);
await db.execute('INSERT INTO hostile VALUES (1)');
await db.execute(`CREATE TRIGGER hostile_guard BEFORE DELETE ON hostile BEGIN SELECT RAISE(ABORT, '${HOSTILE.replace(/'/g, "''")}no'); END`);

/** What the sanitiser shows for the OSC 52 at the start of every hostile string (cut short: cells truncate). */
const SEEN = '\\x1b]52;c;';

async function open(app: PtySession, command: string, ready: string | RegExp): Promise<void> {
  await runCommand(app, command);
  await app.waitFor(ready, 15_000);
}

/** The screen shows the visible escape, and nothing hostile reached the terminal so far. */
async function seen(app: PtySession, where: string): Promise<void> {
  const screen = await app.waitFor(SEEN, 10_000).catch((e: Error) => assert.fail(`${where}: no visible escape on the screen\n${e.message}`));
  assert.ok(screen.includes(SEEN));
  assertNoHostileBytes(app.rawOutput(), where);
}

test('every screen and detail view draws hostile platform data as visible escapes', { timeout: 120_000 }, async () => {
  const zone = String(emu.info.pullZoneIds[0]);
  const app = startBurrow([], { env: hostileEnv, cols: 120, rows: 30, cwd: dir });
  await app.waitFor('Screens');

  await open(app, 'shield', 'Shield zones  enter: API Guardian');
  await app.waitFor(/1 of \d+\s*$/m);
  assertNoHostileBytes(app.rawOutput(), 'shield zones');
  await app.press('list.open');
  await app.waitFor('API Guardian · zone');
  await seen(app, 'API Guardian (spec title, version, endpoint paths)');
  // a hostile spec file: checked, shown in the confirmation, uploaded and read back
  await app.press('shield.spec');
  await app.waitFor('enter checks the file against this zone');
  await app.type(specFile);
  await app.press('prompt.apply');
  await app.waitFor('within the plan limits');
  await app.waitFor(`${SEEN}SFNUSUxF\\x07\\x1b]0;pwned`);
  assertNoHostileBytes(app.rawOutput(), 'spec panel (title, version, where)');
  await app.press('shield.send');
  await app.waitFor('What will be sent:');
  assertNoHostileBytes(app.rawOutput(), 'upload confirmation');
  await app.press('confirm.yes');
  await app.waitFor(/spec (uploaded|replaced): /);
  assertNoHostileBytes(app.rawOutput(), 'after the upload');
  await app.press('app.back');

  await open(app, 'containers', 'enter: region settings');
  await app.waitFor(/1 of \d+\s*$/m);
  await seen(app, 'containers list');
  await app.press('list.open');
  await app.waitFor('Region settings ·');
  assertNoHostileBytes(app.rawOutput(), 'region settings');
  await app.press('app.back');

  await open(app, 'videos', /Video libraries\s+\d+ of \d+ loaded/);
  await app.waitFor(/1 of \d+\s*$/m);
  await seen(app, 'videos list');
  await app.press('list.open');
  await app.waitFor('ApiKey');
  await app.waitFor(`Video library ${SEEN}`);
  await seen(app, 'video library detail');
  await app.press('app.back');

  await open(app, 'lb', 'enter: origin groups and origins');
  await app.waitFor(/1 of \d+\s*$/m);
  await seen(app, 'load balancers list');
  await app.press('list.open');
  await app.waitFor(`Load balancer ${SEEN}`);
  await seen(app, 'load balancer profile');
  await app.press('app.back');

  await open(app, 'logs', 'Pull zones with logging');
  await app.waitFor(/1 of \d+\s*$/m);
  await seen(app, 'logs zone picker');
  await open(app, `logs ${zone}`, /● following/);
  await app.waitFor(`zone ${zone} ${SEEN}`);
  await app.waitFor(/\d\d:\d\d:\d\d\.\d{3} \d{3} /);
  await seen(app, 'logs header and rows');
  await app.press('list.open');
  await app.waitFor('esc closes');
  await seen(app, 'log record detail');
  await app.press('app.back');
  await app.waitForGone('esc closes');

  await open(app, 'sql', 'SQL shell on');
  await app.type('.tables\r');
  await app.waitFor(`${SEEN}SFNUSUxF`);
  // pasted: the hostile text typed into the shell must not crash it either
  await app.type(`SELECT 1 AS "${HOSTILE}";\r`);
  await app.waitFor('(1 row');
  await app.type('SELECT * FROM hostile_view;\r');
  await app.waitFor(/\(1 row[^\n]*\n[^]*\(1 row/);
  await seen(app, ':sql result');
  await app.type('DELETE FROM hostile WHERE id = 1;\r');
  await app.waitFor(`${SEEN}SFNUSUxF\\x07\\x1b]0;pwned`);
  await seen(app, ':sql error line (trigger RAISE)');

  assertNoHostileBytes(app.rawOutput(), 'the whole session');
  app.kill('SIGKILL');
});

test('the status bar error line shows a hostile server Message and ErrorKey as visible escapes', { timeout: 60_000 }, async () => {
  const app = startBurrow([], { env: { ...hostileEnv, BURROW_BASE_URL: failing.url }, cols: 120, rows: 30, cwd: dir });
  await app.waitFor('Screens');
  await open(app, 'videos', '✖');
  await app.waitFor(/✖ .*\\x1b\]52;c;/);
  assertNoHostileBytes(app.rawOutput(), 'videos with a failing platform');
  await open(app, 'shield', 'Shield zones');
  await app.waitFor(/✖ .*\\x1b\]52;c;/);
  assertNoHostileBytes(app.rawOutput(), 'shield with a failing platform');
  app.kill('SIGKILL');
});
