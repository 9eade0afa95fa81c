import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow, type CliRun } from '../helpers/cli';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { leaks, seededSecrets, type Collected } from '../helpers/secrets';

// Every output of the non-interactive commands (stdout, stderr, --debug lines, errors, warnings),
// grepped for every seeded secret: none may appear unmasked unless --show-secrets asks for it.

const emu = await useEmulator({ logRate: 3, ingestDelayMs: 300 });
const api = apiFor(emu);
const secrets = seededSecrets(emu);
const WRONG_KEY = 'wrong-key-5f3c2a9e-77d1-4a0b-9c1e-0123456789ab';
secrets.set(WRONG_KEY, 'a wrong API key');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-secrets-'));
const baseEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state') };

interface Run {
  args: string[];
  env?: Record<string, string>;
}
const burrow = ({ args, env }: Run) => runBurrow(args, { env: { ...baseEnv, ...envFor(emu), ...env } });
async function all(runs: Run[]): Promise<({ run: Run } & CliRun)[]> {
  const out: ({ run: Run } & CliRun)[] = [];
  const queue = [...runs];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let r = queue.shift(); r; r = queue.shift()) out.push({ run: r, ...(await burrow(r)) });
    }),
  );
  return out;
}

test('no seeded secret in any command output, error, warning or --debug line', { timeout: 120_000 }, async () => {
  const zones = await api.shield.listAllZones();
  const paid = zones.find((z) => z.planType !== 0)!;
  const app = (await api.containers.listApps()).items[0]!;
  const lb = (await api.loadBalancers.list())[0]!;
  const lbId = String(lb.LoadBalancerId);
  const zone = String(emu.info.pullZoneIds[0]);
  const today = new Date();
  const v1Date = `${String(today.getUTCMonth() + 1).padStart(2, '0')}-${String(today.getUTCDate()).padStart(2, '0')}-${String(today.getUTCFullYear() % 100).padStart(2, '0')}`;
  const resources = [
    ['shield-zones'],
    ['api-guardian', String(paid.shieldZoneId)],
    ['limits'],
    ['apps'],
    ['region-settings', app.id],
    ['regions'],
    ['video-libraries'],
    ['load-balancers'],
    ['load-balancer', lbId],
    ['pull-zones'],
  ];
  const runs: Run[] = [];
  for (const r of resources) for (const o of ['table', 'json', 'csv', 'ndjson']) runs.push({ args: ['get', ...r, '-o', o, '--debug'] });
  for (const o of ['text', 'ndjson', 'json']) runs.push({ args: ['logs', zone, '--since', '10m', '--limit', '200', '-o', o, '--debug'] });
  runs.push({ args: ['logs', zone, '--v1', '--date', v1Date, '--limit', '50', '--debug'] });
  runs.push({
    args: [
      'sql',
      `${emu.info.databaseUrl}/?authToken=${emu.info.databaseToken}`,
      '-e',
      'SELECT id, email, avatar FROM customers LIMIT 3',
      '-o',
      'json',
      '--debug',
    ],
    env: { SERVICE_DATABASE_URL: '', SERVICE_DATABASE_AUTH_TOKEN: '' },
  });
  runs.push({ args: ['sql', `http://127.0.0.1:9/?authToken=${emu.info.readOnlyDatabaseToken}`, '-e', 'SELECT 1', '--debug'] });
  runs.push({ args: ['sql', '-e', 'SELECT * FROM nope', '--debug'] });
  runs.push({ args: ['db', 'list', '--debug'] });
  runs.push({ args: ['db', 'list', '-o', 'json'] });
  runs.push({ args: ['get', 'limits', '--debug'], env: { BURROW_API_KEY: WRONG_KEY } });
  runs.push({ args: ['logs', zone, '--since', '1m', '--debug'], env: { BURROW_API_KEY: WRONG_KEY } });
  runs.push({ args: ['--api-key', emu.info.accessKey, 'get', 'limits', '--debug'], env: { BURROW_API_KEY: '' } });
  runs.push({ args: ['get', 'api-guardian', '999999', '--debug'] });
  const results = await all(runs);

  const outputs: Collected[] = results.flatMap(({ run, stdout, stderr }) => [
    { where: `stdout of burrow ${run.args.join(' ').slice(0, 80)}`, text: stdout },
    { where: `stderr of burrow ${run.args.join(' ').slice(0, 80)}`, text: stderr },
  ]);
  assert.deepEqual(leaks(outputs, secrets), []);

  // the commands did run (and --debug did log requests), so the grep had something to read
  for (const { run, code, stderr } of results.filter((r) => r.run.args.includes('--debug') && r.run.args[0] === 'get' && r.run.args[1] !== 'api-guardian')) {
    if (run.env?.BURROW_API_KEY === WRONG_KEY) continue;
    assert.equal(code, 0, `${run.args.join(' ')}: ${stderr}`);
    assert.match(stderr, /^debug: -> GET http:\/\/127\.0\.0\.1:\d+\//m);
  }
  const byArgs = (pred: (a: string[]) => boolean) => results.find((r) => pred(r.run.args))!;
  const inUrl = byArgs((a) => a[0] === 'sql' && a[1]!.includes(emu.info.databaseToken));
  assert.equal(inUrl.code, 0, inUrl.stderr);
  assert.match(inUrl.stderr, /warning: a database token in the URL on the command line is visible to other users/);
  const onCommandLine = byArgs((a) => a[0] === '--api-key');
  assert.match(onCommandLine.stderr, /warning: an API key given on the command line is visible to other users/);
  const refused = results.find((r) => r.run.env?.BURROW_API_KEY === WRONG_KEY && r.run.args[0] === 'get')!;
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /401 Unauthorized/);
  assert.match(refused.stderr, /^debug: <- 401 GET \/mc\/limits/m);
});

