import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';
import { runCommand, startBurrow } from '../helpers/pty';
import { alive, cpuSeconds } from '../helpers/processes';
import { until } from '../helpers/wait';

// Issue 28 item 2: a long SQL-over-logs query made the process deaf to signals (Node's exit
// waits for the DuckDB statement on libuv's thread pool). Every way out interrupts it and exits
// 130/143/129 (npm run build first).

const NEVER_ENDS = 'SELECT sum(hash(range)) FROM range(10000000000000)';
const RESTORED_AT_END = /\x1b\[\?1049l(\x1b\[\?25h)+$/;
const STATUS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

const emu = await useEmulator({ seed: 5, logRate: 5, ingestDelayMs: 300 });
const zone = emu.info.pullZoneIds[0]!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-sql-signals-'));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), ...envFor(emu) };

/** The query is running: the process has burnt this much CPU beyond what starting took. */
async function queryRunning(pid: number, from: number): Promise<void> {
  await until('the query to keep a core busy', () => (cpuSeconds(pid) ?? 0) > from + 1, 30_000, 50);
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  test(`logs --sql: ${signal} while the query runs stops it and exits ${STATUS[signal]}`, async () => {
    const run = spawnBurrow(['logs', String(zone), '--since', '5m', '--sql', NEVER_ENDS], { env, timeoutMs: 60_000 });
    const pid = run.child.pid!;
    // the fetch and the load are quick; then the query burns a core for good
    await queryRunning(pid, 0.8);
    run.child.kill(signal);
    try {
      await until('the process to exit', () => !alive(pid), 20_000, 50);
    } finally {
      if (alive(pid)) run.child.kill('SIGKILL');
    }
    const result = await run.done;
    // 128 + the signal's number, as an exit status or (the last resort) as death by the signal
    assert.ok(result.code === STATUS[signal] || result.signal === signal, `exit ${result.code} ${result.signal}: ${result.stderr}`);
    assert.equal(alive(pid), false);
  });
}

for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
  test(`the console's logs shell: ${signal} while a query runs restores the terminal and exits ${STATUS[signal]}`, async () => {
    const app = startBurrow([], { env: envFor(emu), cols: 120, rows: 32 });
    await app.waitFor('Screens');
    await runCommand(app, `logs ${zone}`);
    await app.waitFor(/● following .* [1-9][\d,]* buffered/, 20_000);
    await app.press('Q');
    await app.waitFor(/^logs>/m);
    const pid = app.pid;
    const before = cpuSeconds(pid) ?? 0;
    await app.type(`${NEVER_ENDS};\r`);
    await queryRunning(pid, before);
    app.kill(signal);
    try {
      // before the fix the process stayed for good, deaf to every later signal
      await until('the process to exit', () => !alive(pid), 20_000, 50);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    const exit = await app.exited;
    assert.ok(exit.exitCode === STATUS[signal] || exit.signal === { SIGTERM: 15, SIGHUP: 1 }[signal], `exit ${exit.exitCode} ${exit.signal}`);
    assert.match(app.rawOutput(), RESTORED_AT_END);
    assert.equal(alive(pid), false, 'no process is left running the query');
  });
}
