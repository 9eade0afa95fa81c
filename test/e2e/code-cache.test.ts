import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { runBurrow } from '../helpers/cli';
import { startBurrow } from '../helpers/pty';
import { envFor } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { startEmulator } from '../../src/emulator/server';
import { HEAP_FLAGS } from '../../src/app/heap-tuning';

const launcher = createRequire(import.meta.url)('../../bin/run-bundle.cjs') as { HEAP_FLAGS: string[] };

// The launcher's V8 code cache (bin/run-bundle.cjs): never needed for correctness, never read
// when it is not the user's own, rewritten when it is missing, corrupt or stale.

const ARGS = ['get', '--help'];

function cacheHome(t: { after: (fn: () => void) => void }): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-code-cache-'));
  t.after(() => fs.rmSync(home, { recursive: true, force: true }));
  return home;
}

async function run(home: string, args: readonly string[] = ARGS) {
  const result = await runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), BURROW_CODE_CACHE_DEBUG: '1' },
  });
  assert.equal(result.code, 0, result.stderr);
  const states = [...result.stderr.matchAll(/^code cache: (.+)$/gm)].map((m) => m[1]);
  return { stdout: result.stdout, states };
}

function cacheFiles(home: string): string[] {
  const dir = path.join(home, 'cache', 'burrow', 'code-cache');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

test('the first run writes a private cache, the next one uses it, and the output is the same', async (t) => {
  const home = cacheHome(t);
  const first = await run(home);
  assert.deepEqual(first.states, ['none', 'written']);
  assert.match(first.stdout, /burrow get/);
  const [file] = cacheFiles(home);
  assert.ok(file && file.endsWith('.help.v8'), `one cache file for help: ${cacheFiles(home).join(', ')}`);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
  const second = await run(home);
  assert.deepEqual(second.states, ['used']);
  assert.equal(second.stdout, first.stdout);
});

test('a corrupt cache file means a normal start, and it is written again', async (t) => {
  const home = cacheHome(t);
  const clean = await run(home);
  const [file] = cacheFiles(home);
  const bytes = fs.readFileSync(file!);
  // flip bytes in the payload, keeping the length: only the checksum can tell
  for (let i = bytes.length - 200; i < bytes.length - 100; i++) bytes[i] = bytes[i]! ^ 0xff;
  fs.writeFileSync(file!, bytes, { mode: 0o600 });
  const corrupt = await run(home);
  assert.deepEqual(corrupt.states, ['unusable', 'written']);
  assert.equal(corrupt.stdout, clean.stdout);
  assert.deepEqual((await run(home)).states, ['used']);
  // cut short
  fs.truncateSync(file!, 100);
  const truncated = await run(home);
  assert.deepEqual(truncated.states, ['unusable', 'written']);
  assert.equal(truncated.stdout, clean.stdout);
  // garbage in place of the header
  fs.writeFileSync(file!, 'not a cache at all');
  assert.deepEqual((await run(home)).states, ['unusable', 'written']);
});

test('a stale cache (another bundle, another build) is not used, and old builds are cleaned up', async (t) => {
  const home = cacheHome(t);
  await run(home);
  const [file] = cacheFiles(home);
  const text = fs.readFileSync(file!, 'latin1');
  // the header names the bundle's size and time: a bundle rebuilt in place does not match
  const lines = text.split('\n');
  const fields = lines[1]!.split(' ');
  fields[3] = String(Number(fields[3]) + 1);
  lines[1] = fields.join(' ');
  fs.writeFileSync(file!, Buffer.from(lines.join('\n'), 'latin1'), { mode: 0o600 });
  assert.deepEqual((await run(home)).states, ['unusable', 'written']);
  // a file of an earlier build of the same command is removed when this build writes its own
  const older = path.join(path.dirname(file!), `00000000000000000000000000000000.help.v8`);
  fs.copyFileSync(file!, older);
  fs.rmSync(file!);
  assert.deepEqual((await run(home)).states, ['none', 'written']);
  assert.deepEqual(
    cacheFiles(home).map((f) => path.basename(f)),
    [path.basename(file!)],
  );
});

test('a cache file that others could write is never read', async (t) => {
  const home = cacheHome(t);
  await run(home);
  const [file] = cacheFiles(home);
  fs.chmodSync(file!, 0o666);
  assert.deepEqual((await run(home)).states, ['unusable', 'written']);
  assert.equal(fs.statSync(file!).mode & 0o777, 0o600, 'the rewritten file is private again');
  if (process.getuid?.() === 0) {
    // running as root (CI): a file owned by another user is not read either
    fs.chownSync(file!, 65534, 65534);
    assert.deepEqual((await run(home)).states, ['unusable', 'written']);
    assert.equal(fs.statSync(file!).uid, 0);
  }
});

test('a FIFO planted as the cache file cannot make the start wait: it is not read, and replaced', { timeout: 60_000 }, async (t) => {
  const home = cacheHome(t);
  await run(home);
  const [file] = cacheFiles(home);
  fs.rmSync(file!);
  // a FIFO with no writer: an open for reading without O_NONBLOCK waits forever
  execFileSync('mkfifo', ['-m', '600', file!]);
  assert.deepEqual((await run(home)).states, ['unusable', 'written']);
  assert.ok(fs.lstatSync(file!).isFile(), 'the FIFO is replaced by a regular cache file');
});

test('a cache directory that cannot be written: burrow still starts and says nothing', async (t) => {
  const home = cacheHome(t);
  // XDG_CACHE_HOME/burrow is a file, so the cache directory can never be made (root ignores
  // permission bits, so a read-only mode would not stop this test's writes)
  fs.mkdirSync(path.join(home, 'cache'));
  fs.writeFileSync(path.join(home, 'cache', 'burrow'), '');
  const result = await runBurrow(ARGS, { env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CACHE_HOME: path.join(home, 'cache') } });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /burrow get/);
  assert.equal(result.stderr, '');
  const debug = await run(home);
  assert.deepEqual(debug.states, ['none', 'not written']);
});

