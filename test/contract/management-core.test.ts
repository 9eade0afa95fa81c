import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from './call';
import { checkResponse, checkSchema, documentedResponse } from './openapi-schemas';

// Core API endpoints (video libraries, load balancers, pull zones) against core-api.json.
// Where the document leaves a shape out (the plain-array form of /videolibrary, 400 bodies,
// 401 without a body) the shape from platform-api-facts.md is asserted instead.

const emu = await useEmulator();
const ok = (why: string) => assert.equal(why, '', why);

async function unauthorizedHasNoBody(path: string, docPath: string) {
  const denied = await call(emu, 'GET', path, { key: 'wrong' });
  assert.equal(denied.status, 401);
  assert.equal(documentedResponse('core', docPath, 'get', 401), null, 'the document gives 401 no body');
  assert.equal(denied.text, '');
}

test('GET /videolibrary: paginated form, plain-array form, 400 and 401', async () => {
  for (const q of ['?page=1&perPage=5', '?page=3&perPage=100', '?page=1&search=ACME', '?page=999']) {
    const a = await call(emu, 'GET', `/videolibrary${q}`);
    assert.equal(a.status, 200);
    ok(checkResponse('core', '/videolibrary', 'get', 200, a.json));
  }
  for (const q of ['', '?page=0', '?search=tutorials']) {
    const a = await call(emu, 'GET', `/videolibrary${q}`);
    assert.equal(a.status, 200);
    assert.ok(Array.isArray(a.json), `${q || 'no page'} answers a plain array`);
    for (const lib of a.json as unknown[]) ok(checkSchema('core', 'VideoLibraryModel', lib));
  }
  for (const q of ['page=-1', 'page=2147483648', 'page=x', 'perPage=4', 'perPage=1001', 'perPage=5.5']) {
    const bad = await call(emu, 'GET', `/videolibrary?${q}`);
    assert.equal(bad.status, 400, q);
    ok(checkSchema('core', 'ApiErrorData', bad.json));
    assert.deepEqual(Object.keys(obj(bad.json)).sort(), ['ErrorKey', 'Field', 'Message']);
  }
  await unauthorizedHasNoBody('/videolibrary', '/videolibrary');
});

test('GET /loadbalancer and /loadbalancer/{id}: 200, 404, 400, 401', async () => {
  const list = await call(emu, 'GET', '/loadbalancer');
  assert.equal(list.status, 200);
  ok(checkResponse('core', '/loadbalancer', 'get', 200, list.json));
  ok(checkResponse('core', '/loadbalancer', 'get', 200, (await call(emu, 'GET', '/loadbalancer?page=2&count=3')).json));
  for (const p of list.json as { LoadBalancerId: number }[]) {
    const one = await call(emu, 'GET', `/loadbalancer/${p.LoadBalancerId}`);
    assert.equal(one.status, 200);
    ok(checkResponse('core', '/loadbalancer/{loadBalancerId}', 'get', 200, one.json));
  }
  for (const id of ['1', 'abc', '-5', '99999999999999999999']) {
    const missing = await call(emu, 'GET', `/loadbalancer/${id}`);
    assert.equal(missing.status, 404, id);
    ok(checkResponse('core', '/loadbalancer/{loadBalancerId}', 'get', 404, missing.json));
  }
  const bad = await call(emu, 'GET', '/loadbalancer?count=0');
  assert.equal(bad.status, 400);
  ok(checkSchema('core', 'ApiErrorData', bad.json));
  await unauthorizedHasNoBody('/loadbalancer', '/loadbalancer');
  await unauthorizedHasNoBody('/loadbalancer/1', '/loadbalancer/{loadBalancerId}');
});

test('GET /pullzone and /pullzone/{id}: both list forms, 200, 404, 400, 401', async () => {
  const all = await call(emu, 'GET', '/pullzone');
  assert.equal(all.status, 200);
  ok(checkResponse('core', '/pullzone', 'get', 200, all.json));
  const paged = await call(emu, 'GET', '/pullzone?page=1&perPage=5');
  assert.equal(paged.status, 200);
  assert.deepEqual(Object.keys(obj(paged.json)).sort(), ['CurrentPage', 'HasMoreItems', 'Items', 'TotalItems']);
  ok(checkResponse('core', '/pullzone', 'get', 200, obj(paged.json).Items));
  for (const z of all.json as { Id: number }[]) {
    const one = await call(emu, 'GET', `/pullzone/${z.Id}`);
    assert.equal(one.status, 200);
    ok(checkResponse('core', '/pullzone/{id}', 'get', 200, one.json));
  }
  const missing = await call(emu, 'GET', '/pullzone/5');
  assert.equal(missing.status, 404);
  ok(checkSchema('core', 'ApiErrorData', missing.json));
  const bad = await call(emu, 'GET', '/pullzone?perPage=2');
  assert.equal(bad.status, 400);
  ok(checkSchema('core', 'ApiErrorData', bad.json));
  await unauthorizedHasNoBody('/pullzone', '/pullzone');
});
