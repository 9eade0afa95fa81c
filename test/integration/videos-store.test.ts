import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiFor, useEmulator } from '../helpers/emulator';
import { createApi, type Api } from '../../src/api/index';
import { redact } from '../../src/config/redact';
import { resolveSettings } from '../../src/config/settings';
import { createVideosStore, type VideosStore } from '../../src/state/videos-store';
import { createUiStore } from '../../src/state/ui-store';
import { until } from '../helpers/wait';

function setup(api: Api): { store: VideosStore } {
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), refreshSeconds: 60 };
  return { store: createVideosStore({ api, settings, ui, now: Date.now }) };
}

const type = (store: VideosStore, kind: 'search' | 'pageSize', text: string) => {
  store.getState().openField(kind);
  store.getState().setFieldText({ value: text, cursor: text.length });
  store.getState().applyField();
};
test('video libraries: page by page on demand, page size, server-side search; a refresh reloads the loaded pages', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const all = await api.videoLibraries.listAll();
  const { store } = setup(api);
  await store.getState().refresh();
  let s = store.getState();
  assert.deepEqual([s.items.length, s.pageSize, s.totalItems, s.hasMore, s.form], [100, 100, all.length, true, 'paginated']);
  assert.deepEqual(
    s.items.map((l) => l.Id),
    all.slice(0, 100).map((l) => l.Id),
  );

  type(store, 'pageSize', '3');
  assert.match(store.getState().field?.error ?? '', /page size must be a whole number from 5 to 1000, got "3"/);
  assert.equal(store.getState().pageSize, 100, 'a bad page size changes nothing');
  store.getState().setFieldText({ value: '40', cursor: 2 });
  store.getState().applyField();
  assert.equal(store.getState().field, null);
  await until('page 1 with the new size', () => store.getState().loadedAt !== null);
  assert.deepEqual(
    store.getState().items.map((l) => l.Id),
    all.slice(0, 40).map((l) => l.Id),
  );

  await store.getState().loadMore();
  await store.getState().loadMore();
  s = store.getState();
  assert.deepEqual([s.items.length, s.pagesLoaded], [120, 3]);
  assert.deepEqual(
    s.items.map((l) => l.Id),
    all.slice(0, 120).map((l) => l.Id),
    'in order, no duplicates',
  );

  const before = emu.faultCounters().management.requests;
  await store.getState().refresh();
  assert.equal(emu.faultCounters().management.requests, before + 1, '3 pages of 40 reloaded as one request of 120');
  assert.equal(store.getState().items.length, 120);

  type(store, 'search', 'acme');
  await until('the search results', () => store.getState().loadedAt !== null);
  const found = await api.videoLibraries.listAll('acme');
  assert.ok(found.length > 0 && found.length < all.length);
  s = store.getState();
  assert.deepEqual(
    s.items.map((l) => l.Id),
    found.slice(0, 40).map((l) => l.Id),
  );
  assert.equal(s.totalItems, found.length);
  assert.equal(s.search, 'acme');

  // Library keys never reach a message in clear, even by accident.
  const key = s.items[0]!.ApiKey!;
  assert.equal(redact(`oops ${key}`).includes(key), false);
});

test('the plain-array form (a server that ignores page) still pages on demand', async () => {
  const emu = await useEmulator();
  const real = apiFor(emu);
  const all = await real.videoLibraries.listAll();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(all.slice(0, 23)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => new Promise<void>((r) => server.close(() => r())));
  const api = createApi({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, loggingUrl: emu.info.loggingUrl, apiKey: 'k' });
  after(() => api.close());
  const { store } = setup(api);
  type(store, 'pageSize', '10');
  await until('page 1', () => store.getState().loadedAt !== null);
  assert.deepEqual([store.getState().items.length, store.getState().form, store.getState().hasMore], [10, 'array', true]);
  await store.getState().loadMore();
  await store.getState().loadMore();
  assert.deepEqual([store.getState().items.length, store.getState().hasMore], [23, false]);
  assert.deepEqual(
    store.getState().items.map((l) => l.Id),
    all.slice(0, 23).map((l) => l.Id),
  );
});

test('a sort covers the whole set: loadAll brings every library in requests of 1000; past the limit it stops and says so', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const all = await api.videoLibraries.listAll();
  assert.ok(all.length > 100 && all.length <= 1000, 'the seed has a few hundred libraries');
  const asked: string[] = [];
  const counting = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
  after(() => counting.close());
  const list = counting.videoLibraries.listPage.bind(counting.videoLibraries);
  counting.videoLibraries.listPage = (page, perPage, search, signal) => {
    asked.push(`${page}x${perPage}`);
    return list(page, perPage, search, signal);
  };
  const { store } = setup(counting);
  await store.getState().refresh();
  assert.equal(store.getState().items.length, 100);
  asked.length = 0;
  await store.getState().loadAll();
  let s = store.getState();
  assert.deepEqual(asked, ['1x1000'], 'one request for a few hundred');
  assert.deepEqual(
    s.items.map((l) => l.Id),
    all.map((l) => l.Id),
  );
  assert.deepEqual([s.hasMore, s.loadingAll, s.pagesLoaded], [false, false, Math.ceil(all.length / 100)]);

  // a refresh reloads what is loaded in one request too (not one per page of 100)
  asked.length = 0;
  await store.getState().refresh();
  assert.deepEqual(asked, [`1x${Math.ceil(all.length / 100) * 100}`]);
  assert.equal(store.getState().items.length, all.length);

  // with a limit under the total, loading stops there and the list still says there is more
  const small = setup(counting).store;
  await small.getState().refresh();
  await small.getState().loadAll(50);
  s = small.getState();
  assert.equal(s.items.length, 100, 'already past the limit: nothing more is loaded');
  assert.equal(s.hasMore, true);
});
