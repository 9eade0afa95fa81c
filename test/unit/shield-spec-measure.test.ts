import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify as toYaml } from 'yaml';
import {
  checkSpecText,
  measureDocument,
  problemText,
  readOpenApi,
  readSpecFile,
  resolveSpecPath,
  SpecFileError,
  SpecProblem,
  type PlanLimits,
} from '../../src/shield-spec/index';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const measure = (text: string) => measureDocument(readOpenApi(text));
const ok = { responses: { '200': { description: 'ok' } } };
const doc = (paths: Record<string, unknown>, schemas?: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths, ...(schemas ? { components: { schemas } } : {}), ...extra });
const ADVANCED: PlanLimits = { maxEndpoints: 50, maxFieldsPerType: 50, maxNestingDepth: 8, maxTotalSchemaNodes: 1000, maxTotalRegexLength: 2000 };

test('petstore fixture (YAML): every measure as counted by hand in the file', () => {
  const d = readOpenApi(fixture('openapi-petstore.yaml'));
  assert.equal(d.format, 'yaml');
  assert.equal(d.title, 'Petstore');
  assert.equal(d.version, '1.2.0');
  assert.deepEqual(
    d.endpoints.map((e) => `${e.method} ${e.path}`),
    ['get /pets', 'post /pets', 'get /pets/{petId}', 'delete /pets/{petId}', 'patch /pets/{petId}'],
  );
  assert.deepEqual(
    d.endpoints[2]!.parameters.map((p) => p.name),
    ['petId'],
    'path-item parameter given as $ref is followed',
  );
  const m = measureDocument(d);
  assert.deepEqual({ e: m.endpoints, f: m.fieldsPerType, d: m.nestingDepth, n: m.totalSchemaNodes, r: m.totalRegexLength }, { e: 5, f: 4, d: 6, n: 15, r: 22 });
  assert.equal(m.fieldsWhere, 'components.schemas.NewPet');
  assert.equal(m.nestingWhere, 'GET /pets response 200 application/json');
  assert.equal(checkSpecText(fixture('openapi-petstore.yaml'), ADVANCED).withinLimits, true);
});

test('YAML anchors count as copies; JSON and YAML of the same document measure the same', () => {
  const m = measure(fixture('openapi-anchors.yaml'));
  assert.deepEqual([m.endpoints, m.fieldsPerType, m.nestingDepth, m.totalSchemaNodes, m.totalRegexLength], [2, 3, 3, 10, 20]);
  const obj = JSON.parse(
    doc({ '/a': { get: ok } }, { A: { type: 'object', properties: { x: { type: 'string', pattern: 'abc' }, y: { items: { type: 'string' } } } } }),
  );
  assert.deepEqual(measure(toYaml(obj)), measure(JSON.stringify(obj)));
});

