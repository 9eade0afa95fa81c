import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from './call';
import { checkResponse, checkSchema } from './openapi-schemas';

// Every shield endpoint burrow uses, success and error answers, against shield-api.json.

const emu = await useEmulator();
const ZONES = '/shield/shield-zones';
const ZONE = '/shield/shield-zone/{shieldZoneId}';
const GUARDIAN = '/shield/shield-zone/{shieldZoneId}/api-guardian';
const SPEC = '/shield/shield-zone/{shieldZoneId}/api-guardian/spec';

const list = await call(emu, 'GET', `${ZONES}?perPage=100`);
const zones = obj(list.json).data as { shieldZoneId: number; planType: number }[];
const basic = zones.find((z) => z.planType === 0)!.shieldZoneId;
const paid = zones.filter((z) => z.planType !== 0).map((z) => z.shieldZoneId);
const SMALL_SPEC = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Contract', version: '1' },
  paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
});

const ok = (why: string) => assert.equal(why, '', why);
/** Errors that the document does not list for an operation: the envelope must still fit the family's schema. */
const envelopeOnly = (body: unknown) => {
  ok(checkSchema('shield', 'GenericRequestResponse', obj(body).error));
  assert.deepEqual(Object.keys(obj(body)), ['error']);
};

test('GET shield-zones: 200 (default and explicit paging) and 401', async () => {
  for (const q of ['', '?page=1&perPage=3', '?page=2&perPage=4', '?page=99']) {
    const a = await call(emu, 'GET', ZONES + q);
    assert.equal(a.status, 200);
    ok(checkResponse('shield', ZONES, 'get', 200, a.json));
  }
  const denied = await call(emu, 'GET', ZONES, { key: 'wrong' });
  assert.equal(denied.status, 401);
  ok(checkResponse('shield', ZONES, 'get', 401, denied.json));
  const bad = await call(emu, 'GET', `${ZONES}?perPage=abc`);
  assert.equal(bad.status, 400);
  ok(checkSchema('shield', 'ProblemDetails', bad.json));
});

test('GET shield-zone/{id}: 200 for every zone, 401, and the error answers', async () => {
  for (const z of zones) {
    const a = await call(emu, 'GET', `/shield/shield-zone/${z.shieldZoneId}`);
    assert.equal(a.status, 200);
    ok(checkResponse('shield', ZONE, 'get', 200, a.json));
  }
  const denied = await call(emu, 'GET', `/shield/shield-zone/${paid[0]}`, { key: null });
  assert.equal(denied.status, 401);
  ok(checkResponse('shield', ZONE, 'get', 401, denied.json));
  const missing = await call(emu, 'GET', '/shield/shield-zone/1');
  assert.equal(missing.status, 404);
  envelopeOnly(missing.json);
  const malformed = await call(emu, 'GET', '/shield/shield-zone/2147483648');
  assert.equal(malformed.status, 400);
  ok(checkSchema('shield', 'ProblemDetails', malformed.json));
});

test('GET api-guardian: 200 for every paid zone, 403 (plan), 404, 401', async () => {
  for (const id of paid) {
    const a = await call(emu, 'GET', `/shield/shield-zone/${id}/api-guardian`);
    assert.equal(a.status, 200);
    ok(checkResponse('shield', GUARDIAN, 'get', 200, a.json));
  }
  const plan = await call(emu, 'GET', `/shield/shield-zone/${basic}/api-guardian`);
  assert.equal(plan.status, 403);
  ok(checkResponse('shield', GUARDIAN, 'get', 403, plan.json));
  const missing = await call(emu, 'GET', '/shield/shield-zone/7/api-guardian');
  assert.equal(missing.status, 404);
  ok(checkResponse('shield', GUARDIAN, 'get', 404, missing.json));
  const denied = await call(emu, 'GET', `/shield/shield-zone/${paid[0]}/api-guardian`, { key: 'nope' });
  assert.equal(denied.status, 401);
  ok(checkResponse('shield', GUARDIAN, 'get', 401, denied.json));
});

