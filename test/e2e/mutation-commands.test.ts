import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow, type CliRun } from '../helpers/cli';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { useLossyProxy } from '../helpers/lossy-proxy';
import { startBurrow } from '../helpers/pty';
import { WAF_EXECUTION_MODE } from '../../src/api/shield';

// The scriptable changes, against the emulator through a counting proxy: the diff, --dry-run sends
// nothing, --yes sends exactly once, read-only refuses, no terminal and no --yes exits 2.

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');
const emu = await useEmulator({ seed: 21, logRate: 0 });
const api = apiFor(emu);
const proxy = await useLossyProxy(emu.info.baseUrl);
const env = { ...envFor(emu), BURROW_BASE_URL: proxy.url, HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-mut-')) };
after(() => fs.rmSync(env.HOME, { recursive: true, force: true }));

async function burrow(...args: string[]): Promise<CliRun & { mutations: string[] }> {
  const from = proxy.seen.length;
  const run = await runBurrow(args, { env });
  return { ...run, mutations: proxy.mutationsSince(from).map((r) => `${r.method} ${r.path}`) };
}

const zones = await api.shield.listAllZones();
const paid = zones.filter((z) => z.planType !== 0);
const basic = zones.find((z) => z.planType === 0);

test('shield guardian: diff of only the given fields, --dry-run sends nothing, --yes sends one PATCH of them', async () => {
  const zone = paid[0]!.shieldZoneId;
  const before = (await api.shield.getApiGuardian(zone)).configuration;
  const mode = before.executionMode === 0 ? 'Block' : 'Log';
  const modeValue = before.executionMode === 0 ? 1 : 0;

  const dry = await burrow(
    'shield',
    'guardian',
    String(zone),
    '--set',
    `executionMode=${mode.toLowerCase()}`,
    '--set',
    `isEnabled=${before.isEnabled}`,
    '--dry-run',
  );
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(dry.mutations, [], 'a dry run sends nothing');
  assert.match(dry.stdout, new RegExp(`Update the API Guardian of shield zone ${zone} \\(PATCH\\): executionMode ${mode} \\(dry run: nothing is sent\\)`));
  assert.match(dry.stdout, new RegExp(`~ executionMode: ${before.executionMode} → ${modeValue}`));
  assert.doesNotMatch(dry.stdout, /isEnabled/, 'a setting already at its value is not part of the change');

  const sent = await burrow('shield', 'guardian', String(zone), '--set', `executionMode=${modeValue}`, '--yes', '-o', 'json');
  assert.equal(sent.code, 0, sent.stderr);
  assert.deepEqual(sent.mutations, [`PATCH /shield/shield-zone/${zone}/api-guardian`], 'sent exactly once');
  const body = proxy.seen.findLast((r) => r.method === 'PATCH')!.body;
  assert.deepEqual(JSON.parse(body), { executionMode: modeValue }, 'only the given field');
  const answer = JSON.parse(sent.stdout) as { executionMode: number };
  assert.equal(answer.executionMode, modeValue, "the server's answer with -o json");
  assert.match(sent.stderr, /~ executionMode/, 'the diff goes to stderr with -o json');
  assert.equal((await api.shield.getApiGuardian(zone)).configuration.executionMode, modeValue);
  assert.equal(WAF_EXECUTION_MODE[modeValue], mode);

  const again = await burrow('shield', 'guardian', String(zone), '--set', `executionMode=${mode}`, '--yes');
  assert.equal(again.code, 0);
  assert.deepEqual(again.mutations, []);
  assert.match(again.stdout, /nothing to send, no field changed/);
});

test('shield guardian: bad names and values are refused before any request, with what is allowed', async () => {
  const zone = String(paid[0]!.shieldZoneId);
  const from = proxy.seen.length;
  let r = await burrow('shield', 'guardian', zone, '--set', 'executionMode=Panic', '--yes');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--set executionMode=Panic: use one of Log \(0\), Block \(1\)/);
  r = await burrow('shield', 'guardian', zone, '--set', 'colour=red', '--yes');
  assert.match(r.stderr, /unknown setting; the settings are isEnabled, executionMode, bodyLimitAction, unmatchedPathAction/);
  r = await burrow('shield', 'guardian', zone, '--yes');
  assert.match(r.stderr, /what to change\? --set NAME=VALUE/);
  assert.equal(proxy.seen.length, from, 'no request at all');
  if (basic) {
    r = await burrow('shield', 'guardian', String(basic.shieldZoneId), '--set', 'isEnabled=on', '--yes');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /is on the Basic plan, which has no API Guardian/);
  }
});

