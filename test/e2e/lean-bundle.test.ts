import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { runBurrow } from '../helpers/cli';
import { envFor } from '../helpers/emulator';
import { startEmulator } from '../../src/emulator/server';
import { findCommand } from '../../src/cli';

// `burrow get` runs from a lean bundle (dist/cli.get.cjs: the CLI with that command alone), and
// its code cache lists the Node built-ins to load before the launcher sets V8 flags.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const launcher = createRequire(import.meta.url)('../../bin/run-bundle.cjs') as {
  cacheKind(argv: string[]): string;
  LEAN_COMMANDS: string[];
  leanBundleName(command: string): string;
};

function cacheHome(t: { after: (fn: () => void) => void }): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-lean-'));
  t.after(() => fs.rmSync(home, { recursive: true, force: true }));
  return home;
}

async function run(env: Record<string, string>, home: string, args: string[]) {
  const result = await runBurrow(args, {
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), BURROW_CODE_CACHE_DEBUG: '1', ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  return {
    stdout: result.stdout,
    bundle: /^bundle: (.+)$/m.exec(result.stderr)?.[1],
    preloaded: /^preloaded: (.*)$/m.exec(result.stderr)?.[1],
    states: [...result.stderr.matchAll(/^code cache: (.+)$/gm)].map((m) => m[1]),
  };
}

function cacheFile(home: string, kind: string): string {
  const dir = path.join(home, 'cache', 'burrow', 'code-cache');
  const name = fs.readdirSync(dir).find((f) => f.endsWith(`.${kind}.v8`));
  assert.ok(name, `a ${kind} cache file in ${fs.readdirSync(dir).join(', ')}`);
  return path.join(dir, name);
}

/** The cache file's third line: payload length, checksum, built-ins. */
function builtinsLine(file: string): { lines: string[]; fields: string[] } {
  const text = fs.readFileSync(file, 'latin1');
  const lines = text.split('\n');
  return { lines, fields: lines[2]!.split(' ') };
}

test('get runs from its lean bundle, prints what the full bundle prints, and its cache lists the built-ins it loaded', async (t) => {
  const home = cacheHome(t);
  const emu = await startEmulator({ port: 0, host: '127.0.0.1' });
  t.after(() => emu.close());
  const env = envFor(emu);
  const args = ['get', 'limits', '-o', 'json'];
  const first = await run(env, home, args);
  assert.equal(first.bundle, 'cli.get.cjs');
  assert.deepEqual(first.states, ['none', 'written']);
  assert.equal(first.preloaded, '', 'no cache, no list');
  // the full bundle, run directly (asynchronously: the emulator answers from this process)
  const full = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist', 'cli.cjs'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
  });
  assert.equal(first.stdout, full.stdout);
  assert.ok(JSON.parse(first.stdout).maxNumberOfApplications > 0);

  const file = cacheFile(home, 'get');
  const builtins = builtinsLine(file).fields[2]!.split(',');
  assert.ok(builtins.includes('net'), `the request's built-ins are listed: ${builtins.join(',')}`);
  assert.ok(!builtins.includes('http2') && !builtins.includes('tls'), `undici no longer loads http2 (and tls) for an http URL: ${builtins.join(',')}`);
  const second = await run(env, home, args);
  assert.deepEqual(second.states, ['used']);
  assert.equal(second.preloaded, builtins.join(','));
  assert.equal(second.stdout, first.stdout);

  // the list is a hint: names that are not built-ins (or never preloaded) are skipped
  const { lines, fields } = builtinsLine(file);
  fields[2] = ['no-such-module', '../../../etc/passwd', 'punycode', 'NET', 'net'].join(',');
  lines[2] = fields.join(' ');
  fs.writeFileSync(file, Buffer.from(lines.join('\n'), 'latin1'), { mode: 0o600 });
  const hinted = await run(env, home, args);
  assert.deepEqual(hinted.states, ['used']);
  assert.equal(hinted.preloaded, 'net');
  assert.equal(hinted.stdout, first.stdout);
});

test('get --demo works from the lean bundle (it holds the in-process emulator)', async (t) => {
  const home = cacheHome(t);
  const result = await run({}, home, ['get', 'limits', '--demo', '-o', 'json']);
  assert.equal(result.bundle, 'cli.get.cjs');
  assert.ok(JSON.parse(result.stdout).maxNumberOfApplications > 0);
});

