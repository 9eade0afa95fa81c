import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import fc from 'fast-check';
import { VideoLibrarySchema, type VideoLibrary } from '../../src/api/video-libraries';
import { formatBytes, formatCount, formatDateTime, formatDay, formatRelative } from '../../src/renderers/format';
import { listSummary } from '../../src/screens/videos/list-view';
import { drmText, libraryColumns } from '../../src/renderers/video-libraries';
import { DETAIL_GROUPS, detailColumns, detailValueText, formatDetailValue, libraryDetailRows } from '../../src/screens/videos/detail-view';
import { checkSearch, parsePageSize } from '../../src/state/videos-store';
import { cellText, sortRows } from '../../src/text/table-model';
import { clipboardSequence, osc52, tmuxPassthrough } from '../../src/clipboard/osc52';
import { setDisplayZone } from '../../src/text/time-format';

// dates here are checked as --utc shows them (the local zone is time-parse-format.test.ts's)
setDisplayZone('utc');

test('formatBytes: binary units, one decimal below 100, none above; empty for nothing', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(5 * 1024 ** 3), '5.0 GiB');
  assert.equal(formatBytes(123 * 1024 ** 4), '123 TiB');
  assert.equal(formatBytes(1024 ** 2 - 1), '1.0 MiB', 'never "1024 KiB"');
  assert.equal(formatBytes(null), '');
  assert.equal(formatBytes(-5), '');
  assert.equal(formatBytes(Number.NaN), '');
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 53 - 1 }), (n) => {
      const m = /^(\d+(?:\.\d)?) (B|KiB|MiB|GiB|TiB|PiB|EiB)$/.exec(formatBytes(n));
      if (!m) return false;
      const value = Number(m[1]) * 1024 ** ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'].indexOf(m[2]!);
      return Math.abs(value - n) <= Math.max(0.5, n * 0.05) && Number(m[1]) < 1024;
    }),
  );
});

test('dates: UTC days and times, zone-less API dates read as UTC, relative ages, bad text as it is', () => {
  assert.equal(formatDay('2024-03-05T23:30:00Z'), '2024-03-05');
  assert.equal(formatDay('2024-03-05T23:30:00'), '2024-03-05', 'no zone = UTC, not local');
  assert.equal(formatDateTime('2024-03-05T14:22:59.123Z'), '2024-03-05 14:22 UTC');
  assert.equal(formatDateTime('2024-03-06T01:00:00+02:00'), '2024-03-05 23:00 UTC');
  assert.equal(formatDay('soon'), 'soon');
  assert.equal(formatDay(null), '');
  const now = Date.parse('2024-03-10T00:00:00Z');
  assert.equal(formatRelative('2024-03-07T00:00:00Z', now), '3 days ago');
  assert.equal(formatRelative('2024-03-09T23:59:00Z', now), '1 minute ago');
  assert.equal(formatRelative('2024-08-10T00:00:00Z', now), 'in 5 months');
  assert.equal(formatCount(1234567), '1,234,567');
  assert.equal(formatCount(undefined), '');
});

const lib = (over: Partial<VideoLibrary> & Record<string, unknown> = {}): VideoLibrary =>
  VideoLibrarySchema.of(z).parse({
    Id: 7,
    Name: 'acme-demo',
    VideoCount: 12,
    StorageUsage: 3 * 1024 ** 3,
    TrafficUsage: 0,
    DateCreated: '2023-01-02T03:04:05Z',
    ReplicationRegions: ['DE', 'NY'],
    ApiKey: 'aaaaaaaa-1111-2222-3333-444444449f1a',
    ReadOnlyApiKey: 'bbbbbbbb-1111-2222-3333-44444444c0de',
    ApiAccessKey: 'cccccccc-1111-2222-3333-44444444beef',
    EnableDRM: false,
    DrmVersion: 0,
    ...over,
  });

