import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { BURROW_BIN } from '../helpers/pty';

/*
 * `burrow emulator` (the built binary, stdin not a terminal, as when started with `&`) and its
 * database engine child must be gone within a few seconds of a signal, whatever they are doing.
 */

interface Ready {
  baseUrl: string;
  loggingUrl: string;
  databaseUrl: string;
  accessKey: string;
  databaseToken: string;
  pullZoneIds: number[];
}

/** A zombie (state Z) has exited: only its parent, maybe pid 1 by now, has not reaped it yet. */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter((s) => /^\d+$/.test(s))
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU time (user + system, in clock ticks) the process has spent so far; 0 once it is gone. */
function cpuTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Waits until `pid` has spent 0.2 s of CPU more than now: it is busy (running the endless statement). */
async function busy(pid: number, what: string): Promise<void> {
  const from = cpuTicks(pid);
  await until(`${what} (0.2 s of CPU)`, () => cpuTicks(pid) >= from + 20);
}

/** Waits until `pid` has exited: `timeoutMs` on an idle machine, longer on a busy one (until). */
async function exited(pid: number, timeoutMs: number, what: string): Promise<void> {
  await until(`${what} (pid ${pid}) to exit`, () => !running(pid), timeoutMs, 25);
}

function readyLine(child: ChildProcess): Promise<Ready> {
  return new Promise<Ready>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before it was ready: ${err}`)));
  });
}

async function startEmulatorProcess(args: string[] = []): Promise<{ child: ChildProcess; info: Ready; kill(): void }> {
  const child = spawn(process.execPath, [BURROW_BIN, 'emulator', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const info = await readyLine(child);
  return {
    child,
    info,
    kill() {
      for (const pid of [...childrenOf(child.pid!), child.pid!]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    },
  };
}

/** One request on a keep-alive agent: the socket stays open, idle, after the answer. */
function request(
  agent: http.Agent,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

function sql(agent: http.Agent, info: Ready, statement: string, wantRows = true) {
  return request(agent, `${info.databaseUrl}/v2/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.databaseToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [{ type: 'execute', stmt: { sql: statement, want_rows: wantRows } }] }),
  });
}

// endless, and its rows are read on the engine's main thread (want_rows false: nothing piles up)
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c';

async function engineOf(agent: http.Agent, emu: { child: ChildProcess; info: Ready }): Promise<number> {
  const r = await sql(agent, emu.info, 'SELECT 1');
  assert.equal(r.status, 200, r.body);
  const kids = childrenOf(emu.child.pid!);
  assert.equal(kids.length, 1, 'one engine child process');
  assert.match(fs.readFileSync(`/proc/${kids[0]}/cmdline`, 'utf8'), /engine-host/);
  return kids[0]!;
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal}: the emulator and its engine exit with keep-alive connections open and a long statement running`, async () => {
    const emu = await startEmulatorProcess(['--statement-timeout', '1h']);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const engine = await engineOf(agent, emu);
      const zones = await request(agent, `${emu.info.baseUrl}/pullzone`, { headers: { AccessKey: emu.info.accessKey } });
      assert.equal(zones.status, 200);
      const logs = await request(agent, `${emu.info.loggingUrl}/v2/pullzones/${emu.info.pullZoneIds[0]}/logs`, { headers: { AccessKey: emu.info.accessKey } });
      assert.equal(logs.status, 200, logs.body.slice(0, 200));
      const long = sql(agent, emu.info, ENDLESS, false).catch((e: Error) => e);
      await busy(engine, 'the engine running the statement');
      emu.child.kill(signal);
      await exited(emu.child.pid!, 5000, 'the emulator');
      assert.equal(emu.child.exitCode ?? (await new Promise((r) => emu.child.once('exit', r))), 0);
      await exited(engine, 3000, 'the engine child');
      assert.ok((await long) instanceof Error, 'the long statement did not get an answer');
    } finally {
      agent.destroy();
      emu.kill();
    }
  });
}

test('SIGKILL of the emulator: its engine child exits even while a statement keeps its main thread busy', async () => {
  const emu = await startEmulatorProcess(['--statement-timeout', '1h']);
  const agent = new http.Agent({ keepAlive: true });
  let engine = 0;
  try {
    engine = await engineOf(agent, emu);
    void sql(agent, emu.info, ENDLESS, false).catch(() => {});
    await busy(engine, 'the engine running the statement');
    emu.child.kill('SIGKILL');
    await exited(engine, 4000, 'the orphaned engine child');
  } finally {
    agent.destroy();
    emu.kill();
    if (engine && running(engine)) process.kill(engine, 'SIGKILL');
  }
});

test('npm start -- emulator: SIGTERM to npm reaches the emulator (no orphan left behind a shell)', async () => {
  const root = path.resolve(path.dirname(BURROW_BIN), '..');
  const npm = spawn('npm', ['start', '--silent', '--', 'emulator'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let emulatorPid = 0;
  try {
    await readyLine(npm);
    const find = (pid: number): number => {
      for (const kid of childrenOf(pid)) {
        const cmd = fs.readFileSync(`/proc/${kid}/cmdline`, 'utf8');
        if (cmd.includes('burrow.js\0emulator')) return kid;
        const deeper = find(kid);
        if (deeper) return deeper;
      }
      return 0;
    };
    emulatorPid = find(npm.pid!);
    assert.ok(emulatorPid > 0, 'found the emulator under npm');
    npm.kill('SIGTERM');
    await exited(emulatorPid, 5000, 'the emulator started by npm');
  } finally {
    if (emulatorPid && running(emulatorPid)) process.kill(emulatorPid, 'SIGKILL');
    npm.kill('SIGKILL');
  }
});
