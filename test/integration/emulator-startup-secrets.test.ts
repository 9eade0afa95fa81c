import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import { call } from '../contract/call';

// The seed makes the data, never the secrets: two emulators with the same seed share their data
// but not their access key or token-signing key. And the key is checked before anything else.

const now = () => Date.parse('2026-05-01T12:00:00Z');
const start = async (): Promise<RunningEmulator> => {
  const emu = await startEmulator({ seed: 1, now, port: 0, host: '127.0.0.1' });
  after(() => emu.close());
  return emu;
};
const [one, twin] = await Promise.all([start(), start()]);

const dbQuery = async (emu: RunningEmulator, token: string) => {
  const res = await request(`${emu.info.databaseUrl}/v2/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ baton: null, requests: [{ type: 'execute', stmt: { sql: 'SELECT count(*) FROM customers' } }, { type: 'close' }] }),
  });
  return { status: res.statusCode, text: await res.body.text() };
};

test('same seed, same data; different access key and tokens', async () => {
  assert.deepEqual((await call(one, 'GET', '/pullzone')).json, (await call(twin, 'GET', '/pullzone')).json, 'the data follows the seed');
  assert.match(one.info.accessKey, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{20}$/);
  assert.notEqual(one.info.accessKey, twin.info.accessKey);
  assert.notEqual(one.info.databaseToken, twin.info.databaseToken);
  assert.notEqual(one.info.readOnlyDatabaseToken, twin.info.readOnlyDatabaseToken);
});

test("one emulator's key and tokens open nothing on the other", async () => {
  assert.equal((await call(twin, 'GET', '/pullzone', { key: one.info.accessKey })).status, 401);
  const logs = await request(`${twin.info.loggingUrl}/v2/pullzones/${twin.info.pullZoneIds[0]}/logs`, { headers: { AccessKey: one.info.accessKey } });
  await logs.body.text();
  assert.notEqual(logs.statusCode, 200);
  assert.equal((await dbQuery(twin, one.info.databaseToken)).status, 401);
  assert.equal((await dbQuery(one, one.info.databaseToken)).status, 200);
});

test('a wrong method without a key gets 401, with the key 405', async () => {
  for (const [method, path] of [
    ['DELETE', '/videolibrary'],
    ['POST', '/pullzone'],
    ['PATCH', '/mc/apps'],
  ] as const) {
    assert.equal((await call(one, method, path, { key: null })).status, 401, `${method} ${path} without a key`);
    assert.equal((await call(one, method, path, { key: 'not-the-key' })).status, 401, `${method} ${path} with a wrong key`);
    assert.equal((await call(one, method, path)).status, 405, `${method} ${path} with the key`);
  }
  const logs = await request(`${one.info.loggingUrl}/v2/pullzones/${one.info.pullZoneIds[0]}/logs`, { method: 'DELETE' });
  await logs.body.text();
  assert.equal(logs.statusCode, 401);
});
