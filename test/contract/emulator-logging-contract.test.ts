import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { toJsonSchema } from './openapi-schemas';
import { configureLoggingRateLimit } from '../../src/emulator/logging/index';

// The logging document: /v2 responses are LogQueryResponse (200) and ErrorResponse (errors).
const doc = JSON.parse(readFileSync('/work/shared/openapi/logging-api.json', 'utf8')) as {
  components: unknown;
  paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> } }>;
};
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'https://burrow.test/logging.json', components: toJsonSchema(doc.components) });
const V2 = '/v2/pullzones/{pullZoneId}/logs';

function validator(status: number): ValidateFunction {
  const ref = doc.paths[V2]!.get.responses[String(status)]!.content!['application/json']!.schema.$ref;
  return ajv.getSchema(`https://burrow.test/logging.json${ref}`)!;
}

function check(status: number, body: unknown): void {
  const v = validator(status);
  assert.ok(v(body), `${status}: ${JSON.stringify(v.errors?.slice(0, 3))}\n${JSON.stringify(body).slice(0, 400)}`);
}

const T0 = Date.UTC(2026, 7, 8, 14, 0, 0);
const emu = await useEmulator({ seed: 2, now: () => T0, logRate: 2 });
const faulty = await useEmulator({ seed: 2, faults: { latencyMs: 0, error: 1, reset: 0, malformed: 0, ratelimit: 0 } });
const [ZONE] = emu.info.pullZoneIds as [number];

async function get(e: typeof emu, path: string, headers: Record<string, string> = { AccessKey: e.info.accessKey }) {
  const res = await request(`${e.info.loggingUrl}${path}`, { headers });
  const text = await res.body.text();
  return { status: res.statusCode, type: String(res.headers['content-type']), body: JSON.parse(text) as unknown };
}

test('200 bodies validate against LogQueryResponse (additionalProperties false everywhere)', async () => {
  const queries = [
    '',
    '?limit=10000&includeOriginShield=true',
    '?order=asc&limit=500&status=4xx,5xx',
    '?search=video%20MISS&limit=50',
    '?cacheStatus=-&limit=50',
    '?requestId=00000000000000000000000000000000',
    `?from=${new Date(T0 - 3 * 86_400_000 + 60_000).toISOString()}&limit=2000`,
  ];
  let records = 0;
  for (const zone of emu.info.pullZoneIds) {
    for (const q of queries) {
      const a = await get(emu, `/v2/pullzones/${zone}/logs${q}`);
      assert.equal(a.status, 200, q);
      assert.match(a.type, /^application\/json/);
      check(200, a.body);
      records += (a.body as { data: unknown[] }).data.length;
    }
  }
  assert.ok(records > 10_000, `validated ${records} records`);
  // The validator is strict: an unknown field or a wrong type fails.
  const one = (await get(emu, `/v2/pullzones/${ZONE}/logs?limit=1`)).body as { data: Record<string, unknown>[] };
  assert.equal(validator(200)({ ...one, data: [{ ...one.data[0], extra: 1 }] }), false);
  assert.equal(validator(200)({ ...one, data: [{ ...one.data[0], statusCode: '200' }] }), false);
});

test('error bodies validate against ErrorResponse: 400, 401, 403, 404, 429, 500', async () => {
  const bad = await get(emu, `/v2/pullzones/${ZONE}/logs?limit=0&status=x`);
  assert.equal(bad.status, 400);
  check(400, bad.body);
  const none = await get(emu, `/v2/pullzones/${ZONE}/logs`, {});
  assert.equal(none.status, 401);
  check(401, none.body);
  const wrong = await get(emu, `/v2/pullzones/${ZONE}/logs`, { AccessKey: 'wrong' });
  assert.equal(wrong.status, 403);
  check(403, wrong.body);
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  const disabled = await get(emu, `/v2/pullzones/${off.Id}/logs`);
  assert.equal(disabled.status, 404);
  check(404, disabled.body);
  configureLoggingRateLimit(emu.world, { limit: 1, windowMs: 60_000 });
  await get(emu, `/v2/pullzones/${emu.info.pullZoneIds[1]}/logs?limit=1`);
  const limited = await get(emu, `/v2/pullzones/${emu.info.pullZoneIds[1]}/logs?limit=1`);
  assert.equal(limited.status, 429);
  check(429, limited.body);
  const failed = await get(faulty, `/v2/pullzones/${ZONE}/logs`);
  assert.ok(failed.status === 500 || failed.status === 503);
  check(500, failed.body);
  for (const b of [bad, none, wrong, disabled, limited, failed]) assert.match(b.type, /^application\/json/);
});
