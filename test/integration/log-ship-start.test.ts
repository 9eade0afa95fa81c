import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { apiFor, useEmulator } from '../helpers/emulator';
import { platformIds, shipInProcess, storeAt, storedIds } from '../helpers/ship';
import { until } from '../helpers/wait';
import { loggingStats } from '../../src/emulator/logging/index';
import type { LogStore } from '../../src/log-ship/store';

/**
 * How burrow ship starts: the zones' first pages are read while the store is prepared and the
 * zones leased (a dozen round trips to ClickHouse), and used when the zone starts there.
 */
const skip = clickhouseSkip();
let ch: ClickHouseServer;
const stores: LogStore[] = [];
before(async () => {
  if (!skip) ch = await startClickHouse();
});
after(async () => {
  for (const s of stores) await s.close();
  await ch?.close();
});

test('the first page is asked for while the store is prepared, and used: one request per page read, every record once', { skip }, async () => {
  const emu = await useEmulator({ logRate: 20 });
  const api = apiFor(emu);
  const zone = emu.info.pullZoneIds[0]!;
  const s = storeAt(ch.storeUrl, 'early');
  stores.push(s);
  const stats = loggingStats(emu.world);
  // the store is not ready until the platform has seen the zone's first request
  const prepare = s.prepare.bind(s);
  s.prepare = async () => {
    await until('the first page asked for before the store is ready', () => stats.zone(zone).v2 >= 1, 20_000, 20);
    await prepare();
  };
  const from = Math.floor(emu.world.now() / 1000) * 1000 - 80 * 60_000;
  const to = from + 4 * 60_000;
  const run = shipInProcess(api.logs, s, { zones: [zone], window: { from, to }, pageRecords: 1000, batchRecords: 1000, debug: true });
  assert.equal(await run.done, 0, run.lines.join(''));
  const pages = run.lines.filter((l) => l.includes('"event":"page"')).length;
  assert.ok(pages > 3, `several pages (${pages})`);
  assert.equal(stats.zone(zone).v2, pages, 'the early page was used, not asked for again');
  const stored = await storedIds(s, zone, from, to);
  assert.equal(new Set(stored).size, stored.length, 'no duplicates');
  assert.deepEqual([...stored].sort(), platformIds(emu, zone, from, to).sort(), 'every record of the window');
});

test('a zone shipped before drops its early page and starts from its checkpoint: one request spent, nothing stored twice', { skip }, async () => {
  const emu = await useEmulator({ logRate: 20 });
  const api = apiFor(emu);
  const zone = emu.info.pullZoneIds[1]!;
  const s = storeAt(ch.storeUrl, 'early_again');
  stores.push(s);
  const stats = loggingStats(emu.world);
  const from = Math.floor(emu.world.now() / 1000) * 1000 - 80 * 60_000;
  const to = from + 3 * 60_000;
  const first = shipInProcess(api.logs, s, { zones: [zone], window: { from, to } });
  assert.equal(await first.done, 0, first.lines.join(''));
  const stored = await storedIds(s, zone, from, to);
  const asked = stats.zone(zone).v2;
  // the window is stored: its checkpoint is at its end, where nothing is left to read
  const again = shipInProcess(api.logs, s, { zones: [zone], window: { from, to } });
  assert.equal(await again.done, 0, again.lines.join(''));
  assert.equal(stats.zone(zone).v2 - asked, 1, 'the early page only');
  assert.match(again.lines.join(''), /"resumed":true/);
  assert.equal((await storedIds(s, zone, from, to)).length, stored.length, 'nothing stored twice');
});
