import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiFor, useEmulator } from '../helpers/emulator';
import { ApiError } from '../../src/api/errors';
import { createApi } from '../../src/api/index';

// Video libraries (both response forms), load balancers and pull zones through the clients.

const emu = await useEmulator();
const api = apiFor(emu);
const requests = () => emu.faultCounters().management.requests;

async function refusedBeforeSending(fn: () => Promise<unknown>, message: RegExp) {
  const before = requests();
  await assert.rejects(fn, (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input' && message.test(e.message));
  assert.equal(requests(), before, 'no request was sent');
}

test('video libraries: page 0 reads the plain-array form, page >= 1 the paginated form; listAll gathers all', async () => {
  const plain = await api.videoLibraries.listPage(0);
  assert.equal(plain.form, 'array');
  assert.ok(plain.items.length > 400);
  assert.equal(plain.totalItems, plain.items.length);
  const p3 = await api.videoLibraries.listPage(3, 25);
  assert.equal(p3.form, 'paginated');
  assert.deepEqual([p3.currentPage, p3.totalItems, p3.hasMoreItems], [3, plain.totalItems, true]);
  assert.deepEqual(
    p3.items.map((l) => l.Id),
    plain.items.slice(50, 75).map((l) => l.Id),
  );
  const all = await api.videoLibraries.listAll();
  assert.deepEqual(
    all.map((l) => l.Id),
    plain.items.map((l) => l.Id),
  );
  // Every field the server sent is kept, not only the typed ones.
  assert.ok('PlayerKeyColor' in all[0]! && 'Bitrate2160p' in all[0]! && 'GoogleWidevineDrm' in all[0]!);
  const word = plain.items[0]!.Name!.split('-')[0]!;
  const found = await api.videoLibraries.listPage(1, 5, word.toUpperCase());
  assert.ok(found.totalItems >= 1 && found.items.every((l) => l.Name!.toLowerCase().includes(word)));
});

test('video libraries: a server that answers the plain array for page >= 1 is cut into the asked page', async () => {
  const records = Array.from({ length: 12 }, (_, i) => ({ Id: i + 1, Name: `lib-${i + 1}` }));
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(records));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const old = createApi({ baseUrl: base, loggingUrl: base, apiKey: 'k' });
  after(() => old.close());
  const p2 = await old.videoLibraries.listPage(2, 5);
  assert.deepEqual([p2.form, p2.currentPage, p2.totalItems, p2.hasMoreItems], ['array', 2, 12, true]);
  assert.deepEqual(
    p2.items.map((l) => l.Id),
    [6, 7, 8, 9, 10],
  );
  assert.deepEqual(
    (await old.videoLibraries.listAll()).map((l) => l.Id),
    records.map((r) => r.Id),
  );
});

test('video libraries: bad page, perPage or search refused before any request', async () => {
  await refusedBeforeSending(() => api.videoLibraries.listPage(-1), /page must be a whole number from 0 to 2147483647/);
  await refusedBeforeSending(() => api.videoLibraries.listPage(2147483648), /from 0 to 2147483647/);
  await refusedBeforeSending(() => api.videoLibraries.listPage(1, 4), /perPage must be a whole number from 5 to 1000 \(got 4\)/);
  await refusedBeforeSending(() => api.videoLibraries.listPage(1, 1001), /from 5 to 1000/);
  await refusedBeforeSending(() => api.videoLibraries.listPage(1.5), /whole number/);
  await refusedBeforeSending(() => api.videoLibraries.listPage(1, 5, 'x'.repeat(201)), /at most 200 characters/);
});

test('load balancers: list pages, listAll, get; 404 says which profile; bad ids refused', async () => {
  const all = await api.loadBalancers.listAll();
  assert.equal(all.length, 8);
  assert.deepEqual(
    (await api.loadBalancers.list(2, 3)).map((l) => l.LoadBalancerId),
    all.slice(3, 6).map((l) => l.LoadBalancerId),
  );
  const one = await api.loadBalancers.get(all[4]!.LoadBalancerId);
  assert.deepEqual(one, all[4]);
  assert.ok(one.OriginGroups.length >= 2 && one.OriginGroups.every((g) => Array.isArray(g.Origins)));
  await assert.rejects(
    api.loadBalancers.get(1),
    (e: unknown) =>
      e instanceof ApiError &&
      e.status === 404 &&
      e.code === 'loadBalancer.not_found' &&
      e.message === 'load balancer 1 was not found (404 loadBalancer.not_found)',
  );
  await refusedBeforeSending(() => api.loadBalancers.get(0), /load balancer id must be a positive whole number/);
  await refusedBeforeSending(() => api.loadBalancers.list(1, 0), /count must be a whole number from 1 to 1000/);
});

test('pull zones: list (all pages) and get, with logging flags; unknown id', async () => {
  const zones = await api.pullZones.list();
  assert.deepEqual(
    zones.map((z) => [z.Id, z.EnableLogging]),
    emu.world.pullZones.map((z) => [z.Id, z.EnableLogging]),
  );
  const one = await api.pullZones.get(zones[0]!.Id);
  assert.equal(one.Name, emu.world.pullZones[0]!.Name);
  assert.ok(one.Hostnames.length >= 1);
  await assert.rejects(api.pullZones.get(3), (e: unknown) => e instanceof ApiError && e.status === 404 && /pull zone 3 was not found/.test(e.message));
  await refusedBeforeSending(() => api.pullZones.get(-4), /pull zone id must be a positive whole number/);
});
