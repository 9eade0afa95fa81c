import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { stringify as toYaml } from 'yaml';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { ApiError } from '../../src/api/errors';

// `burrow shield check-spec` through the real binary (npm run build first). Its verdict must be
// the emulator's: exit 0 where an upload is accepted, 1 where it is refused for a limit, 2 where
// the document is refused as invalid (or the zone cannot be used).

const BIN = path.resolve('bin/burrow.js');
const FIXTURES = path.resolve('test/fixtures');
const emu = await useEmulator({ seed: 5 });
const api = apiFor(emu);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-check-spec-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...envFor(emu) };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
const burrow = (args: string[]) =>
  new Promise<Run>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 15_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });

const zones = await api.shield.listAllZones();
const basic = zones.find((z) => z.planType === 0)!;
const byPlan = [1, 2, 3].map((plan) => zones.find((z) => z.planType === plan)!);

/** The emulator's answer to uploading `text` to the zone, as an exit code. */
async function emulatorCode(zoneId: number, text: string): Promise<number> {
  const g = await api.shield.getApiGuardian(zoneId);
  try {
    if (g.configuration.title === null) await api.shield.uploadSpec(zoneId, text);
    else await api.shield.replaceSpec(zoneId, text);
    return 0;
  } catch (e) {
    assert.ok(e instanceof ApiError && e.status === 400, String(e));
    return e.code === 'api_guardian.spec_limit_exceeded' ? 1 : 2;
  }
}

function writeSpec(name: string, doc: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, name.endsWith('.json') ? JSON.stringify(doc) : toYaml(doc));
  return file;
}

const op = { responses: { '200': { description: 'ok' } } };
const wide = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }])) });
const generated = [
  writeSpec('endpoints-60.yaml', {
    openapi: '3.0.0',
    info: { title: 'Many', version: '1' },
    paths: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`/r${i}`, { get: op, delete: op }])),
  }),
  writeSpec('fields-75.json', { openapi: '3.0.0', info: { title: 'Wide', version: '1' }, paths: {}, components: { schemas: { W: wide(75) } } }),
  writeSpec('depth-12.yaml', {
    openapi: '3.1.0',
    info: { title: 'Deep', version: '1' },
    paths: { '/d': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } } } } } },
    components: {
      schemas: Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [
          `L${i}`,
          i === 5 ? { type: 'string' } : { type: 'object', properties: { next: { $ref: `#/components/schemas/L${i + 1}` } } },
        ]),
      ),
    },
  }),
  writeSpec('regex-2500.json', {
    openapi: '3.0.0',
    info: { title: 'Regex', version: '1' },
    paths: {},
    components: { schemas: { R: { type: 'string', pattern: `^${'a?'.repeat(1249)}$` } } },
  }),
];

test('check-spec agrees with the emulator on every fixture and plan (exit 0 / 1 / 2)', async () => {
  const files = [
    ...fs
      .readdirSync(FIXTURES)
      .filter((f) => f.startsWith('openapi-'))
      .map((f) => path.join(FIXTURES, f)),
    ...generated,
  ];
  const codes = new Set<number>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const zone of byPlan) {
      const run = await burrow(['shield', 'check-spec', file, '--zone', String(zone.shieldZoneId)]);
      const expected = await emulatorCode(zone.shieldZoneId, text);
      assert.equal(run.code, expected, `${path.basename(file)} on plan ${zone.planType}: ${run.stdout}${run.stderr}`);
      codes.add(run.code);
    }
  }
  assert.deepEqual([...codes].sort(), [0, 1, 2], 'every verdict occurs');
});

