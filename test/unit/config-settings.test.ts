import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveSettings, SettingsError, PLATFORM_BASE_URL, DEFAULT_REFRESH_SECONDS } from '../../src/config/settings';
import { ConfigError, loadConfigFile, saveConfigFile, type ConfigFile } from '../../src/config/config-file';
import { configFilePath } from '../../src/config/paths';

const file: ConfigFile = {
  defaultProfile: 'prod',
  refreshSeconds: 3,
  keys: { 'nav.down': ['n'] },
  profiles: {
    prod: { apiKey: 'profile-key-123456', baseUrl: 'https://profile.example', readOnly: true },
    staging: { apiKey: 'staging-key-123456', loggingUrl: 'https://logs.staging.example' },
  },
};

test('precedence for the base URL: flag > env > profile > default', () => {
  const env = { BURROW_BASE_URL: 'https://env.example' };
  assert.equal(resolveSettings({ baseUrl: 'https://flag.example/' }, env, file).baseUrl, 'https://flag.example');
  assert.equal(resolveSettings({}, env, file).baseUrl, 'https://env.example');
  assert.equal(resolveSettings({}, {}, file).baseUrl, 'https://profile.example');
  assert.equal(resolveSettings({}, {}, {}).baseUrl, PLATFORM_BASE_URL);
});

test('precedence for the API key: flag > env > profile, and a key on the command line warns', () => {
  const env = { BURROW_API_KEY: 'env-key-1234567' };
  const fromFlag = resolveSettings({ apiKey: 'flag-key-1234567' }, env, file);
  assert.equal(fromFlag.apiKey, 'flag-key-1234567');
  assert.equal(fromFlag.apiKeySource, 'flag');
  assert.match(fromFlag.warnings.join('\n'), /visible to other users/);
  const fromEnv = resolveSettings({}, env, file);
  assert.equal(fromEnv.apiKeySource, 'env');
  assert.deepEqual(fromEnv.warnings, []);
  const fromProfile = resolveSettings({}, {}, file);
  assert.equal(fromProfile.apiKey, 'profile-key-123456');
  assert.equal(fromProfile.apiKeySource, 'profile');
  assert.equal(fromProfile.target, 'platform');
});

test('the profile: --profile > BURROW_PROFILE > defaultProfile; its readOnly and URLs apply', () => {
  assert.equal(resolveSettings({ profile: 'staging' }, { BURROW_PROFILE: 'prod' }, file).apiKey, 'staging-key-123456');
  const env = resolveSettings({}, { BURROW_PROFILE: 'staging' }, file);
  assert.equal(env.profileName, 'staging');
  assert.equal(env.loggingUrl, 'https://logs.staging.example');
  assert.equal(env.readOnly, false);
  const def = resolveSettings({}, {}, file);
  assert.equal(def.profileName, 'prod');
  assert.equal(def.readOnly, true);
  assert.equal(resolveSettings({ readOnly: true }, { BURROW_PROFILE: 'staging' }, file).readOnly, true);
});

test('a missing profile is an error that lists the profiles; a missing default profile only warns', () => {
  assert.throws(
    () => resolveSettings({ profile: 'nope' }, {}, file),
    (e: unknown) => e instanceof SettingsError && /no profile named "nope" .*\(profiles: prod, staging\)/.test(e.message),
  );
  assert.throws(() => resolveSettings({}, { BURROW_PROFILE: 'gone' }, {}), /it has no profiles/);
  const s = resolveSettings({}, {}, { defaultProfile: 'ghost' });
  assert.match(s.warnings.join('\n'), /defaultProfile "ghost" is not defined/);
  assert.equal(s.target, 'emulator');
});

test('no key anywhere, or --demo: the emulator', () => {
  assert.equal(resolveSettings({}, {}, {}).target, 'emulator');
  assert.equal(resolveSettings({}, { BURROW_API_KEY: '  ' }, {}).target, 'emulator', 'a blank key is no key');
  assert.equal(resolveSettings({ demo: true }, { BURROW_API_KEY: 'env-key-1234567' }, file).target, 'emulator');
});

test('NO_COLOR and --no-color turn colours off; an empty NO_COLOR does not', () => {
  assert.equal(resolveSettings({}, {}, {}).color, true);
  assert.equal(resolveSettings({}, { NO_COLOR: '1' }, {}).color, false);
  assert.equal(resolveSettings({}, { NO_COLOR: '' }, {}).color, true);
  assert.equal(resolveSettings({ noColor: true }, {}, {}).color, false);
});

test('refresh interval and keys come from the file, with defaults', () => {
  const s = resolveSettings({}, {}, file);
  assert.equal(s.refreshSeconds, 3);
  assert.deepEqual(s.keys, { 'nav.down': ['n'] });
  assert.equal(resolveSettings({}, {}, {}).refreshSeconds, DEFAULT_REFRESH_SECONDS);
});

test('a bad URL is refused with what is allowed', () => {
  assert.throws(() => resolveSettings({ baseUrl: 'api.bunny.net' }, {}, {}), /--base-url must be an http\(s\) URL, got "api\.bunny\.net"/);
});

function tempXdg(): { env: Record<string, string>; dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-xdg-'));
  return { env: { XDG_CONFIG_HOME: dir, HOME: dir }, dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

test('the config file is written 0600 under $XDG_CONFIG_HOME/burrow and read back', async () => {
  const { env, dir, cleanup } = tempXdg();
  try {
    const p = configFilePath(env);
    assert.equal(p, path.join(dir, 'burrow', 'config.yaml'));
    assert.equal((await loadConfigFile(env)).exists, false);
    await saveConfigFile(p, file);
    assert.equal(fs.statSync(p).mode & 0o777, 0o600);
    const loaded = await loadConfigFile(env);
    assert.equal(loaded.exists, true);
    assert.deepEqual(loaded.config, file);
    assert.deepEqual(loaded.warnings, []);
  } finally {
    cleanup();
  }
});

test('a config file others can read gets a warning; bad YAML and unknown settings are errors', async () => {
  const { env, cleanup } = tempXdg();
  try {
    const p = configFilePath(env);
    await saveConfigFile(p, file);
    fs.chmodSync(p, 0o644);
    assert.match((await loadConfigFile(env)).warnings.join('\n'), /readable by other users \(mode 644\).*chmod 600/);
    fs.writeFileSync(p, 'profiles: [unclosed');
    await assert.rejects(
      () => loadConfigFile(env),
      (e: unknown) => e instanceof ConfigError && /is not valid YAML/.test(e.message),
    );
    fs.writeFileSync(p, 'refreshSecs: 3\n');
    await assert.rejects(() => loadConfigFile(env), /has invalid settings/);
    fs.writeFileSync(p, 'keys:\n  nav.down: []\n');
    await assert.rejects(() => loadConfigFile(env), /keys\.nav\.down/);
  } finally {
    cleanup();
  }
});

test('a defaultProfile that is not defined is not reported as the profile in use', () => {
  const s = resolveSettings({}, {}, { defaultProfile: 'ghost', profiles: { prod: { apiKey: 'k'.repeat(20) } } });
  assert.equal(s.profileName, null);
  assert.ok(s.warnings.some((w) => w.includes('"ghost"')));
});