test("--version and --help alone are answered without the bundle, with the bundle's own text", async (t) => {
  const home = cacheHome(t);
  for (const [fast, slow] of [
    [['--version'], ['--no-color', '--version']],
    [['-v'], ['--no-color', '-v']],
    [['--help'], ['--no-color', '--help']],
    [['-h'], ['--no-color', '-h']],
  ]) {
    const quick = await run(home, fast);
    assert.deepEqual(quick.states, [], `${fast.join(' ')} does not load the bundle`);
    const full = await run(home, slow);
    assert.ok(full.states.length > 0, `${slow.join(' ')} loads the bundle`);
    assert.equal(quick.stdout, full.stdout, `${fast.join(' ')} prints what the program prints`);
  }
});

test("the console's cache is used by its next start (the heap flags it sets are set before compiling)", async (t) => {
  const home = cacheHome(t);
  const emu = await startEmulator({ port: 0, host: '127.0.0.1' });
  t.after(() => emu.close());
  const env = { ...envFor(emu), XDG_CACHE_HOME: path.join(home, 'cache'), BURROW_CODE_CACHE_DEBUG: '1' };
  const cacheFile = () => cacheFiles(home).find((f) => f.endsWith('.console.v8'));
  const first = startBurrow([], { env });
  await first.waitFor('q quit');
  // written once start-up is over, a second after the first frame
  await until('the console wrote its code cache', () => cacheFile() !== undefined);
  await first.press('q');
  await first.exited;
  assert.match(first.rawOutput(), /code cache: none/);
  const second = startBurrow([], { env });
  await second.waitFor('q quit');
  await second.press('q');
  await second.exited;
  assert.match(second.rawOutput(), /code cache: used/, 'the cache made by the first start was accepted');
});

test('the launcher sets the heap flags the console sets, before compiling', () => {
  assert.deepEqual(launcher.HEAP_FLAGS, HEAP_FLAGS);
});
