import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useEmulator } from '../helpers/emulator';
import { call, obj } from '../contract/call';

const emu = await useEmulator();
type Lib = Record<string, unknown> & { Id: number; Name: string };
const plain = (await call(emu, 'GET', '/videolibrary')).json as Lib[];

test('no page (or page=0) answers a plain array of every library, ~420, sorted by id', async () => {
  assert.ok(Array.isArray(plain));
  assert.ok(plain.length >= 400 && plain.length <= 450, String(plain.length));
  assert.deepEqual(
    plain.map((l) => l.Id),
    [...plain.map((l) => l.Id)].sort((a, b) => a - b),
  );
  assert.deepEqual((await call(emu, 'GET', '/videolibrary?page=0&perPage=5')).json, plain, 'page 0 ignores perPage');
});

test('every record has every field of VideoLibraryModel, realistic and varied', () => {
  const doc = JSON.parse(readFileSync('/work/shared/openapi/core-api.json', 'utf8')) as {
    components: { schemas: { VideoLibraryModel: { properties: Record<string, unknown> } } };
  };
  const fields = Object.keys(doc.components.schemas.VideoLibraryModel.properties).sort();
  for (const l of plain) assert.deepEqual(Object.keys(l).sort(), fields, `library ${l.Id}`);
  assert.equal(new Set(plain.map((l) => l.Name)).size, plain.length, 'names are unique');
  assert.equal(new Set(plain.map((l) => l.ApiKey)).size, plain.length, 'keys are unique');
  for (const l of plain) {
    assert.match(String(l.ApiKey), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(l.ApiAccessKey, l.ApiKey);
    assert.ok(Date.parse(String(l.DateModified)) >= Date.parse(String(l.DateCreated)));
  }
  const share = (f: (l: Lib) => boolean) => plain.filter(f).length / plain.length;
  assert.ok(share((l) => l.EnableDRM === true) > 0.05 && share((l) => l.EnableDRM === true) < 0.5, 'DRM on some');
  assert.ok(
    plain.some((l) => l.EnableDRM && obj(l.AppleFairPlayDrm).Enabled === true && typeof obj(l.AppleFairPlayDrm).CertificateExpirationDate === 'string'),
  );
  assert.ok(plain.every((l) => (l.EnableDRM ? l.GoogleWidevineDrm !== null : l.GoogleWidevineDrm === null)));
  assert.ok(share((l) => (l.ReplicationRegions as string[]).length > 1) > 0.2);
  assert.ok(share((l) => l.VideoCount === 0) > 0 && Math.max(...plain.map((l) => l.VideoCount as number)) > 5000);
  assert.ok(new Set(plain.map((l) => String(l.DateCreated).slice(0, 4))).size >= 4, 'created over several years');
  assert.ok(share((l) => l.EnableTranscribing === true) > 0.1);
  assert.ok(share((l) => l.WebhookUrl !== null) > 0.2);
});

test('page >= 1 answers {Items, CurrentPage, TotalItems, HasMoreItems}; walking the pages gives the plain list', async () => {
  for (const perPage of [5, 37, 100, 1000]) {
    const ids: number[] = [];
    for (let page = 1; page < 200; page++) {
      const a = obj((await call(emu, 'GET', `/videolibrary?page=${page}&perPage=${perPage}`)).json);
      assert.deepEqual(Object.keys(a), ['Items', 'CurrentPage', 'TotalItems', 'HasMoreItems']);
      assert.equal(a.CurrentPage, page);
      assert.equal(a.TotalItems, plain.length);
      ids.push(...(a.Items as Lib[]).map((l) => l.Id));
      assert.equal(a.HasMoreItems, page * perPage < plain.length);
      if (!a.HasMoreItems) break;
    }
    assert.deepEqual(
      ids,
      plain.map((l) => l.Id),
      `perPage ${perPage}`,
    );
  }
  const defaultPerPage = obj((await call(emu, 'GET', '/videolibrary?page=1')).json);
  assert.equal((defaultPerPage.Items as unknown[]).length, Math.min(1000, plain.length));
  const far = obj((await call(emu, 'GET', '/videolibrary?page=2147483647&perPage=5')).json);
  assert.deepEqual([far.Items, far.HasMoreItems, far.TotalItems], [[], false, plain.length]);
});

test('search matches names case-insensitively, in both forms', async () => {
  const word = plain[3]!.Name.split('-')[0]!;
  const expected = plain.filter((l) => l.Name.toLowerCase().includes(word.toLowerCase())).map((l) => l.Id);
  assert.ok(expected.length > 1 && expected.length < plain.length);
  const arr = (await call(emu, 'GET', `/videolibrary?search=${encodeURIComponent(word.toUpperCase())}`)).json as Lib[];
  assert.deepEqual(
    arr.map((l) => l.Id),
    expected,
  );
  const paged = obj((await call(emu, 'GET', `/videolibrary?page=1&perPage=5&search=${encodeURIComponent(word)}`)).json);
  assert.equal(paged.TotalItems, expected.length);
  assert.deepEqual(
    (paged.Items as Lib[]).map((l) => l.Id),
    expected.slice(0, 5),
  );
  assert.deepEqual((await call(emu, 'GET', '/videolibrary?search=zz-no-such-library-zz')).json, []);
});

test('out-of-range or non-integer page/perPage -> 400 {ErrorKey, Field, Message}', async () => {
  const cases: [string, string][] = [
    ['page=-1', 'page'],
    ['page=2147483648', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1e3', 'page'],
    ['perPage=4', 'perPage'],
    ['perPage=1001', 'perPage'],
    ['perPage=0', 'perPage'],
    ['perPage=ten', 'perPage'],
    ['page=1&perPage=-5', 'perPage'],
  ];
  for (const [q, field] of cases) {
    const a = await call(emu, 'GET', `/videolibrary?${q}`);
    assert.equal(a.status, 400, q);
    const e = obj(a.json);
    assert.equal(e.Field, field, q);
    assert.equal(e.ErrorKey, 'validation.invalid_parameter');
    assert.match(String(e.Message), field === 'page' ? /1 to 2147483647/ : /5 to 1000/);
  }
  for (const q of ['page=1&perPage=5', 'page=2147483647&perPage=1000', 'perPage=5'])
    assert.equal((await call(emu, 'GET', `/videolibrary?${q}`)).status, 200, q);
});
