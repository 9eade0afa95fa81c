import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { openZone } from '../helpers/logs-screen';
import { until } from '../helpers/wait';
import { LogsSessions } from '../../src/state/logs/session-file';

// Sessions (as lnav keeps them), rendered in this process (was the pty test e2e/logs-session):
// the setup of a logs screen is written to the session file, and a console started on that file
// comes back to it; a damaged or old file is said and ignored. The binary's own start (--fresh,
// a SIGTERM) is the pty smoke test in e2e/logs-session.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-session-inproc-'));
after(() => fs.rmSync(state, { recursive: true, force: true }));
const file = path.join(state, 'sessions', 'emulator.json');
const PATTERN = 'api/cart.*(DE|FR)';
const RULE = 'status=5xx rate>50/s over 60s';

/** A console on the session file, as one start of the binary: `fresh` is --fresh. */
const start = (fresh = false): InProcessConsole => renderConsole(api, { cols: 120, rows: 32, env: { TZ: 'UTC' }, sessions: new LogsSessions(file, fresh) });

/** q, and yes when burrow asks first (it does while marks or alert rules would be lost). */
async function quit(app: InProcessConsole): Promise<void> {
  let gone = false;
  void app.exited.then(() => (gone = true));
  await app.press('app.quit');
  // one wait on either (a wait left running past the quit would hold the test file open)
  const asked = await until('the console to quit or ask first', () => (gone ? 'quit' : /Quit burrow\?/.test(app.screenText()) ? 'asked' : null));
  if (asked === 'asked') await app.press('confirm.yes');
  await app.exited;
}

test('marks, the server filter, the / pattern, alert rules and the open zones come back on the next start; fresh starts clean', async () => {
  let app = start();
  await openZone(app, busy.Id);
  // the breadcrumb names the zone opened
  await app.waitFor(/home › logs shop-assets$/m);
  // a server filter
  await app.press('logs.filters');
  await app.waitFor('Server filters');
  await app.type('2xx');
  await app.press('prompt.apply');
  await app.waitFor('server: status=2xx');
  // a pattern over the whole line: a path, then a country
  await app.press('list.filter');
  await app.type(PATTERN);
  await app.press('prompt.apply');
  await app.waitFor(/\/api\/cart\.\*\(DE\|FR\)\/ filter: [1-9][\d,]* match/, 60_000);
  // an alert rule
  await app.press('logs.alerts');
  await app.waitFor('Alert rules');
  await app.type(RULE);
  await app.press('prompt.apply');
  await app.waitFor(`› ${RULE}`);
  await app.press('prompt.cancel');
  await app.waitForGone('Alert rules');
  // a mark on the selected (paused) record
  await app.press('screen.pause');
  await app.press('logs.mark');
  await app.waitFor('◆');
  await quit(app);

  const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    open: string;
    zoneSets: Record<string, { local: { pattern: string }; alerts: string[]; marks: unknown[]; filter: { status: string } }>;
  };
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the session file is private');
  assert.equal(saved.open, String(busy.Id));
  const zone = saved.zoneSets[String(busy.Id)]!;
  assert.equal(zone.local.pattern, PATTERN);
  assert.deepEqual(zone.alerts, [RULE]);
  assert.equal(zone.marks.length, 1);
  assert.equal(zone.filter.status, '2xx');

  // the next start opens the zone again, with its setup
  app = start();
  await app.waitFor(/\/api\/cart\.\*\(DE\|FR\)\/ filter/, 60_000);
  await app.waitFor('server: status=2xx');
  await app.press('logs.alerts');
  await app.waitFor(`› ${RULE}`);
  await app.press('prompt.cancel');
  await app.waitForGone('Alert rules');
  await app.press('logs.stats');
  await app.waitFor('Marks 1');
  await quit(app);

  // fresh: the home screen, nothing restored; the file is not read, and the quit saves over it (README)
  app = start(true);
  const screen = await app.waitFor('Screens');
  assert.doesNotMatch(screen, /api\/cart/);
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).open, String(busy.Id), 'the file is untouched until the quit');
  await quit(app);
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { version: 1, open: null, zoneSets: {} });
});

test('a damaged or old session file is said in the console and ignored; the console starts clean', async () => {
  for (const [content, said] of [
    ['{"version": 1, "open": "12', /logs session file damaged \(not JSON\): starting clean/],
    ['{"version": 99, "open": "1"}', /logs session file from another burrow version \(version 99\): starting clean/],
  ] as const) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    const app = start();
    const screen = await app.waitFor(said);
    assert.match(screen, /Screens/);
    await quit(app);
  }
});

test('the session is saved as it changes, before any quit', async () => {
  fs.rmSync(file, { force: true });
  let app = start();
  await openZone(app, busy.Id);
  await app.press('list.filter');
  await app.type('wp-login');
  await app.press('prompt.apply');
  await app.waitFor(/\/wp-login\/ filter/);
  // saved within a second of the change, while the console runs
  await until('the pattern in the session file', () => fs.existsSync(file) && /"pattern":"wp-login"/.test(fs.readFileSync(file, 'utf8')));
  // a console that ends without a quit (unmounted: the binary ended by a signal) keeps it
  app.unmount();
  // the zone opens again by itself (the file says which was open), with its pattern
  app = start();
  await app.waitFor(/home › logs shop-assets$/m);
  await app.waitFor(/\/wp-login\/ filter/, 60_000);
  await quit(app);
});