test('a $ref cycle makes the nesting unbounded, names the chain, and is over every limit', () => {
  const text = fixture('openapi-recursive.json');
  const m = measure(text);
  assert.equal(m.nestingDepth, Number.POSITIVE_INFINITY);
  assert.match(m.nestingWhere!, /cycle under components\.schemas\.Team: #\/components\/schemas\/Team/);
  const r = checkSpecText(text, { ...ADVANCED, maxNestingDepth: 1_000_000 });
  assert.equal(r.withinLimits, false);
  const over = r.checks.filter((c) => c.over);
  assert.deepEqual(
    over.map((c) => c.limit),
    ['maxNestingDepth'],
  );
  assert.match(
    problemText(over[0]!),
    /^nesting depth: unbounded nesting \(\$ref cycle under components\.schemas\.Team: .*\); the plan allows 1000000 \(maxNestingDepth\)$/,
  );
  // mutual recursion through allOf (which adds no depth) is still a cycle
  const mutual = measure(
    doc({ '/a': { get: ok } }, { A: { allOf: [{ $ref: '#/components/schemas/B' }] }, B: { anyOf: [{ $ref: '#/components/schemas/A' }] } }),
  );
  assert.equal(mutual.nestingDepth, Number.POSITIVE_INFINITY);
});

test('nesting: +1 per properties value, items and followed $ref; combinators add nothing; shared targets are memoised', () => {
  const depth = (schemas: Record<string, unknown>) => measure(doc({ '/a': { get: ok } }, schemas)).nestingDepth;
  assert.equal(depth({ A: { type: 'integer' } }), 0);
  assert.equal(depth({ A: { properties: { b: { properties: { c: {} } } } } }), 2);
  assert.equal(depth({ A: { items: [{ items: {} }, {}] } }), 2, 'each element of an items array');
  assert.equal(depth({ A: { $ref: '#/components/schemas/B' }, B: { items: {} } }), 2);
  assert.equal(depth({ A: { oneOf: [{ not: { additionalProperties: { allOf: [{ properties: { x: {} } }] } } }] } }), 1);
  const schemas: Record<string, unknown> = { L0: { type: 'string' } };
  for (let i = 1; i <= 30; i++)
    schemas[`L${i}`] = { properties: { a: { $ref: `#/components/schemas/L${i - 1}` }, b: { $ref: `#/components/schemas/L${i - 1}` } } };
  assert.equal(depth(schemas), 60, '2^30 paths, measured in linear time');
  // a $ref pointer with escapes (~1 for "/", %-encoding)
  assert.equal(depth({ 'a/b c': { items: {} }, X: { $ref: '#/components/schemas/a~1b%20c' } }), 2);
});

test('fields per schema: widest properties map in any reachable schema, operations included; nodes only from components', () => {
  const m = measure(
    doc(
      {
        '/a': { post: { requestBody: { content: { 'application/json': { schema: { properties: { a: {}, b: {}, c: {}, d: {}, e: {} } } } } }, responses: {} } },
      },
      {
        A: { type: 'object', properties: { x: {}, y: { $ref: '#/components/schemas/B' } } },
        B: { items: { oneOf: [{}, {}] }, additionalProperties: {}, not: {} },
      },
    ),
  );
  assert.equal(m.fieldsPerType, 5);
  assert.match(m.fieldsWhere!, /^POST \/a requestBody application\/json$/);
  assert.equal(m.totalSchemaNodes, 3 + 6);
});

test('duplicate parameters: the operation one replaces the path-item one (same name and in)', () => {
  const deep = { properties: { a: { properties: { b: { properties: { c: {} } } } } } };
  const m = measure(
    doc({
      '/a': {
        parameters: [{ name: 'q', in: 'query', schema: deep }],
        get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: {} },
      },
    }),
  );
  assert.equal(m.nestingDepth, 0);
  const both = measure(
    doc({ '/a': { parameters: [{ name: 'q', in: 'header', schema: deep }], get: { parameters: [{ name: 'q', in: 'query', schema: {} }], responses: {} } } }),
  );
  assert.equal(both.nestingDepth, 3);
});

test('regex length: every string "pattern" member anywhere, in UTF-16 units', () => {
  const m = measure(
    doc(
      { '/a': { get: { parameters: [{ name: 'id', in: 'query', schema: { pattern: '^\\d+$' } }], responses: {} } } },
      { A: { properties: { pattern: { pattern: 'é😀' } } } },
      { 'x-notes': [{ pattern: 'abc' }] },
    ),
  );
  assert.equal(m.totalRegexLength, 5 + 3 + 3);
});

