import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow, spawnBurrow } from '../helpers/cli';
import { BURROW_BIN } from '../helpers/pty';
import { until } from '../helpers/wait';

// The README's recipe: `burrow emulator --write-env FILE` in the background, then commands run
// with `. FILE` all reach that one emulator, so a change made by one is seen by the next
// (each `--demo` command starts an emulator of its own and forgets).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-recipe-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const envFile = path.join(dir, 'burrow-emulator.env');
const base = { PATH: process.env.PATH ?? '', HOME: dir };

test('burrow emulator --write-env: shield guardian --set ... --yes, then get api-guardian shows the change', async () => {
  const emulator = spawnBurrow(['emulator', '--write-env', envFile], { env: base, timeoutMs: 120_000 });
  after(() => emulator.child.kill('SIGTERM'));
  await until('the env file', () => fs.existsSync(envFile) && /SERVICE_DATABASE_AUTH_TOKEN/.test(fs.readFileSync(envFile, 'utf8')), 30_000);
  assert.equal(fs.statSync(envFile).mode & 0o777, 0o600, 'it holds the access key: private');

  /** Runs a shell line after `. FILE`, as the README says. */
  const sh = (line: string) => {
    const r = spawnSync('sh', ['-c', `. '${envFile}' && ${line}`], { env: { ...base, XDG_CONFIG_HOME: dir }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, `${line}: ${r.stderr}`);
    return r.stdout;
  };
  const burrow = `'${process.execPath}' '${BURROW_BIN}'`;
  const zones = JSON.parse(sh(`${burrow} get shield-zones -o json`)) as { shieldZoneId: number; planType: number }[];
  const zone = zones.find((z) => z.planType === 2)!.shieldZoneId;
  const before = (JSON.parse(sh(`${burrow} get api-guardian ${zone} -o json`)) as { configuration: { isEnabled: boolean } }).configuration.isEnabled;

  sh(`${burrow} shield guardian ${zone} --set isEnabled=${!before} --yes`);
  const after1 = (JSON.parse(sh(`${burrow} get api-guardian ${zone} -o json`)) as { configuration: { isEnabled: boolean } }).configuration.isEnabled;
  assert.equal(after1, !before, 'the next command sees the change');

  // without the file (plain --demo) each command has an emulator of its own: the change is not there
  const demo = await runBurrow(['--demo', 'get', 'api-guardian', String(zone), '-o', 'json'], { env: base });
  assert.equal(demo.code, 0, demo.stderr);
  assert.equal((JSON.parse(demo.stdout) as { configuration: { isEnabled: boolean } }).configuration.isEnabled, before);
});
