import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { BURROW_BIN } from '../helpers/pty';

// The printed scripts, loaded into a real bash that completes as it would at a prompt; the
// profile names come from the config file through `burrow completion profiles`.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-completion-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const bin = path.join(dir, 'bin');
fs.mkdirSync(bin);
fs.writeFileSync(path.join(bin, 'burrow'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BURROW_BIN)} "$@"\n`, { mode: 0o755 });
fs.mkdirSync(path.join(dir, 'config', 'burrow'), { recursive: true });
fs.writeFileSync(path.join(dir, 'config', 'burrow', 'config.yaml'), 'profiles:\n  staging:\n    apiKey: k1\n  prod:\n    apiKey: k2\n    readOnly: true\n', {
  mode: 0o600,
});
const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config') };

const script = (await runBurrow(['completion', 'bash'], { env })).stdout;
fs.writeFileSync(path.join(dir, 'burrow.bash'), script);

/** What bash offers for the command line `line` (the cursor at its end). */
function complete(line: string): string[] {
  const words = line.split(' ');
  const program = `source ${JSON.stringify(path.join(dir, 'burrow.bash'))}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_burrow; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '--noprofile', '-c', program], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
}

test('bash: commands, sub-commands, get resources, flags of the command, -o formats', () => {
  assert.deepEqual(complete('burrow s'), ['ship', 'sql', 'shield']);
  assert.deepEqual(complete('burrow shield '), ['check-spec', 'guardian', 'spec']);
  assert.deepEqual(complete('burrow shield spec u'), ['upload']);
  assert.deepEqual(complete('burrow --profile prod get video'), ['video-libraries'], 'the value of --profile is not the command');
  assert.ok(complete('burrow containers regions app1 --').includes('--max-allowed'));
  assert.ok(complete('burrow shield guardian 5 --').includes('--dry-run'));
  assert.ok(!complete('burrow get --').includes('--set'), 'flags of another command are not offered');
  assert.deepEqual(complete('burrow get apps -o j'), ['json']);
  assert.deepEqual(complete('burrow db tokens '), ['create', 'invalidate']);
});

test('bash and fish: -o offers the formats the command takes (text only where it is accepted)', async () => {
  assert.deepEqual(complete('burrow get apps -o '), ['table', 'json', 'csv', 'ndjson']);
  assert.deepEqual(complete('burrow sql -e x -o '), ['table', 'csv', 'json', 'ndjson']);
  assert.ok(complete('burrow logs 1058 -o ').includes('text'));
  assert.deepEqual(complete('burrow logs 1058 -o t'), ['text', 'table']);
  assert.deepEqual(complete('burrow -o t'), ['table', 'text'], 'before the command: every format');
  const fish = (await runBurrow(['completion', 'fish'], { env })).stdout;
  assert.match(fish, /complete -c burrow -n '__fish_seen_subcommand_from get' -l output -s o -r -a 'table json csv ndjson'\n/);
});

test('bash: profile names come from the config file', () => {
  assert.deepEqual(complete('burrow --profile ').sort(), ['prod', 'staging']);
});

test('zsh and fish scripts are printed; an unknown shell is a usage error', async () => {
  const zsh = await runBurrow(['completion', 'zsh'], { env });
  assert.equal(zsh.code, 0);
  assert.match(zsh.stdout, /bashcompinit/);
  assert.match(zsh.stdout, /complete -o default -F _burrow burrow/);
  const fish = await runBurrow(['completion', 'fish'], { env });
  assert.match(fish.stdout, /complete -c burrow -n '__fish_seen_subcommand_from shield' -a 'check-spec guardian spec'/);
  assert.match(fish.stdout, /complete -c burrow -l profile -r -a '\(burrow completion profiles 2>\/dev\/null\)'/);
  const bad = await runBurrow(['completion', 'tcsh'], { env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown shell "tcsh": burrow completion bash\|zsh\|fish/);
  for (const shell of ['zsh', 'fish']) {
    if (spawnSync(shell, ['--version']).status !== 0) continue;
    const r = spawnSync(shell, ['-n'], { input: shell === 'zsh' ? zsh.stdout : fish.stdout });
    assert.equal(r.status, 0, `${shell} parses the script: ${r.stderr}`);
  }
});
