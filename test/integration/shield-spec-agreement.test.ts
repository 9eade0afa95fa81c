import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { apiFor, useEmulator } from '../helpers/emulator';
import { ApiError } from '../../src/api/errors';
import { checkSpecText, SpecProblem, type PlanLimits } from '../../src/shield-spec/index';

// burrow's checker and the emulator implement the same measuring rules independently. Here the
// emulator is asked (over HTTP, by uploading) and its accept/refuse, and the limits it names,
// must equal burrow's verdict.

const emu = await useEmulator({ seed: 7 });
const api = apiFor(emu);
const zones = (await api.shield.listAllZones()).filter((z) => z.planType !== 0);
/** One zone per plan with API Guardian, each holding a spec so it can be replaced with PATCH. */
const targets: { id: number; limits: PlanLimits }[] = [];
for (const plan of [1, 2, 3]) {
  const z = zones.find((x) => x.planType === plan)!;
  let g = await api.shield.getApiGuardian(z.shieldZoneId);
  if (g.configuration.title === null) {
    g = await api.shield.uploadSpec(z.shieldZoneId, 'openapi: 3.0.0\ninfo: {title: seed, version: "1"}\npaths: {}\n');
  }
  targets.push({ id: z.shieldZoneId, limits: g.configuration });
}
const advanced = targets[0]!;

type Verdict = { accepted: true } | { accepted: false; invalid: boolean; limits: string[] };

async function emulatorVerdict(zoneId: number, text: string): Promise<Verdict> {
  try {
    await api.shield.replaceSpec(zoneId, text);
    return { accepted: true };
  } catch (e) {
    assert.ok(e instanceof ApiError && e.status === 400, `unexpected failure: ${String(e)}`);
    if (e.code === 'api_guardian.invalid_spec') return { accepted: false, invalid: true, limits: [] };
    assert.equal(e.code, 'api_guardian.spec_limit_exceeded', e.message);
    return { accepted: false, invalid: false, limits: [...e.message.matchAll(/(max[A-Za-z]+): /g)].map((m) => m[1]!) };
  }
}

function burrowVerdict(text: string, limits: PlanLimits): Verdict {
  try {
    const r = checkSpecText(text, limits);
    return r.withinLimits ? { accepted: true } : { accepted: false, invalid: false, limits: r.checks.filter((c) => c.over).map((c) => c.limit) };
  } catch (e) {
    if (e instanceof SpecProblem) return { accepted: false, invalid: true, limits: [] };
    throw e;
  }
}

// ---- random OpenAPI documents near the Advanced plan's limits (50/50/8/1000/2000) ----

const NAMES = ['A', 'B', 'C', 'D', 'E', 'F'];
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

const leaf = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.integer({ min: 0, max: 500 }).map((n) => ({ type: 'string', pattern: 'x'.repeat(n) })),
  fc.constantFrom(...NAMES).map(ref),
  fc.constant({ type: 'integer', format: 'int64' }),
  fc.constant(true as unknown as object),
);

const { schema } = fc.letrec<{ schema: object }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 8, arbitrary: leaf },
    {
      weight: 3,
      arbitrary: fc
        .dictionary(fc.constantFrom('id', 'name', 'tags', 'owner', 'pattern', 'items', 'meta'), tie('schema'), { maxKeys: 5 })
        .map((properties) => ({ type: 'object', properties })),
    },
    { weight: 2, arbitrary: tie('schema').map((items) => ({ type: 'array', items })) },
    { weight: 1, arbitrary: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((allOf) => ({ allOf })) },
    { weight: 1, arbitrary: fc.array(tie('schema'), { maxLength: 2 }).map((items) => ({ items })) },
    { weight: 1, arbitrary: tie('schema').map((not) => ({ not })) },
    { weight: 1, arbitrary: tie('schema').map((additionalProperties) => ({ type: 'object', additionalProperties })) },
    // near the limits: a wide object, a deep chain, a bulk of nodes
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 45, max: 55 })
        .map((n) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }])) })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 4, max: 10 }).map((n) => {
        let s: object = { type: 'string' };
        for (let i = 0; i < n; i++) s = i % 2 ? { type: 'array', items: s } : { type: 'object', properties: { next: s } };
        return s;
      }),
    },
    { weight: 1, arbitrary: fc.integer({ min: 950, max: 1050 }).map((n) => ({ anyOf: Array.from({ length: n }, () => ({ type: 'number' })) })) },
  ),
}));