test('without a terminal and without --yes: exit 2 and nothing is sent; read-only refuses, naming why', async () => {
  const zone = String(paid[0]!.shieldZoneId);
  const from = proxy.seen.length;
  let r = await burrow('shield', 'guardian', zone, '--set', 'isEnabled=off');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /stdin is not a terminal.*add --yes/);
  r = await burrow('shield', 'guardian', zone, '--set', 'isEnabled=off', '--yes', '--read-only');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /read-only \(--read-only\): changing the API Guardian of shield zone \d+ is refused; nothing was sent/);
  r = await burrow('containers', 'regions', 'someapp', '--allowed', 'DE', '--yes', '--read-only');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /read-only \(--read-only\)/);
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-mut-cfg-'));
  after(() => fs.rmSync(xdg, { recursive: true, force: true }));
  fs.mkdirSync(path.join(xdg, 'burrow'));
  fs.writeFileSync(path.join(xdg, 'burrow', 'config.yaml'), `profiles:\n  ops:\n    apiKey: ${emu.info.accessKey}\n    readOnly: true\n`, { mode: 0o600 });
  const viaProfile = await runBurrow(['--profile', 'ops', 'shield', 'guardian', zone, '--set', 'isEnabled=off', '--yes'], {
    env: { ...env, XDG_CONFIG_HOME: xdg },
  });
  assert.equal(viaProfile.code, 2);
  assert.match(
    viaProfile.stderr,
    /read-only \(profile ops, readOnly: true\): changing the API Guardian/,
    'the profile is named, not a flag that was not given',
  );
  assert.equal(proxy.seen.length, from, 'no request at all');
});

test('shield spec upload: the plan-limit pre-flight stops an oversized file unless --force; a good file is POSTed once', async () => {
  const zone = paid.find((z) => z.shieldZoneId !== paid[0]!.shieldZoneId)!.shieldZoneId;
  const g = await api.shield.getApiGuardian(zone);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-spec-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const big = path.join(dir, 'big.json');
  const paths = Object.fromEntries(
    Array.from({ length: g.configuration.maxEndpoints + 1 }, (_, i) => [`/p${i}`, { get: { responses: { '200': { description: 'ok' } } } }]),
  );
  fs.writeFileSync(big, JSON.stringify({ openapi: '3.0.0', info: { title: 'Big', version: '1' }, paths }));

  let r = await burrow('shield', 'spec', 'upload', String(zone), big, '--yes');
  assert.equal(r.code, 1);
  assert.match(r.stdout, /Not sent: over the plan limits/);
  assert.deepEqual(r.mutations, []);

  r = await burrow('shield', 'spec', 'upload', String(zone), big, '--force', '--dry-run');
  assert.equal(r.code, 0);
  assert.match(r.stdout, /sending anyway \(--force\)/);
  assert.match(r.stdout, /OVER the local limit check \(dry run: nothing is sent\)/);
  assert.deepEqual(r.mutations, []);

  const petstore = path.join(FIXTURES, 'openapi-petstore.yaml');
  r = await burrow('shield', 'spec', 'upload', String(zone), petstore, '--dry-run');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /[+~] content: .*"<openapi-petstore\.yaml, [\d.]+ KiB: Petstore/);
  r = await burrow('shield', 'spec', 'upload', String(zone), petstore, '--yes', '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  const method = g.configuration.title === null && g.endpoints.length === 0 ? 'POST' : 'PATCH';
  assert.deepEqual(r.mutations, [`${method} /shield/shield-zone/${zone}/api-guardian/spec`]);
  const answer = JSON.parse(r.stdout) as { endpoints: unknown[]; configuration: { title: string } };
  assert.ok(answer.endpoints.length > 0);
  assert.equal((await api.shield.getApiGuardian(zone)).configuration.title, answer.configuration.title);
});

test('containers regions: the console checks first, the diff, --dry-run sends nothing, --yes one PUT', async () => {
  const apps = await api.containers.listAllApps();
  const regions = await api.containers.listAllRegions();
  const app = apps[0]!;
  const settings = await api.containers.getRegionSettings(app.id);
  const extra = regions.find((r) => !settings.allowedRegionIds.includes(r.id))!;
  const allowed = [...settings.allowedRegionIds, extra.id];

  let r = await burrow('containers', 'regions', app.id, '--allowed', 'XX-NOPE', '--yes');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--allowed: not in the region list: XX-NOPE/);
  r = await burrow('containers', 'regions', app.id, '--required', allowed.join(','), '--allowed', settings.allowedRegionIds.join(','), '--yes');
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`required regions must also be allowed: ${extra.id}`));
  assert.deepEqual(r.mutations, []);

  r = await burrow('containers', 'regions', app.id, '--allowed', allowed.join(','), '--dry-run');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`~ allowedRegionIds: .*→ .*"${extra.id}"`));
  assert.deepEqual(r.mutations, []);

  r = await burrow('containers', 'regions', app.id, '--allowed', allowed.join(','), '--yes', '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.mutations, [`PUT /mc/apps/${app.id}/region-settings`]);
  const answer = JSON.parse(r.stdout) as { saved: boolean; regionSettings: { allowedRegionIds: string[] } };
  assert.deepEqual(answer.regionSettings.allowedRegionIds.sort(), [...allowed].sort());
});

