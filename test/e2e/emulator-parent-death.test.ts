import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BURROW_BIN, type PtySession, runCommand, startBurrow } from '../helpers/pty';
import { until } from '../helpers/wait';
import { childrenOf } from '../helpers/processes';

// A burrow killed with SIGKILL (or by the OOM killer) cannot stop its children: they must notice
// on their own and exit, so no emulator and no database engine is left running for ever.

/** Gone: no such process (ESRCH), or only a zombie left for its new parent to reap. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');

/**
 * burrow without credentials (so it starts its own emulator child), run by a shell that stays in
 * the terminal afterwards: when burrow dies the terminal does not hang up, so no SIGHUP reaches
 * the children (as when the OOM killer picks burrow in a session that goes on).
 */
async function withoutCredentials(args: string[]): Promise<{ app: PtySession; burrow: number }> {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-parent-death-'));
  const app = startBurrow(args, {
    env: { XDG_CONFIG_HOME: config, BURROW_API_KEY: undefined },
    command: { file: '/bin/sh', args: ['-c', `"${process.execPath}" "${BURROW_BIN}" "$@"; read line`, 'sh'] },
  });
  void app.exited.finally(() => fs.rmSync(config, { recursive: true, force: true }));
  const burrow = await until('burrow under the shell', () => childrenOf(app.pid).find((c) => cmdline(c).includes('burrow.js')), 20_000);
  return { app, burrow };
}

/** The emulator child of `pid` and its database engine (which starts with the first SQL). */
async function chainOf(pid: number): Promise<{ emulator: number; engine: number }> {
  const emulator = await until('the emulator child', () => childrenOf(pid).find((c) => cmdline(c).includes('emulator')), 20_000);
  const engine = await until('the database engine process', () => childrenOf(emulator).find((c) => cmdline(c).includes('engine-host')), 20_000);
  return { emulator, engine };
}

test('the console killed with SIGKILL leaves neither its emulator nor the engine running', async () => {
  const { app, burrow } = await withoutCredentials([]);
  await app.waitFor('Screens', 20_000);
  await runCommand(app, 'sql');
  await app.waitFor('burrow-demo>', 20_000);
  await app.type('SELECT 40 + 2 AS answer;\r');
  await app.waitFor('42', 20_000);
  const { emulator, engine } = await chainOf(burrow);
  process.kill(burrow, 'SIGKILL');
  await until(`emulator ${emulator} and engine ${engine} to exit`, () => gone(emulator) && gone(engine), 15_000);
});

test('burrow sql (its own emulator) killed with SIGKILL leaves nothing running either', async () => {
  const { app, burrow } = await withoutCredentials(['sql']);
  await app.waitFor('burrow-demo>', 20_000);
  await app.type('SELECT 6 * 7 AS answer;\r');
  await app.waitFor('42', 20_000);
  const { emulator, engine } = await chainOf(burrow);
  process.kill(burrow, 'SIGKILL');
  await until(`emulator ${emulator} and engine ${engine} to exit`, () => gone(emulator) && gone(engine), 15_000);
});

test('the emulator itself killed with SIGKILL takes its engine with it', async () => {
  const { app, burrow } = await withoutCredentials(['sql']);
  await app.waitFor('burrow-demo>', 20_000);
  await app.type('SELECT 1 AS one;\r');
  await app.waitFor(/\(1 row/, 20_000);
  const { emulator, engine } = await chainOf(burrow);
  process.kill(emulator, 'SIGKILL');
  await until(`engine ${engine} to exit`, () => gone(engine), 15_000);
  assert.ok(gone(emulator));
  assert.ok(!gone(burrow), 'burrow itself is still running (it reports the lost emulator on its own)');
});