const methods = fc.subarray(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const mediaSchema = fc.option(schema, { nil: undefined }).map((s) => (s === undefined ? {} : { content: { 'application/json': { schema: s } } }));

const operation = fc.record({
  parameters: fc.array(
    fc.oneof(
      fc.constant({ $ref: '#/components/parameters/P' }),
      schema.map((s) => ({ name: 'q', in: 'query', schema: s })),
    ),
    { maxLength: 2 },
  ),
  requestBody: fc.oneof(fc.constant(undefined), fc.constant({ $ref: '#/components/requestBodies/Body' }), mediaSchema),
  responses: fc.dictionary(
    fc.constantFrom('200', '201', '404', 'default'),
    fc.oneof(
      fc.constant({ $ref: '#/components/responses/R' }),
      mediaSchema.map((m) => ({ description: 'x', ...m })),
    ),
    { maxKeys: 2 },
  ),
});

const paths = fc.array(fc.tuple(fc.stringMatching(/^\/[a-z]{1,6}$/), methods, operation), { maxLength: 16 }).map((list) => {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [p, ms, op] of list) {
    out[p] ??= {};
    for (const m of ms) out[p]![m] = op;
  }
  return out;
});

/** Rarely, something that makes the document invalid. */
const breakage = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) },
  fc.constantFrom('missing-ref', 'external-ref', 'bad-path', 'no-version', 'circular-body', 'swagger'),
);

const documents = fc
  .record({
    schemas: fc.dictionary(fc.constantFrom(...NAMES), schema, { maxKeys: 6 }),
    paths,
    param: schema,
    body: schema,
    breakage,
    /** Extra one-method paths, sometimes enough to cross maxEndpoints on their own. */
    extraPaths: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 40, max: 60 })),
    yaml: fc.boolean(),
  })
  .map(({ schemas, paths, param, body, breakage, extraPaths, yaml }) => {
    for (let i = 0; i < extraPaths; i++) paths[`/extra/${i}`] = { get: { responses: {} } };
    // every ref target exists unless the breakage removes one
    for (const n of NAMES) schemas[n] ??= { type: 'string' };
    const doc: Record<string, unknown> = {
      openapi: '3.0.3',
      info: { title: 'Random', version: breakage === 'no-version' ? undefined : '1' },
      paths: breakage === 'bad-path' ? { ...paths, nope: {} } : paths,
      components: {
        schemas:
          breakage === 'missing-ref'
            ? { ...schemas, A: ref('Missing') }
            : breakage === 'external-ref'
              ? { ...schemas, A: { $ref: 'common.yaml#/A' } }
              : schemas,
        parameters: { P: { name: 'p', in: 'header', schema: param } },
        requestBodies:
          breakage === 'circular-body'
            ? { Body: { $ref: '#/components/requestBodies/Body' } }
            : { Body: { content: { 'application/json': { schema: body } } } },
        responses: { R: { description: 'r', content: { 'application/json': { schema: ref('B') } } } },
      },
    };
    if (breakage === 'circular-body') (doc.paths as Record<string, unknown>)['/loop'] = { post: { requestBody: { $ref: '#/components/requestBodies/Body' } } };
    if (breakage === 'swagger') {
      delete doc.openapi;
      doc.swagger = '2.0';
    }
    return yaml ? toYaml(doc) : JSON.stringify(doc);
  });

test('fixture specs: burrow and the emulator agree on every plan', async () => {
  const dir = path.join(import.meta.dirname, '..', 'fixtures');
  const files = fs.readdirSync(dir).filter((f) => f.startsWith('openapi-'));
  assert.ok(files.length >= 4);
  let accepted = 0;
  let refused = 0;
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const t of targets) {
      const ours = burrowVerdict(text, t.limits);
      assert.deepEqual(await emulatorVerdict(t.id, text), ours, `${f} on zone ${t.id}`);
      if (ours.accepted) accepted++;
      else refused++;
    }
  }
  assert.ok(accepted > 0 && refused > 0, `both verdicts occur (accepted ${accepted}, refused ${refused})`);
});

test('random specs: the same verdict and the same exceeded limits as the emulator', async () => {
  const seen = { accepted: 0, over: 0, invalid: 0, limits: new Set<string>() };
  await fc.assert(
    fc.asyncProperty(documents, async (text) => {
      const ours = burrowVerdict(text, advanced.limits);
      const theirs = await emulatorVerdict(advanced.id, text);
      assert.deepEqual(ours, theirs);
      if (ours.accepted) seen.accepted++;
      else if (ours.invalid) seen.invalid++;
      else {
        seen.over++;
        for (const l of ours.limits) seen.limits.add(l);
      }
    }),
    { numRuns: 100, seed: 20240611 },
  );
  // the generator reaches every verdict and every limit, or the test proves little
  assert.ok(seen.accepted > 10 && seen.over > 10 && seen.invalid > 3, JSON.stringify({ ...seen, limits: [...seen.limits] }));
  assert.deepEqual([...seen.limits].sort(), ['maxEndpoints', 'maxFieldsPerType', 'maxNestingDepth', 'maxTotalRegexLength', 'maxTotalSchemaNodes']);
});
