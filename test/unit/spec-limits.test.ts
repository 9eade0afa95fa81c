import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify as toYaml } from 'yaml';
import { limitViolations, measureSpec, parseSpecText, SpecError, MAX_RAW_DEPTH } from '../../src/emulator/management/spec-limits';

// The measuring rules written at the top of spec-limits.ts, one by one.

const op = { responses: { '200': { description: 'ok' } } };
const doc = (paths: Record<string, unknown>, schemas?: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: '3.1.0', info: { title: 'T', version: 'v' }, paths, ...(schemas ? { components: { schemas } } : {}), ...extra });
const measure = (text: string) => measureSpec(parseSpecText(text));

test('endpoints: one per (path, method); x- paths and non-method keys do not count', () => {
  const m = measure(
    doc({
      '/a': { get: op, post: op, summary: 's', parameters: [] },
      '/b': { trace: op, head: op, options: op, put: op, patch: op, delete: op },
      'x-ext': { get: op },
      '/c': {},
    }),
  );
  assert.equal(m.endpoints, 8);
});

test('JSON and YAML give the same measures; YAML aliases are expanded', () => {
  const obj = {
    openapi: '3.0.0',
    info: { title: 'T', version: '1' },
    paths: { '/a': { get: op } },
    components: { schemas: { A: { type: 'object', properties: { x: { type: 'string', pattern: 'abc' } } } } },
  };
  const fromJson = measure(JSON.stringify(obj));
  const fromYaml = measure(toYaml(obj));
  assert.deepEqual(fromYaml, fromJson);
  const aliased = measure(`openapi: 3.0.0
info: {title: T, version: '1'}
paths:
  /a: {get: {responses: {'200': {description: ok}}}}
components:
  schemas:
    A: &shape {type: object, properties: {p: {type: string, pattern: abcd}}}
    B: *shape
`);
  assert.equal(aliased.totalRegexLength, 8, 'the alias counts as a second copy');
  assert.equal(aliased.totalSchemaNodes, 4);
});

test('fields per type: the widest properties map anywhere, including operation schemas', () => {
  const m = measure(
    doc(
      {
        '/a': {
          post: { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {} } } } } }, responses: {} },
        },
      },
      { Small: { type: 'object', properties: { a: {}, b: {} } }, Nested: { type: 'array', items: { allOf: [{ properties: { a: {}, b: {}, c: {} } }] } } },
    ),
  );
  assert.equal(m.fieldsPerType, 4);
  assert.match(m.fieldsWhere!, /POST \/a requestBody/);
});

test('nesting depth: +1 per properties value, items and $ref; allOf/anyOf/oneOf/not/additionalProperties add 0', () => {
  const d = (schemas: Record<string, unknown>) => measure(doc({ '/a': { get: op } }, schemas)).nestingDepth;
  assert.equal(d({ A: { type: 'string' } }), 0);
  assert.equal(d({ A: { type: 'object', properties: { b: { type: 'string' } } } }), 1);
  assert.equal(d({ A: { type: 'array', items: { type: 'array', items: { type: 'string' } } } }), 2);
  assert.equal(d({ A: { $ref: '#/components/schemas/B' }, B: { properties: { c: { items: { type: 'string' } } } } }), 3);
  assert.equal(d({ A: { allOf: [{ anyOf: [{ oneOf: [{ not: { additionalProperties: { properties: { x: {} } } } }] }] }] } }), 1);
  // Through an operation: response schema -> $ref -> properties.
  const viaOp = measure(
    doc(
      { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/B' } } } } } } } },
      { B: { properties: { c: { type: 'string' } } } },
    ),
  );
  assert.equal(viaOp.nestingDepth, 2);
});

test('nesting depth: a recursive $ref chain is unbounded and names the chain', () => {
  const m = measure(
    doc({ '/a': { get: op } }, { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } }),
  );
  assert.equal(m.nestingDepth, Number.POSITIVE_INFINITY);
  assert.match(m.nestingNote!, /#\/components\/schemas\/Node/);
  const mutual = measure(
    doc({ '/a': { get: op } }, { A: { allOf: [{ $ref: '#/components/schemas/B' }] }, B: { allOf: [{ $ref: '#/components/schemas/A' }] } }),
  );
  assert.equal(mutual.nestingDepth, Number.POSITIVE_INFINITY);
  const violations = limitViolations(m, { maxEndpoints: 10, maxFieldsPerType: 10, maxNestingDepth: 1000, maxTotalSchemaNodes: 100, maxTotalRegexLength: 100 });
  assert.deepEqual(
    violations.map((v) => v.limit),
    ['maxNestingDepth'],
  );
});

test('shared (non-recursive) $ref targets are measured once each and correctly', () => {
  const schemas: Record<string, unknown> = { Leaf: { type: 'string' } };
  for (let i = 0; i < 40; i++)
    schemas[`L${i}`] = {
      type: 'object',
      properties: {
        a: { $ref: i ? `#/components/schemas/L${i - 1}` : '#/components/schemas/Leaf' },
        b: { $ref: i ? `#/components/schemas/L${i - 1}` : '#/components/schemas/Leaf' },
      },
    };
  // 2^40 paths if walked naively; memoised it is instant. Each level is properties (+1) then $ref (+1).
  const m = measure(doc({ '/a': { get: op } }, schemas));
  assert.equal(m.nestingDepth, 80);
});

test('total schema nodes: structural count over components/schemas only; $ref objects count 1 and are not followed', () => {
  const m = measure(
    doc(
      { '/a': { post: { requestBody: { content: { 'application/json': { schema: { properties: { not: {}, counted: {} } } } } }, responses: {} } } },
      {
        A: { type: 'object', properties: { x: { type: 'string' }, y: { $ref: '#/components/schemas/B' } } }, // 3
        B: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, additionalProperties: { type: 'string' }, not: { type: 'null' } }, // 1 + items 1 + 2 + addl 1 + not 1 = 6
      },
    ),
  );
  assert.equal(m.totalSchemaNodes, 9);
});

