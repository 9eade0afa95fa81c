import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { ApiError } from '../../src/api/errors';

const emu = await useEmulator();
const api = apiFor(emu);
const requests = () => emu.faultCounters().management.requests;

async function refusedBeforeSending(fn: () => Promise<unknown>, message: RegExp) {
  const before = requests();
  await assert.rejects(fn, (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input' && message.test(e.message));
  assert.equal(requests(), before, 'no request was sent');
}

const zones = await api.shield.listAllZones();
const basic = zones.find((z) => z.planType === 0)!;
const paid = zones.filter((z) => z.planType !== 0);

test('listZones pages; listAllZones gathers every zone; getZone reads one', async () => {
  assert.equal(zones.length, 10);
  const p2 = await api.shield.listZones(2, 4);
  assert.deepEqual(p2.page, { totalCount: 10, totalPages: 3, currentPage: 2, nextPage: 3, pageSize: 4 });
  assert.deepEqual(
    p2.zones.map((z) => z.shieldZoneId),
    zones.slice(4, 8).map((z) => z.shieldZoneId),
  );
  const def = await api.shield.listZones();
  assert.equal(def.page.pageSize, 10);
  const one = await api.shield.getZone(zones[3]!.shieldZoneId);
  assert.deepEqual(one, zones[3]);
});

test('getApiGuardian, and the 403/404 envelopes as ApiErrors with their errorKey', async () => {
  const g = await api.shield.getApiGuardian(paid[0]!.shieldZoneId);
  assert.equal(g.configuration.shieldZoneId, paid[0]!.shieldZoneId);
  assert.ok(Array.isArray(g.endpoints));
  await assert.rejects(
    api.shield.getApiGuardian(basic.shieldZoneId),
    (e: unknown) => e instanceof ApiError && e.status === 403 && e.code === 'invalid_plan_type.api_guardian' && /Basic plan/.test(e.message),
  );
  await assert.rejects(api.shield.getApiGuardian(12345), (e: unknown) => e instanceof ApiError && e.status === 404 && e.code === 'shield_zone.not_found');
});

test('updateApiGuardian sends only the changed fields and returns the new configuration', async () => {
  const id = paid[1]!.shieldZoneId;
  const before = (await api.shield.getApiGuardian(id)).configuration;
  const next = before.unmatchedPathAction === 2 ? 0 : before.unmatchedPathAction + 1;
  const after = await api.shield.updateApiGuardian(id, { unmatchedPathAction: next });
  assert.equal(after.unmatchedPathAction, next);
  assert.equal(after.executionMode, before.executionMode);
  assert.equal(after.isEnabled, before.isEnabled);
  assert.notEqual(after.updatedAt, before.updatedAt);
  assert.deepEqual((await api.shield.getApiGuardian(id)).configuration, after);
  await assert.rejects(api.shield.updateApiGuardian(basic.shieldZoneId, { isEnabled: true }), (e: unknown) => e instanceof ApiError && e.status === 403);
});

test('uploadSpec then replaceSpec; a spec over the limits comes back as an ApiError naming the limit', async () => {
  let target: number | null = null;
  for (const z of paid) if ((await api.shield.getApiGuardian(z.shieldZoneId)).configuration.title === null) target = z.shieldZoneId;
  assert.ok(target !== null);
  const yaml = `openapi: 3.0.1
info: {title: Client Test, version: 0.0.1}
paths:
  /things: {get: {responses: {'200': {description: ok}}}, post: {responses: {'201': {description: made}}}}
`;
  const up = await api.shield.uploadSpec(target, yaml);
  assert.equal(up.configuration.title, 'Client Test');
  assert.deepEqual(up.endpoints.map((e) => e.requestMethod).sort(), ['GET', 'POST']);
  const rep = await api.shield.replaceSpec(target, yaml.replace('0.0.1', '0.0.2'), false);
  assert.equal(rep.configuration.version, '0.0.2');
  const limits = rep.configuration;
  const big = `openapi: 3.0.1\ninfo: {title: Big, version: '1'}\npaths:\n${Array.from({ length: limits.maxEndpoints + 1 }, (_, i) => `  /p${i}: {get: {responses: {}}}`).join('\n')}\n`;
  await assert.rejects(
    api.shield.replaceSpec(target, big),
    (e: unknown) =>
      e instanceof ApiError &&
      e.status === 400 &&
      e.code === 'api_guardian.spec_limit_exceeded' &&
      new RegExp(`maxEndpoints: ${limits.maxEndpoints + 1} endpoints, allowed ${limits.maxEndpoints}`).test(e.message),
  );
});

test('bad input is refused before any request, saying what is allowed', async () => {
  await refusedBeforeSending(() => api.shield.listZones(0), /page must be a whole number from 1 to 2147483647/);
  await refusedBeforeSending(() => api.shield.listZones(1, 0), /perPage must be a whole number from 1 to 1000/);
  await refusedBeforeSending(() => api.shield.getZone(-1), /shield zone id must be a positive whole number up to 2147483647/);
  await refusedBeforeSending(() => api.shield.getApiGuardian(2 ** 31), /up to 2147483647/);
  await refusedBeforeSending(
    () => api.shield.updateApiGuardian(paid[0]!.shieldZoneId, { executionMode: 3 }),
    /executionMode must be one of 0 \(Log\), 1 \(Block\)/,
  );
  await refusedBeforeSending(() => api.shield.updateApiGuardian(paid[0]!.shieldZoneId, {}), /nothing to update/);
  await refusedBeforeSending(() => api.shield.uploadSpec(paid[0]!.shieldZoneId, '   '), /specification is empty/);
});
