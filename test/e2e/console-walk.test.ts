import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { type PtySession, runCommand, startBurrow } from '../helpers/pty';
import { filesUnder, leaks, seededSecrets, type Collected } from '../helpers/secrets';

// The console at 80x24, every screen and its detail view, with --debug: no frame wider or taller
// than the terminal, and no seeded secret in what was drawn, in debug.log, in the SQL history or
// in the exported files. debug.log and history files are 0600.

const emu = await useEmulator({ logRate: 3, ingestDelayMs: 300 });
const api = apiFor(emu);
const secrets = seededSecrets(emu);

/** The frame fits: the header is on the first row (nothing scrolled it away) and no row is a wrapped continuation. */
function assertFits(app: PtySession, where: string): void {
  const lines = app.lines();
  assert.equal(lines.length, 24);
  assert.match(lines[0]!, /^burrow /, `${where}: the header is on the first row (the frame is not taller than 24)\n${app.screenText()}`);
  assert.deepEqual(app.wrappedRows(), [], `${where}: a line wider than 80 columns wrapped\n${app.screenText()}`);
  for (const l of lines) assert.ok([...l].length <= 80, `${where}: ${l}`);
}

async function open(app: PtySession, command: string, ready: string | RegExp): Promise<void> {
  await runCommand(app, command);
  await app.waitFor(ready, 15_000);
}

test('every screen at 80x24 fits; nothing drawn, logged, remembered or exported holds a secret', { timeout: 90_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-walk-'));
  const state = path.join(dir, 'state');
  const out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const zone = String(emu.info.pullZoneIds[0]);
  const lbName = (await api.loadBalancers.list())[0]!.Name!;
  const app = startBurrow(['--debug'], { env: envFor(emu, { XDG_STATE_HOME: state }), cols: 80, rows: 24, cwd: out });
  try {
    await app.waitFor('Screens');
    assertFits(app, 'home');

    await open(app, 'shield', 'Shield zones  enter: API Guardian');
    await app.waitFor(/1 of \d+\s*$/m);
    assertFits(app, 'shield zones');
    await app.press('list.open');
    await app.waitFor('API Guardian · zone');
    assertFits(app, 'API Guardian');
    await app.press('app.back');

    await open(app, 'containers', /applications\s+\S+ \d+ \/ \d+/);
    await app.waitFor('enter: region settings');
    await app.waitFor(/1 of \d+\s*$/m);
    assertFits(app, 'containers');
    await app.press('list.open');
    await app.waitFor('Region settings ·');
    await app.waitFor('ALLOW REQ');
    assertFits(app, 'region settings');
    await app.press('app.back');

    await open(app, 'videos', /Video libraries\s+\d+ of \d+ loaded/);
    await app.waitFor(/1 of \d+\s*$/m);
    assertFits(app, 'videos');
    await app.press('list.open');
    await app.waitFor('keys are masked');
    await app.waitFor('ApiKey');
    assertFits(app, 'video library detail');
    await app.press('app.back');

    await open(app, 'lb', 'enter: origin groups and origins');
    await app.waitFor(/1 of \d+\s*$/m);
    assertFits(app, 'load balancers');
    await app.press('list.open');
    await app.waitFor(`Load balancer ${lbName}`);
    assertFits(app, 'load balancer profile');
    await app.press('app.back');

    await open(app, 'logs', 'Pull zones with logging');
    assertFits(app, 'logs picker');
    await open(app, `logs ${zone}`, /● following/);
    await app.waitFor(/\d\d:\d\d:\d\d\.\d{3} \d{3} /);
    assertFits(app, 'logs following');
    await app.press('logs.stats');
    await app.waitFor('hit ratio');
    assertFits(app, 'logs with stats');
    await app.press('logs.filters');
    await app.waitFor('Server filters');
    assertFits(app, 'logs filters');
    await app.press('prompt.cancel');
    await app.waitForGone('Server filters');
    await app.press('logs.export');
    await app.waitFor(/export [\d,]+ records/);
    await app.press('prompt.apply');
    await app.waitFor(/exported [\d,]+ records/);
    assertFits(app, 'logs export');

    await open(app, 'sql', 'burrow-demo>');
    assertFits(app, 'sql');
    await app.type(`.output ${path.join(out, 'customers.txt')}\r`);
    await app.type('SELECT id, email, avatar, notes FROM customers LIMIT 3;\r');
    await app.type('.output\r');
    await app.type('SELECT * FROM customers LIMIT 40;\r');
    await app.waitFor(/\(40 rows/);
    assertFits(app, 'sql result');
    await app.type('.dump products\r');
    await app.waitFor(/CREATE TABLE/);
    assertFits(app, 'sql dump');

    // ctrl-c never leaves the SQL shell: ctrl-d does, then ctrl-c quits
    await app.press('ctrl-d');
    await app.waitForGone(/^burrow-demo>/m);
    await app.press('app.interrupt');
    await app.press('app.interrupt');
    await app.exited;
  } finally {
    app.kill('SIGKILL');
  }

  const files = filesUnder(state);
  const exported = filesUnder(out);
  const debugLog = files.find((f) => f.file.endsWith('debug.log'));
  assert.ok(debugLog && /-> GET http:\/\/127\.0\.0\.1:\d+\/shield\/shield-zones/.test(debugLog.text), 'debug.log has the requests');
  const history = files.filter((f) => f.file.includes('sql-history'));
  assert.ok(history.length >= 1 && history.some((h) => h.text.includes('SELECT * FROM customers LIMIT 40')), 'the SQL history was written');
  for (const f of [debugLog, ...history]) assert.equal(f.mode, 0o600, `${f.file} is 0600, not ${f.mode.toString(8)}`);
  assert.ok(
    exported.some((f) => f.file.endsWith('.ndjson') && f.text.length > 100),
    'the logs were exported',
  );
  assert.ok(
    exported.some((f) => f.file.endsWith('customers.txt') && f.text.includes('@example.com')),
    '.output wrote the result',
  );

  const outputs: Collected[] = [
    { where: 'the console screen output (every frame)', text: app.rawOutput() },
    ...files.map((f) => ({ where: f.file, text: f.text })),
    ...exported.map((f) => ({ where: f.file, text: f.text })),
  ];
  assert.deepEqual(leaks(outputs, secrets), []);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('burrow sql with a token in the URL, at a terminal: the token is never drawn, logged or remembered', { timeout: 30_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-walk-sql-'));
  const app = startBurrow(['sql', `${emu.info.databaseUrl}/?authToken=${emu.info.databaseToken}`, '--debug'], {
    env: { XDG_STATE_HOME: path.join(dir, 'state'), BURROW_API_KEY: emu.info.accessKey, BURROW_BASE_URL: emu.info.baseUrl },
    cols: 80,
    rows: 24,
  });
  try {
    await app.waitFor('burrow-demo>', 15_000);
    await app.type('SELECT count(*) AS n FROM orders;\r');
    await app.waitFor(/\(1 row/);
    await app.type(`SELECT '${emu.info.accessKey.slice(0, 8)}' AS not_a_secret;\r`);
    await app.waitFor(/not_a_secret/);
    await app.press('ctrl-d');
    await app.exited;
  } finally {
    app.kill('SIGKILL');
  }
  const files = filesUnder(path.join(dir, 'state'));
  assert.ok(
    files.some((f) => f.file.includes('sql-history')),
    'history written',
  );
  assert.deepEqual(leaks([{ where: 'burrow sql screen', text: app.rawOutput() }, ...files.map((f) => ({ where: f.file, text: f.text }))], secrets), []);
  fs.rmSync(dir, { recursive: true, force: true });
});