test('a lean bundle asked for another command prints nothing and hands over to the full bundle', () => {
  for (const command of launcher.LEAN_COMMANDS) {
    const bundle = path.join(ROOT, 'dist', launcher.leanBundleName(command));
    const others = ['get', 'logs', 'sql', 'db'].filter((c) => c !== command).map((c) => [c, '--help']);
    for (const argv of [...others, [], ['--read-only']]) {
      const script = `require(${JSON.stringify(bundle)}).main(${JSON.stringify(argv)}).then((r) => process.stderr.write('result ' + r + '\\n'))`;
      const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir() } });
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout, '', `${argv.join(' ')}: nothing printed`);
      assert.equal(child.stderr, 'result other-bundle\n', `${argv.join(' ')}`);
    }
  }
});

test('the launcher picks the bundle by the command the CLI will run', () => {
  const lines = [
    ['get', 'limits'],
    ['-o', 'json', 'get', 'limits'],
    ['--profile', 'get', 'logs', '1'],
    ['--base-url', 'http://x', '--read-only', 'get', 'apps'],
    ['--output', 'get', 'sql', '-e', 'select 1'],
    ['--api-key', 'k', '--logging-url', 'u', 'shield', 'check-spec', 'f'],
    ['--demo', '--utc', 'db'],
    ['--no-color', '--', 'get'],
    ['--debug'],
  ];
  for (const argv of lines) {
    const { command, index } = findCommand(argv);
    assert.equal(launcher.cacheKind(argv), index < 0 ? 'console' : command.name, argv.join(' '));
  }
});

test('each lean bundle holds its command and neither the console (React, Ink, yoga) nor the other commands, and undici never loads http2', () => {
  assert.deepEqual(launcher.LEAN_COMMANDS, ['get', 'logs']);
  const commandFile = /^src\/commands\/(tui|get|logs|sql|db|shield|containers|emulator|completion)\.ts$/;
  for (const command of launcher.LEAN_COMMANDS) {
    const text = fs.readFileSync(path.join(ROOT, 'dist', launcher.leanBundleName(command)), 'latin1');
    const modules = [...text.matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)].map((m) => m[1]!);
    assert.ok(modules.includes(`src/commands/${command}.ts`) && modules.includes('src/cli.ts'), `the CLI and ${command} are in`);
    const unwanted = modules.filter(
      (m) =>
        /^node_modules\/(react|react-reconciler|ink|yoga-layout)\/|^src\/(app|screens|components|state)\//.test(m) ||
        (commandFile.test(m) && m !== `src/commands/${command}.ts`),
    );
    assert.deepEqual(unwanted, [], command);
    assert.doesNotMatch(text, /require\("node:http2"\)/, command);
  }
  assert.doesNotMatch(fs.readFileSync(path.join(ROOT, 'dist', 'cli.cjs'), 'latin1'), /require\("node:http2"\)/, 'cli.cjs');
});

test('logs runs from its lean bundle and prints what the full bundle prints', async (t) => {
  const home = cacheHome(t);
  const emu = await startEmulator({ port: 0, host: '127.0.0.1' });
  t.after(() => emu.close());
  const env = envFor(emu);
  const zone = String(emu.info.pullZoneIds[0]);
  // a closed window an hour back: both runs get the same records
  const from = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
  const args = ['logs', zone, '--from', new Date(from).toISOString(), '--to', new Date(from + 600_000).toISOString(), '--limit', '50', '-o', 'ndjson'];
  const lean = await run(env, home, args);
  assert.equal(lean.bundle, 'cli.logs.cjs');
  const full = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist', 'cli.cjs'), ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
  });
  assert.ok(lean.stdout.split('\n').length > 10, `records printed: ${lean.stdout.slice(0, 200)}`);
  assert.equal(lean.stdout, full.stdout);
});

test("a run after the cache was made with HTTPS works the same (Node's _tls_wrap preloaded before tls left tls broken)", async (t) => {
  const home = cacheHome(t);
  // nothing listens on port 1: the TLS socket is made, then the connection is refused
  const env = { BURROW_API_KEY: 'k', BURROW_BASE_URL: 'https://127.0.0.1:1' };
  const attempt = async () => {
    const result = await runBurrow(['get', 'limits', '-o', 'json'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), BURROW_CODE_CACHE_DEBUG: '1', ...env },
    });
    return { code: result.code, message: /^burrow: .*$/m.exec(result.stderr)?.[0], preloaded: /^preloaded: (.*)$/m.exec(result.stderr)?.[1] ?? '' };
  };
  const first = await attempt();
  assert.equal(first.code, 1);
  assert.match(first.message ?? '', /connection refused/);
  const second = await attempt();
  assert.ok(second.preloaded.split(',').includes('tls'), `tls is preloaded: ${second.preloaded}`);
  assert.ok(!second.preloaded.split(',').some((id) => id.startsWith('_')), `no part of a module is preloaded: ${second.preloaded}`);
  assert.deepEqual(second, { ...first, preloaded: second.preloaded });
});