test('PATCH api-guardian: 200, 403, 404, 401 and validation errors', async () => {
  const id = paid[1]!;
  const a = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian`, { body: { executionMode: 1, isEnabled: null } });
  assert.equal(a.status, 200);
  ok(checkResponse('shield', GUARDIAN, 'patch', 200, a.json));
  const plan = await call(emu, 'PATCH', `/shield/shield-zone/${basic}/api-guardian`, { body: { isEnabled: true } });
  assert.equal(plan.status, 403);
  ok(checkResponse('shield', GUARDIAN, 'patch', 403, plan.json));
  const missing = await call(emu, 'PATCH', '/shield/shield-zone/9/api-guardian', { body: { isEnabled: true } });
  assert.equal(missing.status, 404);
  ok(checkResponse('shield', GUARDIAN, 'patch', 404, missing.json));
  const denied = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian`, { key: null, body: { isEnabled: true } });
  assert.equal(denied.status, 401);
  ok(checkResponse('shield', GUARDIAN, 'patch', 401, denied.json));
  for (const body of [{ colour: 'red' }, { executionMode: 5 }, '{"isEnabled": tr', '[1]']) {
    const bad = await call(emu, 'PATCH', `/shield/shield-zone/${id}/api-guardian`, { body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    ok(checkResponse('shield', GUARDIAN, 'patch', 200, bad.json));
    envelopeOnly(bad.json);
  }
});

test('POST and PATCH api-guardian/spec: 200, 403, 404, 401 and refusals', async () => {
  // A zone without a spec takes a POST; then PATCH replaces it.
  let fresh: number | undefined;
  for (const id of paid) {
    const g = await call(emu, 'GET', `/shield/shield-zone/${id}/api-guardian`);
    if (obj(obj(obj(g.json).data).configuration).title === null) fresh = id;
  }
  assert.ok(fresh, 'the seeded world has a paid zone without a spec');
  const up = await call(emu, 'POST', `/shield/shield-zone/${fresh}/api-guardian/spec`, { body: { content: SMALL_SPEC } });
  assert.equal(up.status, 200);
  ok(checkResponse('shield', SPEC, 'post', 200, up.json));
  const rep = await call(emu, 'PATCH', `/shield/shield-zone/${fresh}/api-guardian/spec`, {
    body: { content: SMALL_SPEC, enforceAuthorizationValidation: false },
  });
  assert.equal(rep.status, 200);
  ok(checkResponse('shield', SPEC, 'patch', 200, rep.json));
  for (const method of ['post', 'patch'] as const) {
    const plan = await call(emu, method.toUpperCase(), `/shield/shield-zone/${basic}/api-guardian/spec`, { body: { content: SMALL_SPEC } });
    assert.equal(plan.status, 403);
    ok(checkResponse('shield', SPEC, method, 403, plan.json));
    const missing = await call(emu, method.toUpperCase(), '/shield/shield-zone/3/api-guardian/spec', { body: { content: SMALL_SPEC } });
    assert.equal(missing.status, 404);
    ok(checkResponse('shield', SPEC, method, 404, missing.json));
    const denied = await call(emu, method.toUpperCase(), `/shield/shield-zone/${fresh}/api-guardian/spec`, { key: null, body: { content: SMALL_SPEC } });
    assert.equal(denied.status, 401);
    ok(checkResponse('shield', SPEC, method, 401, denied.json));
    for (const body of [{ content: '' }, { content: ': : nope' }, { content: SMALL_SPEC, extra: 1 }, 'not json']) {
      const bad = await call(emu, method.toUpperCase(), `/shield/shield-zone/${fresh}/api-guardian/spec`, { body });
      assert.equal(bad.status, 400, JSON.stringify(body));
      ok(checkResponse('shield', SPEC, method, 200, bad.json));
      envelopeOnly(bad.json);
    }
  }
});