test('get video-libraries --search --page --per-page: the server searches and pages; other resources refuse the flags', async () => {
  const all = await api.videoLibraries.listAll();
  const name = all[3]!.Name!;
  const word = name.split(/\s+/)[0]!;
  let r = await burrow('get', 'video-libraries', '--search', word, '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  const found = JSON.parse(r.stdout) as { Name: string }[];
  assert.ok(found.length > 0 && found.every((l) => l.Name.toLowerCase().includes(word.toLowerCase())));
  const searched = proxy.seen.findLast((q) => q.path.startsWith('/videolibrary'))!;
  assert.match(searched.path, new RegExp(`search=${encodeURIComponent(word)}`));

  r = await burrow('get', 'video-libraries', '--page', '2', '--per-page', '5', '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  const page = JSON.parse(r.stdout) as { Id: number }[];
  assert.deepEqual(
    page.map((l) => l.Id),
    all.slice(5, 10).map((l) => l.Id),
  );

  r = await burrow('get', 'shield-zones', '--search', 'x');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--search is not available for shield-zones: only video-libraries/);
  r = await burrow('get', 'video-libraries', '--per-page', '3');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--per-page must be a whole number from 5 to 1000/);
});

test('a lost answer: exit 3, unknown outcome with the command to check, sent once and never retried', async () => {
  const zone = paid[paid.length - 1]!.shieldZoneId;
  const before = (await api.shield.getApiGuardian(zone)).configuration;
  proxy.mode = 'reset';
  let r;
  try {
    r = await burrow('shield', 'guardian', String(zone), '--set', `isEnabled=${!before.isEnabled}`, '--yes');
  } finally {
    proxy.mode = 'pass';
  }
  assert.equal(r.code, 3, r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`unknown outcome: the request was sent but no answer came \\(it was not retried\\): check with burrow get api-guardian ${zone}`),
  );
  assert.deepEqual(r.mutations, [`PATCH /shield/shield-zone/${zone}/api-guardian`], 'exactly once');
  assert.equal((await api.shield.getApiGuardian(zone)).configuration.isEnabled, !before.isEnabled, 'the platform applied it');
});

test('in a terminal without --yes the diff is shown and "Send? [y/N]" asked: n sends nothing, y sends once', async () => {
  const zone = paid[0]!.shieldZoneId;
  const before = (await api.shield.getApiGuardian(zone)).configuration;
  const next = before.unmatchedPathAction === 2 ? 0 : before.unmatchedPathAction + 1;
  for (const answer of ['n', 'y']) {
    const from = proxy.seen.length;
    const app = startBurrow(['shield', 'guardian', String(zone), '--set', `unmatchedPathAction=${next}`], { env, cols: 100, rows: 20 });
    const screen = await app.waitFor('Send? [y/N]');
    assert.match(screen, new RegExp(`~ unmatchedPathAction: ${before.unmatchedPathAction} → ${next}`));
    await app.type(answer);
    await app.press('enter');
    const exit = await app.exited;
    assert.equal(exit.exitCode, answer === 'y' ? 0 : 1);
    assert.equal(proxy.mutationsSince(from).length, answer === 'y' ? 1 : 0);
  }
  assert.equal((await api.shield.getApiGuardian(zone)).configuration.unmatchedPathAction, next);
});
