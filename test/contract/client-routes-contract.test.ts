import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@libsql/client';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from './call';
import { checkResponse, checkSchema } from './openapi-schemas';

// The routes the platform's own CLI calls (db list/show/usage, apps show), against
// database-api.json (paths there relative to /database) and magic-containers-api.json (/mc).

const emu = await useEmulator();
const ok = (why: string) => assert.equal(why, '', why);
const dbs = obj((await call(emu, 'GET', '/database/v2/databases?page=1')).json).databases as { id: string; name: string }[];
const primary = dbs.find((d) => d.name === 'burrow-demo')!.id;
const windowQuery = (hours = 2) => `from=${new Date(Date.now() - hours * 3_600_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`;

test('POST /database/v1/live/live_db: the state of each database asked for', async () => {
  const a = await call(emu, 'POST', '/database/v1/live/live_db', { body: { db_ids: [primary, 'db_unknown'] } });
  assert.equal(a.status, 200);
  ok(checkResponse('database', '/v1/live/live_db', 'post', 200, a.json));
  const live = obj(obj(a.json).live_metrics);
  assert.deepEqual(Object.keys(live), [primary]);
  assert.deepEqual(live[primary], { state: 'Live', metadata: { main: 'DE', replicas: ['NY', 'SG', 'UK'] } });
  const bad = await call(emu, 'POST', '/database/v1/live/live_db', { body: { db_ids: 'x' } });
  assert.equal(bad.status, 422);
  ok(checkSchema('database', 'AppError', bad.json));
  assert.equal((await call(emu, 'POST', '/database/v1/live/live_db', { body: { db_ids: [] }, key: null })).status, 401);
});

test('GET /database/v1/config: storage, primary and replica regions', async () => {
  const a = await call(emu, 'GET', '/database/v1/config');
  assert.equal(a.status, 200);
  ok(checkResponse('database', '/v1/config', 'get', 200, a.json));
  const ids = (obj(a.json).primary_regions as { id: string }[]).map((r) => r.id);
  for (const d of ['DE', 'NY', 'AMS']) assert.ok(ids.includes(d), `${d} is offered: a seeded database lives there`);
});

test('usage and statistics count what the database served', async () => {
  const before = obj((await call(emu, 'GET', `/database/v2/databases/${primary}/usage?${windowQuery()}`)).json);
  ok(checkResponse('database', '/v2/databases/{db_id}/usage', 'get', 200, before));
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  try {
    await client.execute('SELECT id FROM customers ORDER BY id LIMIT 7');
    await client.batch(['CREATE TABLE usage_t (x)', 'INSERT INTO usage_t VALUES (1), (2), (3)'], 'write');
  } finally {
    client.close();
  }
  const after = obj((await call(emu, 'GET', `/database/v2/databases/${primary}/usage?${windowQuery()}`)).json);
  assert.equal((after.rows_read as number) - (before.rows_read as number), 7);
  assert.equal((after.rows_written as number) - (before.rows_written as number), 3);
  const stats = await call(emu, 'GET', `/database/v2/databases/${primary}/statistics?${windowQuery()}`);
  assert.equal(stats.status, 200);
  ok(checkResponse('database', '/v2/databases/{db_id}/statistics', 'get', 200, stats.json));
  const reads = (obj(obj(stats.json).row_read_count).data as [string, number][]).reduce((n, [, v]) => n + v, 0);
  assert.equal(reads, after.rows_read);
  for (const q of ['', 'from=yesterday&to=now', `from=${new Date().toISOString()}`]) {
    const bad = await call(emu, 'GET', `/database/v2/databases/${primary}/usage?${q}`);
    assert.equal(bad.status, 400, q);
    ok(checkSchema('database', 'AppError', bad.json));
  }
  const missing = await call(emu, 'GET', `/database/v2/databases/db_nope/statistics?${windowQuery()}`);
  assert.equal(missing.status, 404);
  ok(checkSchema('database', 'AppError', missing.json));
});

test('GET /mc/apps/{appId} and /overview: 200 for every seeded app, 404 for an unknown one', async () => {
  const apps = obj((await call(emu, 'GET', '/mc/apps?limit=1000')).json).items as { id: string; name: string }[];
  for (const app of apps) {
    const a = await call(emu, 'GET', `/mc/apps/${app.id}`);
    assert.equal(a.status, 200);
    ok(checkResponse('mc', '/apps/{appId}', 'get', 200, a.json));
    assert.equal(obj(a.json).name, app.name);
    const o = await call(emu, 'GET', `/mc/apps/${app.id}/overview`);
    assert.equal(o.status, 200);
    ok(checkResponse('mc', '/apps/{appId}/overview', 'get', 200, o.json));
  }
  for (const path of ['/mc/apps/nope', '/mc/apps/nope/overview']) {
    const missing = await call(emu, 'GET', path);
    assert.equal(missing.status, 404);
    ok(checkResponse('mc', path.endsWith('overview') ? '/apps/{appId}/overview' : '/apps/{appId}', 'get', 404, missing.json));
  }
});
