import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify as toYaml } from 'yaml';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from '../contract/call';

const emu = await useEmulator();

interface Zone {
  shieldZoneId: number;
  pullZoneId: number;
  planType: number;
}
interface Config {
  [k: string]: unknown;
  isEnabled: boolean;
  executionMode: number;
  bodyLimitAction: number;
  unmatchedPathAction: number;
  title: string | null;
  version: string | null;
  updatedAt: string | null;
  maxEndpoints: number;
  maxFieldsPerType: number;
  maxNestingDepth: number;
  maxTotalSchemaNodes: number;
  maxTotalRegexLength: number;
}
interface Endpoint {
  apiGuardianEndpointId: number;
  requestMethod: string;
  requestPath: string;
  validateAuthorization: boolean;
  authSchemes: unknown[] | null;
  availableParameters: Record<string, string[]>;
}

const zones = obj((await call(emu, 'GET', '/shield/shield-zones?perPage=1000')).json).data as Zone[];
const guardian = async (id: number) => {
  const a = await call(emu, 'GET', `/shield/shield-zone/${id}/api-guardian`);
  assert.equal(a.status, 200, a.text);
  return obj(obj(a.json).data) as { configuration: Config; endpoints: Endpoint[] };
};
const errorOf = (json: unknown) => obj(obj(json).error) as { statusCode: number; success: boolean; message: string; errorKey: string };

/** A paid zone whose plan is Advanced (the smallest limits), and whether it has a spec. */
async function zoneWith(plan: number, hasSpec: boolean): Promise<number> {
  for (const z of zones.filter((x) => x.planType === plan)) {
    const g = await guardian(z.shieldZoneId);
    if ((g.configuration.title !== null) === hasSpec) return z.shieldZoneId;
  }
  throw new Error(`no zone with plan ${plan} and spec=${hasSpec}`);
}

function specDoc(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}, title = 'Test API', version = '9.8.7') {
  return { openapi: '3.0.3', info: { title, version }, paths, components: { schemas } };
}
const op = { responses: { '200': { description: 'ok' } } };

test('the seeded world: ~10 zones on pull zones, every plan, some specs, Basic without API Guardian', async () => {
  assert.equal(zones.length, 10);
  const pullZoneIds = new Set(emu.world.pullZones.map((z) => z.Id));
  for (const z of zones) assert.ok(pullZoneIds.has(z.pullZoneId), `zone ${z.shieldZoneId} sits on a pull zone`);
  assert.deepEqual([...new Set(zones.map((z) => z.planType))].sort(), [0, 1, 2, 3]);
  let withSpec = 0;
  for (const z of zones) {
    const a = await call(emu, 'GET', `/shield/shield-zone/${z.shieldZoneId}/api-guardian`);
    if (z.planType === 0) {
      assert.equal(a.status, 403);
      assert.equal(errorOf(a.json).errorKey, 'invalid_plan_type.api_guardian');
      continue;
    }
    const g = obj(obj(a.json).data) as { configuration: Config; endpoints: Endpoint[] };
    if (g.configuration.title) {
      withSpec++;
      assert.ok(g.endpoints.length > 0 && g.endpoints.length <= g.configuration.maxEndpoints);
    } else assert.equal(g.endpoints.length, 0);
  }
  assert.ok(withSpec >= 2 && withSpec < 8, `some zones have a spec (${withSpec})`);
});

test('shield zone paging: defaults 1/10, page sizes, next page, out of range, bad values', async () => {
  const first = obj((await call(emu, 'GET', '/shield/shield-zones')).json);
  assert.deepEqual(first.page, { totalCount: 10, totalPages: 1, currentPage: 1, nextPage: null, pageSize: 10 });
  const seen: number[] = [];
  for (let page = 1; page <= 4; page++) {
    const a = obj((await call(emu, 'GET', `/shield/shield-zones?page=${page}&perPage=3`)).json);
    assert.deepEqual(a.page, { totalCount: 10, totalPages: 4, currentPage: page, nextPage: page < 4 ? page + 1 : null, pageSize: 3 });
    seen.push(...(a.data as Zone[]).map((z) => z.shieldZoneId));
  }
  assert.deepEqual(
    seen,
    zones.map((z) => z.shieldZoneId),
  );
  assert.deepEqual(obj((await call(emu, 'GET', '/shield/shield-zones?page=5&perPage=3')).json).data, []);
  for (const q of ['page=0', 'page=-2', 'perPage=0', 'perPage=1001', 'page=x']) {
    const bad = await call(emu, 'GET', `/shield/shield-zones?${q}`);
    assert.equal(bad.status, 400, q);
    assert.ok(obj(bad.json).errors, q);
  }
});

