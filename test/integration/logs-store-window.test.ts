import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { storeAt } from '../helpers/ship';
import { logEntry } from '../helpers/log-entry';
import { resolveSettings } from '../../src/config/settings';
import { pageLines } from '../../src/log-ship/page-lines';
import { StoreWindow, STORE_TABLE } from '../../src/state/logs/store-window';
import { LogsViewModel } from '../../src/state/logs/view-model';
import type { LogEntry } from '../../src/log-fields/fields';
import type { LogStore } from '../../src/log-ship/store';

/**
 * The logs screen's reader of past windows from the store: pieces oldest first, only the newest
 * the buffer holds, the server filters asked of ClickHouse, and a stop that keeps what was read.
 */
const skip = clickhouseSkip();
let ch: ClickHouseServer;
let store: LogStore;
const zone = 11;
const base = Date.UTC(2026, 9, 1, 8, 0, 0);
const records: LogEntry[] = [];
before(async () => {
  if (skip) return;
  ch = await startClickHouse();
  store = storeAt(ch.storeUrl, STORE_TABLE);
  await store.prepare();
  for (let i = 0; i < 5000; i++) {
    // pairs of records share a millisecond: pieces must not split or repeat them
    records.push(
      logEntry({
        timestamp: new Date(base + Math.floor(i / 2) * 10).toISOString(),
        pullZoneId: zone,
        requestId: i.toString(16).padStart(32, 'e'),
        statusCode: i % 5 === 0 ? 404 : 200,
      }),
    );
  }
  const body = Buffer.from(JSON.stringify({ data: records, pagination: { offset: 0, limit: 10000, returned: records.length, hasMore: false } }));
  await store.insert(pageLines(body, zone, store.form).bytes);
});
after(async () => {
  await store?.close();
  await ch?.close();
});

const settings = () => ({ ...resolveSettings({}, {}, {}), logStore: ch.storeUrl });
const window = { from: base, to: base + 3_600_000 };
const idsOf = (model: LogsViewModel) => model.recordsFrom(0, Number.MAX_SAFE_INTEGER).entries.map((e) => e.requestId);

test('a window is read in pieces, each record once, only the newest the buffer holds', { skip }, async () => {
  const model = new LogsViewModel(2000);
  const reader = new StoreWindow(settings(), model, 300);
  const seen: { read: number; total: number | null }[] = [];
  const outcome = await reader.read([zone], {}, window, 1500, (p) => seen.push({ ...p }));
  assert.equal(outcome, 'done');
  assert.equal(seen[0]!.total, 5000, 'ClickHouse counted the window first');
  assert.deepEqual(
    seen.slice(1).map((p) => p.read),
    [300, 600, 900, 1200, 1500],
    'pieces of 300 up to the newest 1500',
  );
  assert.deepEqual(
    idsOf(model),
    records.slice(3500).map((r) => r.requestId),
    'the newest 1500, oldest first, none twice',
  );
});

test('the server filters are asked of ClickHouse, and stop keeps what was read', { skip }, async () => {
  const model = new LogsViewModel(10_000);
  const reader = new StoreWindow(settings(), model, 250);
  const outcome = await reader.read([zone], { status: '4xx' }, window, 10_000, (p) => {
    if (p.read >= 500) reader.stop();
  });
  assert.equal(outcome, 'stopped');
  const want = records
    .filter((r) => r.statusCode === 404)
    .slice(0, 500)
    .map((r) => r.requestId);
  assert.deepEqual(idsOf(model), want, 'the first two pieces of 404s');
});

test('a store without the table says what to do, and nothing is read', { skip }, async () => {
  const model = new LogsViewModel(1000);
  const reader = new StoreWindow({ ...settings(), logStore: `${ch.storeUrl.replace(/\/default$/, '')}/nowhere` }, model);
  await assert.rejects(
    reader.read([zone], {}, window, 1000, () => {}),
    /the store has no table nowhere\.cdn_logs: ship into it first \(burrow ship\)/,
  );
  assert.equal(model.buffer.length, 0);
  assert.equal(reader.reading, false);
});