test('total regex length: every string "pattern" anywhere; property names called pattern are schemas, not strings', () => {
  const m = measure(
    doc(
      { '/a': { get: { parameters: [{ name: 'id', in: 'query', schema: { type: 'string', pattern: '^[0-9]+$' } }], responses: {} } } },
      { A: { properties: { pattern: { type: 'string', pattern: 'ab' } } }, E: { type: 'string', example: { pattern: 'xyz' } } },
    ),
  );
  assert.equal(m.totalRegexLength, 8 + 2 + 3);
});

test('parameters from the path item and the operation, $ref parameters resolved', () => {
  const text = doc(
    {
      '/a/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        get: { parameters: [{ name: 'q', in: 'query', schema: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {}, e: {} } } }], responses: {} },
      },
    },
    undefined,
    { components: { parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^x$' } } } } },
  );
  const spec = parseSpecText(text);
  assert.deepEqual(
    spec.operations[0]!.parameters.map((p) => p.name),
    ['id', 'q'],
  );
  const m = measureSpec(spec);
  assert.equal(m.fieldsPerType, 5);
  assert.equal(m.totalRegexLength, 3);
});

test('invalid documents are refused with a reason', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['{"a":', /not valid JSON/],
    ['[1, 2]', /must be a JSON or YAML object/],
    ['a: [b', /neither JSON nor valid YAML/],
    [JSON.stringify({ openapi: '2.0', info: { title: 'a', version: 'b' }, paths: {} }), /no "openapi" version 3/],
    [JSON.stringify({ openapi: '3.0.0', info: { title: 'a' }, paths: {} }), /info.title and info.version/],
    [JSON.stringify({ openapi: '3.0.0', info: { title: 'a', version: '1' } }), /"paths" must be an object/],
    [doc({ nope: { get: op } }), /must begin with "\/"/],
    [doc({ '/a': { get: { $ref: '#/x/y' } } }), /does not resolve/],
    [doc({ '/a': { get: op } }, { A: { $ref: 'other.yaml#/A' } }), /external \$ref/],
    [doc({ '/a': { get: op } }, { A: { $ref: 'components/schemas/B' } }), /external \$ref/],
    ['x: &a [*a]', /nested more than|recursive YAML alias/],
    [
      doc({ '/a': { post: { requestBody: { $ref: '#/components/requestBodies/A' } } } }, undefined, {
        components: { requestBodies: { A: { $ref: '#/components/requestBodies/A' } } },
      }),
      /is circular/,
    ],
    [
      `{"openapi":"3.0.0","info":{"title":"a","version":"1"},"paths":{},"x":${'['.repeat(MAX_RAW_DEPTH + 5)}${']'.repeat(MAX_RAW_DEPTH + 5)}}`,
      /nested more than 200 levels/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => measure(text),
      (e: unknown) => e instanceof SpecError && message.test(e.message),
      text.slice(0, 60),
    );
  }
});

test('limit violations list each exceeded limit with measured and allowed; equal is allowed', () => {
  const limits = { maxEndpoints: 2, maxFieldsPerType: 2, maxNestingDepth: 1, maxTotalSchemaNodes: 3, maxTotalRegexLength: 3 };
  const atLimit = measure(doc({ '/a': { get: op, put: op } }, { A: { properties: { a: { pattern: 'abc' }, b: {} } } }));
  assert.deepEqual(limitViolations(atLimit, limits), []);
  const over = measure(doc({ '/a': { get: op, put: op, post: op } }, { A: { properties: { a: { pattern: 'abcd', properties: { z: {} } }, b: {}, c: {} } } }));
  assert.deepEqual(
    limitViolations(over, limits).map((v) => [v.limit, v.measured, v.allowed]),
    [
      ['maxEndpoints', 3, 2],
      ['maxFieldsPerType', 3, 2],
      ['maxNestingDepth', 2, 1],
      ['maxTotalSchemaNodes', 5, 3],
      ['maxTotalRegexLength', 4, 3],
    ],
  );
});