test('shield zone ids: non-int32 -> 400 binding error, unknown -> 404 envelope', async () => {
  for (const id of ['abc', '2147483648', '1.5']) {
    const a = await call(emu, 'GET', `/shield/shield-zone/${id}/api-guardian`);
    assert.equal(a.status, 400, id);
    assert.match(JSON.stringify(obj(a.json).errors), /is not valid/);
  }
  const missing = await call(emu, 'GET', '/shield/shield-zone/42/api-guardian');
  assert.equal(missing.status, 404);
  assert.deepEqual(errorOf(missing.json), { statusCode: 404, success: false, message: 'Shield zone 42 was not found', errorKey: 'shield_zone.not_found' });
});

test('PATCH api-guardian changes only the given fields; null leaves a field; updatedAt is set', async () => {
  const id = zones.find((z) => z.planType === 2)!.shieldZoneId;
  const before = (await guardian(id)).configuration;
  const mode = before.executionMode === 1 ? 0 : 1;
  const a = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian`, { body: { executionMode: mode, isEnabled: null } });
  assert.equal(a.status, 200);
  assert.deepEqual(errorOf(a.json), { statusCode: 200, success: true, message: null, errorKey: null });
  const after = obj(obj(a.json).data) as Config;
  assert.equal(after.executionMode, mode);
  assert.notEqual(after.updatedAt, null);
  assert.ok(Date.now() - Date.parse(after.updatedAt!) < 60_000);
  const { executionMode: _a, updatedAt: _b, ...restBefore } = before;
  const { executionMode: _c, updatedAt: _d, ...restAfter } = after;
  assert.deepEqual(restAfter, restBefore, 'no other field changed');
  assert.deepEqual((await guardian(id)).configuration, after, 'the change is kept');
  const all = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian`, {
    body: { isEnabled: !before.isEnabled, bodyLimitAction: 2, unmatchedPathAction: 1 },
  });
  const c = obj(obj(all.json).data) as Config;
  assert.deepEqual([c.isEnabled, c.bodyLimitAction, c.unmatchedPathAction, c.executionMode], [!before.isEnabled, 2, 1, mode]);
});

