import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';

// The built-in emulator's database cannot read or write the files of whoever runs burrow.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-demo-safety-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const burrow = (args: string[]) =>
  runBurrow(args, { env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state') } });

test('burrow --demo sql cannot read a file: exit 1 and a message that says why', async () => {
  const r = await burrow(['--demo', 'sql', '-e', "SELECT length(readfile('/etc/passwd'))"]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /SQLITE_AUTH: not authorized: the function readfile\(\) is not available on the hosted database/);
});

test('burrow --demo sql cannot write a file either', async () => {
  const target = path.join(dir, 'planted');
  const r = await burrow(['--demo', 'sql', '-e', `SELECT writefile('${target}', 'x')`]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /writefile\(\) is not available/);
  assert.equal(fs.existsSync(target), false);
});
