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

test('listApps follows cursors; listAllApps matches the limits usage; listAllRegions', async () => {
  const all = await api.containers.listAllApps();
  const limits = await api.containers.getLimits();
  assert.equal(all.length, limits.existingNumberOfApplications);
  const walked: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Awaited<ReturnType<typeof api.containers.listApps>> = await api.containers.listApps({ limit: 4, cursor });
    assert.equal(page.totalItems, all.length);
    walked.push(...page.items.map((a) => a.id));
    cursor = page.cursor;
    pages++;
  } while (cursor);
  assert.equal(pages, Math.ceil(all.length / 4));
  assert.deepEqual(
    walked,
    all.map((a) => a.id),
  );
  const regions = await api.containers.listAllRegions();
  assert.equal(regions.length, 20);
  assert.ok(regions.every((r) => typeof r.id === 'string' && typeof r.hasCapacity === 'boolean'));
});

test('region settings round trip: PUT (empty 200) then GET shows the change', async () => {
  const app = (await api.containers.listAllApps()).find((a) => a.status === 'active')!;
  const result = await api.containers.putRegionSettings(app.id, {
    allowedRegionIds: ['DE', 'SG'],
    requiredRegionIds: ['SG'],
    maxAllowedRegions: 2,
    nodeSelectors: {},
  });
  assert.equal(result, undefined);
  const s = await api.containers.getRegionSettings(app.id);
  assert.deepEqual([s.allowedRegionIds, s.requiredRegionIds, s.maxAllowedRegions], [['DE', 'SG'], ['SG'], 2]);
});

test('server validation errors come back with their fields; unknown app is a 404', async () => {
  const app = (await api.containers.listAllApps()).find((a) => a.status === 'active')!;
  await assert.rejects(
    api.containers.putRegionSettings(app.id, { allowedRegionIds: ['DE'], requiredRegionIds: ['NY'], maxAllowedRegions: 1 }),
    (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.status, 400);
      assert.deepEqual(
        e.fieldErrors.map((f) => f.field),
        ['requiredRegionIds'],
      );
      assert.match(e.message, /required regions must also be allowed: NY/);
      return true;
    },
  );
  await assert.rejects(api.containers.getRegionSettings('NoSuchApp'), (e: unknown) => e instanceof ApiError && e.status === 404 && /not found/.test(e.message));
});

test('bad input is refused before any request', async () => {
  await refusedBeforeSending(() => api.containers.listApps({ limit: 0 }), /limit must be a whole number from 1 to 1000/);
  await refusedBeforeSending(() => api.containers.listRegions({ limit: 1001 }), /limit must be a whole number from 1 to 1000/);
  await refusedBeforeSending(() => api.containers.getRegionSettings('../limits'), /app id must be 1 to 64 letters/);
  await refusedBeforeSending(() => api.containers.putRegionSettings('abc', { maxAllowedRegions: 0 }), /maxAllowedRegions must be a whole number from 1/);
  await refusedBeforeSending(() => api.containers.putRegionSettings('abc', { allowedRegionIds: 'DE' as never }), /list of region ids/);
});