test('list columns: the cells a user reads, DRM by name, numbers sorted as numbers', () => {
  const row = libraryColumns.map((c) => cellText(c.cell(lib())));
  assert.deepEqual(row, ['acme-demo', '7', '12', '3.0 GiB', '0 B', '2023-01-02', 'DE NY', 'off']);
  assert.equal(
    drmText(lib({ EnableDRM: true, DrmVersion: 1, AppleFairPlayDrm: { Enabled: true }, GoogleWidevineDrm: { Enabled: false } })),
    'Enterprise (FairPlay)',
  );
  assert.equal(drmText(lib({ EnableDRM: true, DrmVersion: 9 })), 'version 9');
  const rows = [lib({ Id: 1, StorageUsage: 10 * 1024 }), lib({ Id: 2, StorageUsage: 2 * 1024 ** 3 }), lib({ Id: 3, StorageUsage: 900 })];
  const storage = libraryColumns.find((c) => c.id === 'storage')!;
  assert.deepEqual(
    sortRows(rows, null, storage, false).map((i) => rows[i]!.Id),
    [3, 1, 2],
    'by bytes, not by the text "10.0 KiB" < "2.0 GiB" < "900 B"',
  );
  assert.deepEqual(
    sortRows(rows, null, storage, true).map((i) => rows[i]!.Id),
    [2, 1, 3],
  );
  const created = libraryColumns.find((c) => c.id === 'created')!;
  const dated = [lib({ Id: 1, DateCreated: '2024-01-01T00:00:00' }), lib({ Id: 2, DateCreated: '2020-06-01T00:00:00Z' })];
  assert.deepEqual(
    sortRows(dated, null, created, false).map((i) => dated[i]!.Id),
    [2, 1],
  );
});

test('list summary: loaded of total, page size, search, more to come', () => {
  const base = {
    items: [lib()],
    totalItems: 420,
    hasMore: true,
    pageSize: 100,
    search: '',
    loadingMore: false,
    loadingAll: false,
    reloading: false,
    loadedAt: 1,
  };
  assert.equal(listSummary(base), '1 of 420 loaded · page size 100 · scroll for more');
  assert.equal(listSummary({ ...base, search: 'acme', hasMore: false, totalItems: 27 }), 'search "acme" · 27 libraries · page size 100');
  assert.equal(listSummary({ ...base, loadingMore: true }), '1 of 420 loaded · page size 100 · loading more…');
  assert.equal(listSummary({ ...base, loadedAt: null, items: [] }), 'loading… · page size 100');
});

test('list summary with a sort says what the sort covers: all of it, loading the rest, or only the loaded part', () => {
  const base = {
    items: [lib()],
    totalItems: 420,
    hasMore: true,
    pageSize: 100,
    search: '',
    loadingMore: false,
    loadingAll: false,
    reloading: false,
    loadedAt: 1,
  };
  assert.equal(listSummary({ ...base, loadingAll: true }, 'videos'), 'sorting by videos needs all 420: loading them… · page size 100');
  assert.equal(listSummary(base, 'videos'), 'sorted by videos: only the 1 loaded of 420 (search to narrow) · page size 100 · scroll for more');
  assert.equal(listSummary({ ...base, hasMore: false }, 'videos'), '420 libraries · page size 100');
});

test('page size and search input checks say what is allowed', () => {
  assert.deepEqual(parsePageSize(' 250 '), { ok: true, value: 250 });
  assert.deepEqual(parsePageSize('5'), { ok: true, value: 5 });
  assert.deepEqual(parsePageSize('1000'), { ok: true, value: 1000 });
  for (const bad of ['4', '1001', '3.5', 'abc', '', '-10']) {
    const r = parsePageSize(bad);
    assert.equal(r.ok, false, bad);
    assert.match(!r.ok ? r.message : '', /^page size must be a whole number from 5 to 1000/);
  }
  assert.equal(checkSearch('acme'), null);
  assert.match(checkSearch('x'.repeat(201)) ?? '', /at most 200 characters/);
});

