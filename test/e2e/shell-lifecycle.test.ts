import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { envFor, useEmulator } from '../helpers/emulator';
import { BURROW_BIN, startBurrow } from '../helpers/pty';
import { SCREENS } from '../../src/app/screens';
import { childrenOf } from '../helpers/processes';
import { until } from '../helpers/wait';

/** Rows of the home screen's table: every screen but home itself. */
const HOME_ROWS = SCREENS.length - 1;

const RESTORED_AT_END = /\x1b\[\?1049l(\x1b\[\?25h)+$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const waitUntil = (ok: () => boolean, timeoutMs: number, what: string) => until(what, ok, timeoutMs, 50);

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const) {
  test(`${signal} restores the terminal and exits ${code}`, async () => {
    const emu = await useEmulator();
    const app = startBurrow([], { env: envFor(emu) });
    await app.waitFor('Screens');
    app.kill(signal);
    const exit = await app.exited;
    assert.equal(exit.exitCode, code);
    assert.match(app.rawOutput(), RESTORED_AT_END);
  });
}

test('without credentials: the emulator child, the EMULATOR badge, and the child is gone after quit', async () => {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-empty-config-'));
  try {
    const app = startBurrow([], { env: { XDG_CONFIG_HOME: config, BURROW_API_KEY: undefined } });
    const screen = await app.waitFor('Screens', 20_000);
    assert.match(screen.split('\n')[0]!, /EMULATOR\s+127\.0\.0\.1:\d+/);
    const kids = childrenOf(app.pid).filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('emulator'));
    assert.equal(kids.length, 1, 'one emulator child process');
    await app.press('q');
    assert.equal((await app.exited).exitCode, 0);
    await waitUntil(() => !alive(kids[0]!), 5000, `emulator child ${kids[0]} to exit`);
    assert.match(app.rawOutput(), RESTORED_AT_END);
  } finally {
    fs.rmSync(config, { recursive: true, force: true });
  }
});

test('SIGTERM also stops the emulator child', async () => {
  const app = startBurrow(['--demo'], {});
  await app.waitFor('EMULATOR', 20_000);
  const kids = childrenOf(app.pid);
  assert.ok(kids.length >= 1);
  app.kill('SIGTERM');
  assert.equal((await app.exited).exitCode, 143);
  for (const pid of kids) await waitUntil(() => !alive(pid), 5000, `child ${pid} to exit`);
});

test('not a terminal: exits 2 and names the non-interactive commands', () => {
  const r = spawnSync(process.execPath, [BURROW_BIN], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), BURROW_API_KEY: 'not-used-here' },
    encoding: 'utf8',
    timeout: 15_000,
  });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /interactive terminal/);
  for (const command of ['burrow get', 'burrow logs', 'burrow sql']) assert.ok(r.stderr.includes(command), `mentions ${command}`);
});

test('a 60x15 terminal shows "terminal too small"; resizing back shows the screen', async () => {
  const emu = await useEmulator();
  const app = startBurrow([], { env: envFor(emu), cols: 60, rows: 15 });
  await app.waitFor('terminal too small (need 80x24, have 60x15)');
  app.resize(80, 24);
  const screen = await app.waitFor(`1 of ${HOME_ROWS}`);
  assert.doesNotMatch(screen, /too small/);
  assert.match(app.lines()[0]!, /^burrow /, 'the header is on the first row');
  app.resize(70, 20);
  await app.waitFor('have 70x20');
  app.resize(100, 30);
  const wide = await app.waitFor(/home$/m);
  assert.doesNotMatch(wide, /too small/);
  assert.equal(app.lines().filter((l) => l.startsWith('burrow ')).length, 1, 'one header, no ghost frame');
  assert.equal(app.lines().filter((l) => l.includes('Screens')).length, 1);

  // ctrl-l repaints the whole screen: a full clear, then the same frame
  const frame = await app.waitFor('/ filter  enter open');
  const before = app.rawOutput().length;
  await app.press('ctrl-l');
  await waitUntil(() => app.rawOutput().slice(before).includes('\x1b[2J'), 3000, 'a full clear');
  // the same screen after the repaint (a clear without one leaves it blank)
  await app.waitFor(frame, 3000);
  await app.press('q');
  assert.equal((await app.exited).exitCode, 0);
});

for (const kind of ['render', 'async'] as const) {
  test(`a crash (${kind}) restores the terminal first, then shows the error, exit 70`, async () => {
    const emu = await useEmulator();
    const app = startBurrow([], { env: envFor(emu, { BURROW_TEST: '1', BURROW_CRASH: kind }) });
    const exit = await app.exited;
    assert.equal(exit.exitCode, 70);
    const raw = app.rawOutput();
    const restoredAt = raw.lastIndexOf('\x1b[?1049l');
    const errorAt = raw.indexOf('burrow: unexpected error');
    assert.ok(raw.includes('\x1b[?1049h'), 'it did enter the alternate screen');
    assert.ok(restoredAt > 0 && errorAt > restoredAt, 'the error is printed after leaving the alternate screen');
    assert.match(raw.slice(errorAt), new RegExp(`deliberate ${kind === 'render' ? 'render crash' : 'crash'}`));
    assert.ok(raw.slice(restoredAt).includes('\x1b[?25h'), 'the cursor is shown');
    await app.flush();
    assert.match(app.screenText(), /burrow: unexpected error/, 'the error is on the normal screen');
  });
}