test('table output: measured vs allowed and one sentence per problem; json output for scripts', async () => {
  const advanced = byPlan[0]!;
  const limits = (await api.shield.getApiGuardian(advanced.shieldZoneId)).configuration;
  const run = await burrow(['shield', 'check-spec', generated[0]!, '--zone', String(advanced.shieldZoneId)]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, new RegExp(`^Many 1 \\(YAML, ${generated[0]}\\) against the API Guardian limits of shield zone ${advanced.shieldZoneId}$`, 'm'));
  assert.match(run.stdout, new RegExp(`^endpoints\\s+60\\s+${limits.maxEndpoints}\\s+OVER$`, 'm'));
  assert.match(run.stdout, new RegExp(`^fields per schema\\s+0\\s+${limits.maxFieldsPerType}\\s+ok`, 'm'));
  assert.match(run.stdout, new RegExp(`  - endpoints: 60 endpoints \\(path \\+ method\\); the plan allows ${limits.maxEndpoints} \\(maxEndpoints\\)$`, 'm'));
  assert.equal(run.stderr, '');

  const json = await burrow(['shield', 'check-spec', path.join(FIXTURES, 'openapi-petstore.yaml'), '--zone', String(advanced.shieldZoneId), '-o', 'json']);
  assert.equal(json.code, 0);
  const out = JSON.parse(json.stdout) as {
    withinLimits: boolean;
    title: string;
    checks: { limit: string; measured: number; allowed: number }[];
    problems: string[];
  };
  assert.equal(out.withinLimits, true);
  assert.equal(out.title, 'Petstore');
  assert.deepEqual(out.problems, []);
  assert.deepEqual(
    out.checks.map((c) => [c.limit, c.measured, c.allowed]),
    [
      ['maxEndpoints', 5, limits.maxEndpoints],
      ['maxFieldsPerType', 4, limits.maxFieldsPerType],
      ['maxNestingDepth', 6, limits.maxNestingDepth],
      ['maxTotalSchemaNodes', 15, limits.maxTotalSchemaNodes],
      ['maxTotalRegexLength', 22, limits.maxTotalRegexLength],
    ],
  );
});

test('bad input: exit 2 with a message that says what is wrong', async () => {
  const good = path.join(FIXTURES, 'openapi-petstore.yaml');
  const zone = String(byPlan[1]!.shieldZoneId);
  const cases: [string[], RegExp][] = [
    [['shield', 'check-spec', path.join(dir, 'missing.yaml'), '--zone', zone], new RegExp(`^burrow: no such file: ${dir}/missing\\.yaml\\n$`)],
    [['shield', 'check-spec', dir, '--zone', zone], /is a directory/],
    [
      ['shield', 'check-spec', path.join(FIXTURES, 'openapi-broken.yaml'), '--zone', zone],
      /openapi-broken\.yaml is not a usable OpenAPI 3 document: neither JSON nor valid YAML/,
    ],
    [['shield', 'check-spec', path.join(FIXTURES, 'openapi-swagger2.json'), '--zone', zone], /Swagger 2\.0: API Guardian takes OpenAPI 3\.x documents/],
    [['shield', 'check-spec', good], /--zone ID is required/],
    [['shield', 'check-spec', good, '--zone', 'abc'], /--zone must be a positive whole number up to 2147483647 \(got "abc"\)/],
    [['shield', 'check-spec', good, '--zone', '999'], /cannot read the API Guardian limits of shield zone 999: 404 Not Found shield_zone\.not_found/],
    [
      ['shield', 'check-spec', good, '--zone', String(basic.shieldZoneId)],
      /403 Forbidden invalid_plan_type\.api_guardian: API Guardian is not available on the Basic plan/,
    ],
    [['shield', 'check-spec'], /needs FILE/],
    [['shield', 'lint', good], /unknown shield command "lint": check-spec FILE --zone ID, guardian ZONE --set NAME=VALUE, spec upload ZONE FILE/],
    [['shield', 'check-spec', good, '--zone', zone, '-o', 'csv'], /-o csv is not available for shield: use table, json/],
  ];
  for (const [args, message] of cases) {
    const run = await burrow(args);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.equal(run.stdout, '');
  }
});