test('detail: every field exactly once, in its group; unknown fields under "other"; objects opened', () => {
  const record = lib({
    AppleFairPlayDrm: { Enabled: true, CertificateId: 12, CertificateExpirationDate: '2027-01-01T00:00:00Z', Provider: 'X' },
    SomethingNew: 'hello',
    Bitrate720p: 2800,
    EncodingTier: 1,
  });
  const rows = libraryDetailRows(record);
  const fields = rows.filter((r) => r.kind === 'field').map((r) => (r.kind === 'field' ? r.name : ''));
  assert.equal(new Set(fields).size, fields.length, 'no field twice');
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    if (value && typeof value === 'object' && !Array.isArray(value))
      assert.ok(
        fields.some((f) => f.startsWith(`${key}.`)),
        key,
      );
    else assert.ok(fields.includes(key), `${key} is shown`);
  }
  const groupOf = (name: string) => {
    const r = rows.find((x) => x.kind === 'field' && x.name === name);
    return r?.kind === 'field' ? r.group : null;
  };
  assert.equal(groupOf('SomethingNew'), 'other');
  assert.equal(groupOf('AppleFairPlayDrm.Provider'), 'DRM');
  assert.equal(groupOf('Bitrate720p'), 'encoding');
  const titles = rows.filter((r) => r.kind === 'group').map((r) => (r.kind === 'group' ? r.title : ''));
  assert.deepEqual(titles, ['general', 'keys', 'encoding', 'DRM', 'other'], 'groups with no field present are left out');
  assert.deepEqual(
    DETAIL_GROUPS.map((g) => g.title),
    ['general', 'keys', 'player', 'encoding', 'security', 'DRM', 'transcribing', 'billing'],
  );
});

test('detail values: enum names, sizes with bytes, UTC dates, yes/no, lists; keys masked unless revealed', () => {
  assert.equal(formatDetailValue('DrmVersion', 1), 'Enterprise (1)');
  assert.equal(formatDetailValue('EncodingTier', 7), 'unknown (7)');
  assert.equal(formatDetailValue('StorageUsage', 1536), '1.5 KiB (1,536 bytes)');
  assert.equal(formatDetailValue('AppleFairPlayDrm.CertificateExpirationDate', '2027-01-01T10:00:00Z'), '2027-01-01 10:00 UTC');
  assert.equal(formatDetailValue('AllowDirectPlay', false), 'no');
  assert.equal(formatDetailValue('AllowedReferrers', []), '(none)');
  assert.equal(formatDetailValue('ReplicationRegions', ['DE', 'NY']), 'DE, NY');
  assert.equal(formatDetailValue('WebhookUrl', null), '—');
  const rows = libraryDetailRows(lib());
  const key = rows.find((r) => r.kind === 'field' && r.name === 'ApiKey')!;
  assert.ok(key.kind === 'field' && key.secret);
  assert.equal(detailValueText(key, null), '••••••••9f1a');
  assert.equal(detailValueText(key, 'ReadOnlyApiKey'), '••••••••9f1a', 'revealing another key leaves this one masked');
  assert.equal(detailValueText(key, 'ApiKey'), 'aaaaaaaa-1111-2222-3333-444444449f1a');
  const value = detailColumns(null)[1]!;
  for (const r of rows) {
    const text = cellText(value.cell(r));
    for (const secret of ['aaaaaaaa-1111', 'bbbbbbbb-1111', 'cccccccc-1111'])
      assert.ok(!text.includes(secret), `no key in the cell of ${r.kind === 'field' ? r.name : r.title}`);
  }
});

test('OSC 52: base64 of the UTF-8 text between ESC ] 52 ; c ; and BEL; tmux passthrough doubles every ESC', () => {
  assert.equal(osc52('hi'), '\x1b]52;c;aGk=\x07');
  assert.equal(tmuxPassthrough(osc52('hi')), '\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\');
  assert.equal(clipboardSequence('hi', 'osc52'), osc52('hi'));
  assert.equal(clipboardSequence('hi', 'tmux'), osc52('hi'));
  assert.equal(clipboardSequence('hi', 'tmux-passthrough'), tmuxPassthrough(osc52('hi')));
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      const m = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(osc52(text));
      if (!m || Buffer.from(m[1]!, 'base64').toString('utf8') !== text) return false;
      const wrapped = clipboardSequence(text, 'tmux-passthrough');
      const inner = wrapped.slice('\x1bPtmux;'.length, -2);
      return (
        wrapped.startsWith('\x1bPtmux;') &&
        wrapped.endsWith('\x1b\\') &&
        inner.replace(/\x1b\x1b/g, '\x1b') === osc52(text) &&
        !/\x1b(?!\x1b)/.test(inner.replace(/\x1b\x1b/g, ''))
      );
    }),
  );
});
