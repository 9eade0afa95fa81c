import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { type PtySession, runCommand, startBurrow } from '../helpers/pty';
import { until } from '../helpers/wait';

// Sessions (as lnav keeps them): the setup of a logs screen survives a quit and comes back on
// the next start; --fresh starts clean; a damaged session file is said and ignored.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-session-'));
after(() => fs.rmSync(state, { recursive: true, force: true }));
const env = { ...envFor(emu), XDG_STATE_HOME: state };
const file = path.join(state, 'burrow', 'sessions', 'default.json');
const PATTERN = 'api/cart.*(DE|FR)';
const RULE = 'status=5xx rate>50/s over 60s';

const start = (args: string[] = []): PtySession => startBurrow(args, { env, cols: 120, rows: 32 });

/** q, and yes when burrow asks first (it does while marks or alert rules would be lost). */
async function quit(app: PtySession): Promise<void> {
  await app.press('app.quit');
  const asked = await Promise.race([app.exited.then(() => false), app.waitFor(/Quit burrow\?/).then(() => true)]);
  if (asked) await app.press('confirm.yes');
  const exit = await app.exited;
  assert.equal(exit.exitCode, 0);
}

test('marks, the server filter, the / pattern, alert rules and the open zones come back on the next start; --fresh starts clean', async () => {
  let app = start();
  await app.waitFor('Screens');
  await runCommand(app, `logs ${busy.Id}`);
  await app.waitFor(/● following/);
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
  await app.press('space');
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

  // --fresh: the home screen, nothing restored (and the file is left for the next start)
  app = start(['--fresh']);
  const screen = await app.waitFor('Screens');
  assert.doesNotMatch(screen, /api\/cart/);
  await quit(app);
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

test('the session is saved as it changes: a console ended by SIGTERM keeps it too', async () => {
  fs.rmSync(file, { force: true });
  let app = start();
  await app.waitFor('Screens');
  await runCommand(app, `logs ${busy.Id}`);
  await app.waitFor(/● following/);
  await app.press('list.filter');
  await app.type('wp-login');
  await app.press('prompt.apply');
  await app.waitFor(/\/wp-login\/ filter/);
  await until('the pattern in the session file', () => fs.existsSync(file) && /"pattern":"wp-login"/.test(fs.readFileSync(file, 'utf8')));
  app.kill('SIGTERM');
  await app.exited;
  app = start();
  await app.waitFor(/\/wp-login\/ filter/, 60_000);
  await quit(app);
});