test('PATCH api-guardian refuses unknown fields, bad enum values, wrong types and bad JSON, and changes nothing', async () => {
  const id = zones.find((z) => z.planType === 3)!.shieldZoneId;
  const before = (await guardian(id)).configuration;
  const cases: [unknown, string, RegExp][] = [
    [{ isEnabled: true, mode: 1 }, 'api_guardian.unknown_field', /unknown field "mode"/],
    [{ executionMode: 2 }, 'api_guardian.invalid_value', /executionMode must be 0 \(Log\) or 1 \(Block\), got 2/],
    [{ bodyLimitAction: 3 }, 'api_guardian.invalid_value', /bodyLimitAction must be 0 \(Block\), 1 \(Log\) or 2 \(Ignore\)/],
    [{ unmatchedPathAction: 'Block' }, 'api_guardian.invalid_value', /unmatchedPathAction/],
    [{ isEnabled: 'yes' }, 'api_guardian.invalid_value', /isEnabled must be true, false or null/],
    ['[]', 'api_guardian.invalid_body', /JSON object/],
    ['{"isEnabled": tru', 'api_guardian.invalid_body', /not valid JSON/],
  ];
  for (const [body, key, message] of cases) {
    const a = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian`, { body });
    assert.equal(a.status, 400, JSON.stringify(body));
    assert.equal(errorOf(a.json).errorKey, key);
    assert.match(errorOf(a.json).message, message);
  }
  assert.deepEqual((await guardian(id)).configuration, before);
});

test('spec upload within limits: title/version land in the configuration, endpoints come from paths x methods', async () => {
  const id = await zoneWith(1, false);
  const doc = specDoc(
    {
      '/pets': {
        get: op,
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          responses: { '201': { description: 'c', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        get: { ...op, parameters: [{ name: 'X-Trace', in: 'header', schema: { type: 'string' } }] },
        delete: op,
        summary: 'not a method',
      },
      'x-internal': { get: op },
    },
    { Pet: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } },
  );
  const yamlText = toYaml({
    ...doc,
    security: [{ key: [] }],
    components: { ...doc.components, securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
  });
  const a = await call(emu, 'POST', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: yamlText } });
  assert.equal(a.status, 200, a.text);
  const data = obj(obj(a.json).data) as { configuration: Config; endpoints: Endpoint[] };
  assert.equal(data.configuration.title, 'Test API');
  assert.equal(data.configuration.version, '9.8.7');
  assert.deepEqual(data.endpoints.map((e) => `${e.requestMethod} ${e.requestPath}`).sort(), [
    'DELETE /pets/{petId}',
    'GET /pets',
    'GET /pets/{petId}',
    'POST /pets',
  ]);
  const getOne = data.endpoints.find((e) => e.requestMethod === 'GET' && e.requestPath === '/pets/{petId}')!;
  assert.deepEqual(getOne.availableParameters, { Path: ['petId'], Query: [], Header: ['X-Trace'], Cookie: [] });
  assert.equal(getOne.validateAuthorization, true, 'enforceAuthorizationValidation defaults to true on upload');
  assert.deepEqual(getOne.authSchemes, [{ schemeName: 'key', schemeType: 'ApiKey', location: 'Header', credentialName: 'X-Key', httpScheme: null }]);
  assert.deepEqual(await guardian(id), data);

  // A second POST is refused: PATCH replaces. A replace without the flag keeps each endpoint's auth setting and id.
  const again = await call(emu, 'POST', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: yamlText } });
  assert.equal(again.status, 400);
  assert.equal(errorOf(again.json).errorKey, 'api_guardian.spec_already_exists');
  const off = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: yamlText, enforceAuthorizationValidation: false } });
  assert.ok((obj(obj(off.json).data).endpoints as Endpoint[]).every((e) => e.validateAuthorization === false));
  const renamed = yamlText.replace('Test API', 'Renamed API');
  const kept = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: renamed } });
  const keptData = obj(obj(kept.json).data) as { configuration: Config; endpoints: Endpoint[] };
  assert.equal(keptData.configuration.title, 'Renamed API');
  assert.ok(keptData.endpoints.every((e) => e.validateAuthorization === false));
  assert.deepEqual(keptData.endpoints.map((e) => e.apiGuardianEndpointId).sort(), data.endpoints.map((e) => e.apiGuardianEndpointId).sort());
});

test('PATCH spec on a zone without a spec -> 404 spec_not_found', async () => {
  const id = await zoneWith(2, false).catch(() => zoneWith(3, false));
  const a = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: JSON.stringify(specDoc({ '/a': { get: op } })) } });
  assert.equal(a.status, 404);
  assert.equal(errorOf(a.json).errorKey, 'api_guardian.spec_not_found');
});

test('a spec over each plan limit is refused with the limit named, measured vs allowed', async () => {
  const id = await zoneWith(1, true);
  const before = await guardian(id);
  const limits = before.configuration;
  const manyPaths = Object.fromEntries(Array.from({ length: limits.maxEndpoints + 1 }, (_, i) => [`/r${i}`, { get: op }]));
  const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: limits.maxFieldsPerType + 1 }, (_, i) => [`f${i}`, { type: 'string' }])) };
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < limits.maxNestingDepth + 1; i++) deep = { type: 'object', properties: { next: deep } };
  const nodes = Object.fromEntries(Array.from({ length: limits.maxTotalSchemaNodes + 1 }, (_, i) => [`S${i}`, { type: 'string' }]));
  const regex = { type: 'string', pattern: 'a'.repeat(limits.maxTotalRegexLength + 1) };
  const cases: [string, unknown, RegExp][] = [
    ['maxEndpoints', specDoc(manyPaths), new RegExp(`maxEndpoints: ${limits.maxEndpoints + 1} endpoints, allowed ${limits.maxEndpoints}`)],
    [
      'maxFieldsPerType',
      specDoc({ '/a': { get: op } }, { Wide: wide }),
      new RegExp(`maxFieldsPerType: ${limits.maxFieldsPerType + 1} properties in one schema \\(components.schemas.Wide\\), allowed ${limits.maxFieldsPerType}`),
    ],
    [
      'maxNestingDepth',
      specDoc({ '/a': { get: op } }, { Deep: deep }),
      new RegExp(`maxNestingDepth: nesting depth ${limits.maxNestingDepth + 1} .*allowed ${limits.maxNestingDepth}`),
    ],
    [
      'maxTotalSchemaNodes',
      specDoc({ '/a': { get: op } }, nodes),
      new RegExp(`maxTotalSchemaNodes: ${limits.maxTotalSchemaNodes + 1} schema nodes in components/schemas, allowed ${limits.maxTotalSchemaNodes}`),
    ],
    [
      'maxTotalRegexLength',
      specDoc({ '/a': { get: op } }, { R: regex }),
      new RegExp(`maxTotalRegexLength: ${limits.maxTotalRegexLength + 1} characters of pattern regexes, allowed ${limits.maxTotalRegexLength}`),
    ],
    [
      'recursion',
      specDoc({ '/a': { get: op } }, { Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } }),
      /maxNestingDepth: unbounded nesting \(recursive \$ref chain/,
    ],
  ];
  for (const [name, doc, message] of cases) {
    const a = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: JSON.stringify(doc) } });
    assert.equal(a.status, 400, name);
    assert.equal(errorOf(a.json).errorKey, 'api_guardian.spec_limit_exceeded', name);
    assert.match(errorOf(a.json).message, message, name);
  }
  // Exactly at every limit is accepted.
  const atLimit = specDoc(Object.fromEntries(Array.from({ length: limits.maxEndpoints }, (_, i) => [`/r${i}`, { get: op }])), {
    W: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: limits.maxFieldsPerType }, (_, i) => [
          `f${i}`,
          { type: 'string', pattern: i === 0 ? 'x'.repeat(limits.maxTotalRegexLength) : undefined },
        ]),
      ),
    },
  });
  const accepted = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: JSON.stringify(atLimit) } });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal((obj(obj(accepted.json).data).endpoints as unknown[]).length, limits.maxEndpoints);
});

test('unparsable or non-OpenAPI content is refused with api_guardian.invalid_spec, and the old spec stays', async () => {
  const id = await zoneWith(3, true);
  const before = await guardian(id);
  const cases: [string, RegExp][] = [
    ['{"openapi": "3.0.0", ', /not valid JSON/],
    ['key: [unclosed', /neither JSON nor valid YAML/],
    ['just a string', /must be a JSON or YAML object/],
    [JSON.stringify({ swagger: '2.0', info: { title: 'a', version: '1' }, paths: {} }), /Swagger 2.0 is not supported/],
    [JSON.stringify({ openapi: '3.0.0', paths: {} }), /info.title and info.version/],
    [JSON.stringify(specDoc({ '/a': { get: { responses: { '200': { $ref: '#/components/responses/Nope' } } } } })), /does not resolve/],
    [JSON.stringify(specDoc({ '/a': { get: op } }, { A: { $ref: 'https://example.com/a.json' } })), /external \$ref/],
    ['a: &x [*x]', /recursive YAML alias|nested more than/],
  ];
  for (const [content, message] of cases) {
    const a = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content } });
    assert.equal(a.status, 400, content);
    assert.equal(errorOf(a.json).errorKey, 'api_guardian.invalid_spec', content);
    assert.match(errorOf(a.json).message, message, content);
  }
  const empty = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian/spec`, { body: { content: '  ' } });
  assert.equal(errorOf(empty.json).errorKey, 'api_guardian.content_required');
  assert.deepEqual(await guardian(id), before);
});
