import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';

// Habits from other tools: a typo gets a guess, the console's screen names work for `get`, and a
// command's help is about that command.

const emu = await useEmulator({ logRate: 1 });
const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-habits-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, XDG_STATE_HOME: home, ...envFor(emu) };
/** The ids of a JSON list (the emulator's traffic moves other fields between two reads). */
const ids = (json: string, key = 'Id'): unknown[] => (JSON.parse(json) as Record<string, unknown>[]).map((r) => r[key]);
const burrow = (...args: string[]) => runBurrow(args, { env, timeoutMs: 20_000 });

test('a typo of a command is answered with the command it most likely meant', async () => {
  for (const [typed, meant] of [
    ['lgos', 'logs'],
    ['gte', 'get'],
    ['shiled', 'shield'],
    ['emualtor', 'emulator'],
  ] as const) {
    const r = await burrow(typed, '1058');
    assert.equal(r.code, 2, typed);
    assert.match(r.stderr, new RegExp(`unknown command "${typed}": did you mean ${meant}\\?`), typed);
  }
  const far = await burrow('frobnicate');
  assert.doesNotMatch(far.stderr, /did you mean/);
});

test('a typo of a get resource is answered with the resource it most likely meant', async () => {
  const r = await burrow('get', 'limts');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown resource "limts" \(did you mean limits\?\)/);
  const alias = await burrow('get', 'vidoes');
  assert.match(alias.stderr, /did you mean video-libraries\?/);
});

test('get takes the names the console gives its screens (:videos, :vl, :zones, :lb)', async () => {
  const canonical = await burrow('get', 'video-libraries', '-o', 'json');
  assert.equal(canonical.code, 0, canonical.stderr);
  for (const name of ['videos', 'vl', 'libraries']) {
    const r = await burrow('get', name, '-o', 'json');
    assert.equal(r.code, 0, `${name}: ${r.stderr}`);
    assert.deepEqual(ids(r.stdout), ids(canonical.stdout), name);
  }
  const zones = await burrow('get', 'zones', '-o', 'json');
  assert.equal(zones.code, 0, zones.stderr);
  assert.deepEqual(ids(zones.stdout, 'shieldZoneId'), ids((await burrow('get', 'shield-zones', '-o', 'json')).stdout, 'shieldZoneId'));
  const lb = await burrow('get', 'lb', '-o', 'json');
  assert.equal(lb.code, 0, lb.stderr);
  assert.ok(Array.isArray(JSON.parse(lb.stdout)));
});

test("a command's --help points to burrow --help in one line instead of repeating the global options", async () => {
  const global = await burrow('--help');
  assert.match(global.stdout, /Global options:\n {2}--profile NAME/);
  for (const command of ['get', 'logs', 'sql', 'shield', 'db', 'containers', 'emulator']) {
    const r = await burrow(command, '--help');
    assert.equal(r.code, 0, command);
    assert.doesNotMatch(r.stdout, /--base-url URL|--logging-url URL|--show-secrets {2}/, command);
    const pointers = r.stdout.split('\n').filter((l) => /burrow --help/.test(l) && /global options/i.test(l));
    assert.equal(pointers.length, 1, `${command}: ${r.stdout}`);
  }
});
