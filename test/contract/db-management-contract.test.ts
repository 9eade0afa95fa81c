import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { toJsonSchema } from './openapi-schemas';

// Database management answers of the emulator against database-api.json, plus their behaviour
// (paging, expiry, revocation) with a clock the test moves.

const doc = JSON.parse(readFileSync('/work/shared/openapi/database-api.json', 'utf8')) as { components: unknown };
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'https://burrow.test/database.json', components: toJsonSchema(doc.components) });
function check(schema: string, value: unknown): string {
  const v = ajv.compile({ $ref: `https://burrow.test/database.json#/components/schemas/${schema}` });
  return v(value) ? '' : `${schema}: ${JSON.stringify(v.errors?.slice(0, 3))}`;
}

let clock = Date.UTC(2026, 10, 21, 12, 0, 0);
const emu = await useEmulator({ now: () => clock, logRate: 0 });
const base = `${emu.info.baseUrl}/database/v2/databases`;

async function call(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, key = emu.info.accessKey) {
  const res = await request(`${base}${path}`, {
    method,
    headers: { AccessKey: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

async function pipeline(token: string, url = emu.info.databaseUrl) {
  const res = await request(`${url.replace(/\/$/, '')}/v2/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: JSON.stringify({ requests: [{ type: 'execute', stmt: { sql: 'SELECT 1' } }, { type: 'close' }] }),
  });
  return { status: res.statusCode, body: await res.body.text() };
}

test('list and read validate against ListDatabaseV2Response / ReadDatabaseV2Response; paging and search', async () => {
  const all = await call('GET', '?page=1');
  assert.equal(all.status, 200);
  assert.equal(check('ListDatabaseV2Response', all.json), '');
  const dbs = all.json!.databases as { id: string; name: string; url: string }[];
  assert.deepEqual(
    dbs.map((d) => d.name),
    ['burrow-demo', 'analytics-events', 'inventory-eu'],
  );
  assert.equal(dbs[0]!.url, emu.info.databaseUrl, 'the primary database is the database origin');
  assert.deepEqual(all.json!.page_info, { current_page: 1, total_items: 3, has_more_items: false });
  const page2 = await call('GET', '?page=2&per_page=2');
  assert.deepEqual(
    (page2.json!.databases as { name: string }[]).map((d) => d.name),
    ['inventory-eu'],
  );
  assert.deepEqual(page2.json!.page_info, { current_page: 2, total_items: 3, has_more_items: false });
  const first = await call('GET', '?page=1&per_page=2');
  assert.equal((first.json!.page_info as { has_more_items: boolean }).has_more_items, true);
  const search = await call('GET', '?page=1&search=EVENTS');
  assert.deepEqual(
    (search.json!.databases as { name: string }[]).map((d) => d.name),
    ['analytics-events'],
  );
  const one = await call('GET', `/${dbs[1]!.id}`);
  assert.equal(check('ReadDatabaseV2Response', one.json), '');
  assert.equal((one.json!.db as { name: string }).name, 'analytics-events');
});

test('errors are AppError {error, details?}: page missing or 0, bad per_page, unknown database, bad generate bodies', async () => {
  const cases: [Promise<{ status: number; json: Record<string, unknown> | null }>, number, RegExp][] = [
    [call('GET', ''), 400, /missing field `page`/],
    [call('GET', '?page=0'), 400, /page/],
    [call('GET', '?page=1&per_page=-3'), 400, /per_page/],
    [call('GET', '/db_nope'), 404, /not found/],
    [call('PUT', '/db_nope/auth/generate', { authorization: 'full-access' }), 404, /not found/],
    [call('PUT', `/${'db_01KCHBG8C5KSFGG0VRNFQ7EK7X'}/auth/generate`, { authorization: 'admin' }), 422, /authorization/],
    [call('PUT', `/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate`, { authorization: 'read-only', expires_at: 'tomorrow' }), 422, /RFC 3339/],
    [call('PUT', `/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate`, '{"authorization":'), 400, /JSON/],
    [call('PUT', `/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate`, { authorization: 'read-only', expires_at: '2020-01-01T00:00:00Z' }), 400, /future/],
    [call('POST', '/db_nope/auth/revoke'), 404, /not found/],
  ];
  for (const [p, status, re] of cases) {
    const r = await p;
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(check('AppError', r.json), '');
    assert.match(String(r.json!.error), re);
  }
  const noKey = await call('GET', '?page=1', undefined, 'wrong');
  assert.equal(noKey.status, 401);
  assert.equal(check('AppError', noKey.json), '');
});

test('generate: GenerateTokenDatabaseV2Response; an expiring token works until its time, then 401 "has expired"', async () => {
  const expires = new Date(clock + 3_600_000).toISOString().replace(/\.000Z$/, 'Z');
  const gen = await call('PUT', '/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate', { authorization: 'full-access', expires_at: expires });
  assert.equal(gen.status, 200);
  assert.equal(check('GenerateTokenDatabaseV2Response', gen.json), '');
  assert.equal(gen.json!.expires_at, expires);
  const token = gen.json!.token as string;
  assert.match(token, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.deepEqual(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()), { typ: 'JWT', alg: 'EdDSA' });
  assert.equal((await pipeline(token)).status, 200);
  clock += 2 * 3_600_000;
  const late = await pipeline(token);
  assert.equal(late.status, 401);
  assert.equal(late.body, '{"error":"Unauthorized: `The JWT has expired`"}');
  const never = await call('PUT', '/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate', { authorization: 'read-only', expires_at: null });
  assert.equal(never.json!.expires_at, null);
});

test('revoke: 204, every token of that database fails at once, other databases are untouched', async () => {
  const analytics = await call('PUT', '/db_01KCHD2M7Q9X4T6V8W0Y3Z5N1P/auth/generate', { authorization: 'read-only' });
  const analyticsUrl = `${emu.info.databaseUrl}/db/analytics-events/`;
  assert.equal((await pipeline(analytics.json!.token as string, analyticsUrl)).status, 200);
  assert.equal((await pipeline(emu.info.databaseToken)).status, 200);
  const revoke = await call('POST', '/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/revoke');
  assert.equal(revoke.status, 204);
  assert.equal(revoke.json, null);
  assert.equal((await pipeline(emu.info.databaseToken)).status, 401);
  assert.equal((await pipeline(emu.info.readOnlyDatabaseToken)).status, 401);
  assert.equal((await pipeline(analytics.json!.token as string, analyticsUrl)).status, 200);
  const fresh = await call('PUT', '/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate', { authorization: 'full-access' });
  assert.equal((await pipeline(fresh.json!.token as string)).status, 200, 'tokens issued after the revocation work');
});