test('invalid documents: a clear reason for each', () => {
  const cases: [string, RegExp][] = [
    ['  \n', /empty/],
    ['{"openapi": "3.0.0",', /not valid JSON/],
    [fixture('openapi-broken.yaml'), /neither JSON nor valid YAML: .*line 6/],
    ['- a\n- b\n', /one YAML object .*not a list/],
    [fixture('openapi-swagger2.json'), /Swagger 2\.0: API Guardian takes OpenAPI 3\.x/],
    ['openapi: 3.0\ninfo: {title: a, version: "1"}\npaths: {}\n', /"openapi" must be a version string starting with "3\." \(got 3\)/],
    [JSON.stringify({ openapi: '3.1.0', info: { title: 'x' }, paths: {} }), /info\.title and info\.version/],
    [JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' } }), /"paths" must be an object/],
    [doc({ pets: { get: ok } }), /path "pets" must start with "\/"/],
    [doc({ '/a': null }), /path item of "\/a" must be an object/],
    [doc({ '/a': { get: ok } }, { A: { $ref: '#/components/schemas/Nope' } }), /does not resolve: nothing at "Nope"/],
    [doc({ '/a': { get: ok } }, { A: { $ref: 'shared.yaml#/Pet' } }), /points outside the document/],
    [doc({ '/a': { get: ok } }, { A: { $ref: '#components' } }), /is not a JSON pointer/],
    [doc({ '/a': { get: ok } }, {}, { 'x-example': { $ref: '#/missing' } }), /does not resolve/],
    [
      doc({ '/a': { post: { requestBody: { $ref: '#/components/requestBodies/B' }, responses: {} } } }, undefined, {
        components: { requestBodies: { B: { $ref: '#/components/requestBodies/B' } } },
      }),
      /is circular/,
    ],
    ['a: &x [*x]\n', /recursive YAML alias/],
    [`{"openapi":"3.0.0","info":{"title":"a","version":"1"},"paths":{},"x":${'['.repeat(205)}${']'.repeat(205)}}`, /nested more than 200 levels/],
  ];
  for (const [text, reason] of cases) {
    assert.throws(
      () => checkSpecText(text, ADVANCED),
      (e: unknown) => e instanceof SpecProblem && reason.test(e.message),
      text.slice(0, 50),
    );
  }
  // 200 levels are fine; 20 hops of $ref are fine
  const hops: Record<string, unknown> = { B0: { content: {} } };
  for (let i = 1; i <= 20; i++) hops[`B${i}`] = { $ref: `#/components/requestBodies/B${i - 1}` };
  assert.doesNotThrow(() =>
    readOpenApi(doc({ '/a': { post: { requestBody: { $ref: '#/components/requestBodies/B19' } } } }, undefined, { components: { requestBodies: hops } })),
  );
  assert.doesNotThrow(() => readOpenApi(`{"openapi":"3.0.0","info":{"title":"a","version":"1"},"paths":{},"x":${'['.repeat(199)}${']'.repeat(199)}}`));
});

test('limits: equal is allowed, one more is over; the problem sentence says measured, where and allowed', () => {
  const text = doc({ '/a': { get: ok, put: ok } }, { A: { properties: { a: { pattern: 'abc' }, b: {} } } });
  const at: PlanLimits = { maxEndpoints: 2, maxFieldsPerType: 2, maxNestingDepth: 1, maxTotalSchemaNodes: 3, maxTotalRegexLength: 3 };
  assert.equal(checkSpecText(text, at).withinLimits, true);
  const below: PlanLimits = { maxEndpoints: 1, maxFieldsPerType: 1, maxNestingDepth: 0, maxTotalSchemaNodes: 2, maxTotalRegexLength: 2 };
  const r = checkSpecText(text, below);
  assert.deepEqual(
    r.checks.map((c) => [c.limit, c.measured, c.allowed, c.over]),
    [
      ['maxEndpoints', 2, 1, true],
      ['maxFieldsPerType', 2, 1, true],
      ['maxNestingDepth', 1, 0, true],
      ['maxTotalSchemaNodes', 3, 2, true],
      ['maxTotalRegexLength', 3, 2, true],
    ],
  );
  assert.deepEqual(r.checks.map(problemText), [
    'endpoints: 2 endpoints (path + method); the plan allows 1 (maxEndpoints)',
    'fields per schema: a schema with 2 properties (components.schemas.A); the plan allows 1 (maxFieldsPerType)',
    'nesting depth: nesting depth 1 (components.schemas.A); the plan allows 0 (maxNestingDepth)',
    'schema nodes: 3 schema nodes in components/schemas; the plan allows 2 (maxTotalSchemaNodes)',
    'regex length: 3 characters of "pattern" regexes; the plan allows 2 (maxTotalRegexLength)',
  ]);
});

test('reading spec files: missing, a directory, binary, empty path, ~ and relative paths', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-spec-'));
  try {
    const rejects = (p: string, re: RegExp) => assert.rejects(readSpecFile(p, dir), (e: unknown) => e instanceof SpecFileError && re.test(e.message));
    await rejects('nope.yaml', new RegExp(`^no such file: ${dir}/nope\\.yaml$`));
    await rejects('.', /is a directory: give the path of an OpenAPI file inside it/);
    await rejects('  ', /no file given: type the path of an OpenAPI 3 file/);
    fs.writeFileSync(path.join(dir, 'bin.json'), Buffer.from([0x7b, 0, 1, 2]));
    await rejects('bin.json', /is a binary file/);
    fs.writeFileSync(path.join(dir, 'a.yaml'), 'openapi: 3.0.0\n');
    const f = await readSpecFile('a.yaml', dir);
    assert.deepEqual([f.path, f.text, f.bytes], [path.join(dir, 'a.yaml'), 'openapi: 3.0.0\n', 15]);
    assert.equal(resolveSpecPath('~/x.yaml', '/cwd', '/home/me'), '/home/me/x.yaml');
    assert.equal(resolveSpecPath(' ../x.yaml ', '/cwd/sub', '/home/me'), '/cwd/x.yaml');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