test('the grep works: --show-secrets does print the library keys', async () => {
  const r = await burrow({ args: ['get', 'video-libraries', '-o', 'json', '--show-secrets'] });
  assert.equal(r.code, 0);
  const found = leaks([{ where: 'stdout', text: r.stdout }], secrets);
  assert.ok(found.length >= 3 * 100, `keys shown on request (${found.length})`);
});

test('db tokens create prints only the new token once; config files readable by others get a warning naming the file', async () => {
  const created = await burrow({ args: ['db', 'tokens', 'create', 'burrow-demo', '-o', 'json', '--debug'] });
  assert.equal(created.code, 0, created.stderr);
  const token = (JSON.parse(created.stdout) as { token: string }[])[0]?.token ?? (JSON.parse(created.stdout) as { token: string }).token;
  assert.ok(token && token.length > 20);
  assert.equal(created.stdout.split(token).length - 1, 1, 'the new token is printed exactly once');
  assert.ok(!created.stderr.includes(token), 'and never in the debug lines');
  assert.deepEqual(leaks([{ where: 'db tokens create', text: created.stdout + created.stderr }], secrets), []);

  const dir = path.join(home, 'config-open', 'burrow');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'config.yaml');
  fs.writeFileSync(file, `defaultProfile: work\nprofiles:\n  work:\n    apiKey: ${emu.info.accessKey}\n    baseUrl: ${emu.info.baseUrl}\n`, { mode: 0o644 });
  fs.chmodSync(file, 0o644);
  const r = await burrow({
    args: ['get', 'limits', '--debug'],
    env: { XDG_CONFIG_HOME: path.join(home, 'config-open'), BURROW_API_KEY: '', BURROW_BASE_URL: '' },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stderr.includes(`warning: ${file} is readable by other users (mode 644)`), r.stderr);
  assert.match(r.stderr, /chmod 600/);
  assert.deepEqual(leaks([{ where: 'config profile run', text: r.stdout + r.stderr }], secrets), []);
  fs.chmodSync(file, 0o600);
  const quiet = await burrow({ args: ['get', 'limits'], env: { XDG_CONFIG_HOME: path.join(home, 'config-open'), BURROW_API_KEY: '', BURROW_BASE_URL: '' } });
  assert.doesNotMatch(quiet.stderr, /readable by other users/);
});
