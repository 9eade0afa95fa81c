import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiErrorFromResponse, parseErrorBody } from '../../src/api/errors';

const ctx = { method: 'GET', path: '/x' };

test('shield envelope: message and errorKey from error', () => {
  const e = apiErrorFromResponse(
    403,
    'application/json',
    JSON.stringify({
      error: { statusCode: 403, success: false, message: 'API Guardian is not in this plan', errorKey: 'invalid_plan_type.api_guardian' },
      data: null,
    }),
    ctx,
  );
  assert.equal(e.status, 403);
  assert.equal(e.code, 'invalid_plan_type.api_guardian');
  assert.match(e.message, /^403 Forbidden invalid_plan_type\.api_guardian: API Guardian is not in this plan$/);
});

test('logging envelope with details', () => {
  const e = apiErrorFromResponse(
    400,
    'application/json',
    JSON.stringify({ error: { code: 'invalid_request', message: 'bad query', details: ['limit must be <= 10000'] } }),
    ctx,
  );
  assert.equal(e.code, 'invalid_request');
  assert.match(e.message, /bad query/);
  assert.match(e.message, /limit must be <= 10000/);
});

test('MC validation shape maps errors[] to field errors', () => {
  const e = apiErrorFromResponse(
    400,
    'application/problem+json',
    JSON.stringify({
      title: 'Validation failed',
      status: 400,
      detail: 'One or more fields are invalid',
      instance: '/mc/apps/x/region-settings',
      errors: [{ field: 'requiredRegionIds', message: 'must be a subset of allowedRegionIds' }],
      id: 'x',
    }),
    ctx,
  );
  assert.deepEqual(e.fieldErrors, [{ field: 'requiredRegionIds', message: 'must be a subset of allowedRegionIds' }]);
  assert.match(e.message, /One or more fields are invalid \(requiredRegionIds: must be a subset of allowedRegionIds\)/);
});

test('ProblemDetails 401', () => {
  const e = apiErrorFromResponse(
    401,
    'application/json',
    JSON.stringify({ type: 'https://tools.ietf.org/html/rfc9110#section-15.5.2', title: 'Unauthorized', status: 401 }),
    ctx,
  );
  assert.equal(e.message, '401 Unauthorized: Unauthorized');
  assert.equal(e.code, null, 'a URL type is not an error code');
});

test('core ErrorKey/Field/Message', () => {
  const e = apiErrorFromResponse(
    404,
    'application/json',
    JSON.stringify({ ErrorKey: 'loadbalancer.not_found', Field: 'Id', Message: 'The load balancer was not found' }),
    ctx,
  );
  assert.equal(e.code, 'loadbalancer.not_found');
  assert.deepEqual(e.fieldErrors, [{ field: 'Id', message: 'The load balancer was not found' }]);
  assert.match(e.message, /404 Not Found loadbalancer\.not_found: The load balancer was not found/);
});

test('database AppError {error: string}', () => {
  assert.equal(parseErrorBody({ error: 'database not found' }).message, 'database not found');
});

test('hrana {message, code}', () => {
  assert.deepEqual(parseErrorBody({ message: 'Authorization forbidden', code: 'AUTH' }), { message: 'Authorization forbidden', code: 'AUTH', fieldErrors: [] });
});

test('empty body gets a hint by status', () => {
  const e = apiErrorFromResponse(401, null, '', ctx);
  assert.match(e.message, /^401 Unauthorized: the credentials were refused/);
});

test('HTML error page is named as such, with its title', () => {
  const e = apiErrorFromResponse(404, 'text/html', '<!DOCTYPE html><html><head><title>404 - Page Not Found</title></head></html>', ctx);
  assert.match(e.message, /HTML page \("404 - Page Not Found"\)/);
});

test('plain text body is shown on one line', () => {
  const e = apiErrorFromResponse(502, 'text/plain', 'upstream connect error\nmore', ctx);
  assert.equal(e.message, '502 Bad Gateway: upstream connect error');
  assert.ok(e.transient);
});

test('non-JSON that looks like JSON falls back to text', () => {
  const e = apiErrorFromResponse(500, 'application/json', '{"truncated": tr', ctx);
  assert.match(e.message, /^500 Internal Server Error: \{"truncated": tr/);
});
