import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { type PtySession, startBurrow } from '../helpers/pty';
import { openZone } from '../helpers/logs-screen';
import { until } from '../helpers/wait';

// Sessions in the real binary, in a pseudo-terminal: a smoke test of what needs the process (the
// session file of XDG_STATE_HOME read at the start, a console ended by SIGTERM, --fresh). What
// the sessions keep and how they come back is tested in process: integration/console-logs-session.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-session-'));
after(() => fs.rmSync(state, { recursive: true, force: true }));
const env = { ...envFor(emu), XDG_STATE_HOME: state };
const file = path.join(state, 'burrow', 'sessions', 'default.json');

const start = (args: string[] = []): PtySession => startBurrow(args, { env, cols: 120, rows: 32 });

/** q, and yes when burrow asks first; exit 0. */
async function quit(app: PtySession): Promise<void> {
  let gone = false;
  void app.exited.then(() => (gone = true));
  await app.press('app.quit');
  const asked = await until('burrow to exit or ask first', () => (gone ? 'exited' : /Quit burrow\?/.test(app.screenText()) ? 'asked' : null));
  if (asked === 'asked') await app.press('confirm.yes');
  assert.equal((await app.exited).exitCode, 0);
}

test('the binary: a damaged session file is said; the session is saved as it changes, kept by a SIGTERM, back on the next start; --fresh starts clean', async () => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{"version": 1, "open": "12');
  let app = start();
  await app.waitFor(/logs session file damaged \(not JSON\): starting clean/);
  await openZone(app, busy.Id);
  await app.press('list.filter');
  await app.type('wp-login');
  await app.press('prompt.apply');
  await app.waitFor(/\/wp-login\/ filter/);
  await until('the pattern in the session file', () => fs.existsSync(file) && /"pattern":"wp-login"/.test(fs.readFileSync(file, 'utf8')));
  assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the session file is private');
  app.kill('SIGTERM');
  await app.exited;

  app = start();
  await app.waitFor(/home › logs shop-assets$/m);
  await app.waitFor(/\/wp-login\/ filter/, 60_000);
  await quit(app);

  app = start(['--fresh']);
  const screen = await app.waitFor('Screens');
  assert.doesNotMatch(screen, /wp-login|logs shop-assets/);
  await quit(app);
});
