import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import stringWidth from 'string-width';
import { envFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { filesUnder, leaks, seededSecrets, type Collected } from '../helpers/secrets';
import { createApi } from '../../src/api/index';
import { LogPageReader } from '../../src/log-engine/index';
import { resolveSettings } from '../../src/config/settings';
import { debugSink } from '../../src/runtime/connect';
import type { Io } from '../../src/runtime/io';

// The console at 80x24, every screen and its detail view, with --debug: no frame wider or taller
// than the terminal, and no seeded secret in what was drawn, in debug.log, in the SQL history or
// in the exported files. debug.log and history files are 0600. Rendered in this process (was a
// pty test), with the Api and its debug log made as the binary makes them (runtime/connect.ts);
// `burrow sql` with a token in its URL stays in test/e2e/console-walk.

const emu = await useEmulator({ logRate: 3, ingestDelayMs: 300 });
const secrets = seededSecrets(emu);

// what the stores write goes where a person's would: the state directory and the current one
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-walk-'));
const state = path.join(dir, 'state');
const out = path.join(dir, 'out');
fs.mkdirSync(out);
const savedState = process.env.XDG_STATE_HOME;
const savedCwd = process.cwd();
process.env.XDG_STATE_HOME = state;
process.chdir(out);
after(() => {
  process.chdir(savedCwd);
  if (savedState === undefined) delete process.env.XDG_STATE_HOME;
  else process.env.XDG_STATE_HOME = savedState;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The frame fits: the header on the first row, no more rows than the terminal, none wider. */
function assertFits(app: InProcessConsole, where: string): void {
  const lines = app.lines();
  assert.ok(lines.length <= 24, `${where}: ${lines.length} rows\n${app.screenText()}`);
  assert.match(lines[0]!, /^burrow /, `${where}: the header is on the first row\n${app.screenText()}`);
  assert.deepEqual(app.wideRows(), [], `${where}: a line wider than 80 columns\n${app.screenText()}`);
  for (const l of lines) assert.ok(stringWidth(l) <= 80, `${where}: ${l}`);
}

async function open(app: InProcessConsole, command: string, ready: string | RegExp): Promise<void> {
  await runCommand(app, command);
  await app.waitFor(ready, 15_000);
}

test('every screen at 80x24 fits; nothing drawn, logged, remembered or exported holds a secret', { timeout: 90_000 }, async () => {
  const settings = resolveSettings({ debug: true }, envFor(emu), {});
  const io = { env: process.env } as unknown as Io;
  const api = createApi(
    { baseUrl: settings.baseUrl, loggingUrl: settings.loggingUrl, apiKey: settings.apiKey!, debug: debugSink(settings, io, true) },
    { pageReader: new LogPageReader() },
  );
  after(() => api.close());
  const zone = String(emu.info.pullZoneIds[0]);
  const lbName = (await api.loadBalancers.list())[0]!.Name!;
  const app = renderConsole(api, { cols: 80, rows: 24, settings });
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
});
