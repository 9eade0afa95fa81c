import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { apiFor, useEmulator } from '../helpers/emulator';
import { platformIds, shipInProcess, storeAt, storedIds } from '../helpers/ship';
import { until } from '../helpers/wait';

import { EmulatorClock } from '../../src/emulator/clock';
import { pageLines } from '../../src/log-ship/page-lines';
import { recordsTableSql } from '../../src/log-ship/schema';
import { LOG_FIELDS } from '../../src/log-fields/fields';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import type { LogStore } from '../../src/log-ship/store';

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
const store = (table: string) => {
  const s = storeAt(ch.storeUrl, table);
  stores.push(s);
  return s;
};

test('hostile values are stored and read back exactly', { skip }, async () => {
  const s = store('hostile');
  await s.prepare();
  assert.equal(s.form, 'legacy', `18.16 gets the legacy form (server ${s.version})`);
  const values = [
    `quote " and ' and \` backtick`,
    'back\\slash \\n \\u0041 \\',
    'new\nline\r\ncarriage\ttab',
    'controls \u0000\u0001\u0007\u001b[2J\u001f\u007f\u0085\u009b',
    '4-byte 😀𝄞🀄 and 3-byte € ✓ and ü',
    `long ${'Mozilla/5.0 (X11; Linux x86_64) '.repeat(3000)}`,
    '}]},{"timestamp":"2026-01-01T00:00:00.000Z"}',
  ];
  const base = Date.UTC(2026, 10, 27, 10, 0, 0, 0);
  const records = values.map((v, i) => {
    const r: Record<string, unknown> = {};
    for (const f of LOG_FIELDS) r[f.name] = f.type === 'number' ? i + 1 : v;
    r.timestamp = new Date(base + i * 1001 + 7).toISOString();
    r.pullZoneId = 42;
    r.requestId = (i + 1).toString(16).padStart(32, 'a');
    r.asn = i % 2 ? null : 64500;
    return r;
  });
  const body = Buffer.from(JSON.stringify({ data: records, pagination: { offset: 0, limit: 10000, returned: records.length, hasMore: false } }));
  const lines = pageLines(body, 42, s.form);
  await s.insert(lines.bytes);
  const cols = LOG_FIELDS.filter((f) => f.name !== 'timestamp')
    .map((f) => f.name)
    .join(', ');
  const back = await s.rows<Record<string, unknown>>(`SELECT toUnixTimestamp(timestamp) * 1000 + timestampMs AS t, ${cols} FROM hostile ORDER BY t`);
  assert.equal(back.length, records.length);
  back.forEach((row, i) => {
    const want = records[i]!;
    assert.equal(Number(row.t), Date.parse(want.timestamp as string), 'milliseconds kept');
    for (const f of LOG_FIELDS) {
      if (f.name === 'timestamp') continue;
      const got = row[f.name];
      const expected = want[f.name];
      // ClickHouse writes 64-bit integers in JSON as strings
      assert.deepEqual(f.type === 'number' && got !== null ? Number(got) : got, expected, `${f.name} of record ${i}`);
    }
  });
});

test('the legacy form is what 18.16 can run; the current form is refused there (DateTime64)', { skip }, async () => {
  const names = { database: 'default', table: 'forms_current', cluster: null };
  const s = store('forms');
  await s.prepare();
  if (s.form === 'legacy') {
    await assert.rejects(s.command(recordsTableSql(names, 'current')), /DateTime64|Unknown data type/);
    await s.command(recordsTableSql({ ...names, table: 'forms_legacy' }, 'legacy'));
    const [row] = await s
      .rows<{ k: string; p: string }>("SELECT sorting_key AS k, partition_key AS p FROM system.tables WHERE name = 'forms_legacy'")
      .catch(() => [{ k: 'n/a', p: 'n/a' }]);
    assert.ok(row);
  } else {
    await s.command(recordsTableSql(names, 'current'));
  }
});

test('records that show up after their checkpoint was written are stored, once, by the next run', { skip }, async () => {
  const T0 = Date.now() - 10 * 60_000;
  const clock = new EmulatorClock(T0, { running: false });
  const emu = await useEmulator({ now: clock.now, logRate: 20, ingestDelayMs: 60_000 });
  const api = apiFor(emu);
  const zone = emu.info.pullZoneIds[0]!;
  const s = store('late');
  const from = T0 - 5 * 60_000;
  // a settle far too short for a 60 s ingestion delay: the checkpoint passes records still to come
  const first = shipInProcess(api.logs, s, { zones: [zone], sinceMs: 5 * 60_000, settleMs: 1000 });
  const cpA = await until(
    'a checkpoint near the live end',
    async () => {
      const cp = await s.readState(zone, 'checkpoint').catch(() => null);
      return cp && cp.value >= T0 - 40_000 ? cp.value : null;
    },
    60_000,
    100,
  );
  first.stop();
  assert.equal(await first.done, 0, first.lines.join(''));
  const before = await storedIds(s, zone, from, cpA);
  clock.advance(200_000); // every record before T0 is visible now
  const platform = platformIds(emu, zone, from, cpA);
  assert.ok(before.length < platform.length, `some records were late past the checkpoint (${before.length} stored of ${platform.length})`);

  const second = shipInProcess(api.logs, s, { zones: [zone], sinceMs: 5 * 60_000, settleMs: 1000 });
  await until('the late records stored', async () => (await storedIds(s, zone, from, cpA)).length >= platform.length, 60_000, 100);
  second.stop();
  assert.equal(await second.done, 0, second.lines.join(''));
  const stored = await storedIds(s, zone, from, cpA);
  assert.equal(stored.length, platform.length, 'count() = the platform count');
  assert.equal(new Set(stored).size, stored.length, 'no duplicates');
  assert.deepEqual([...stored].sort(), [...platform].sort(), 'the same records');
  assert.ok(second.lines.some((l) => l.includes('"resumed":true')));
});

test('--metrics: Prometheus text from prom-client with records stored, lag, requests by status, per zone', { skip }, async () => {
  const { ShipMetrics } = await import('../../src/log-ship/metrics');
  const emu = await useEmulator({ logRate: 10 });
  const api = apiFor(emu);
  const zone = emu.info.pullZoneIds[1]!;
  const s = store('metered');
  const metrics = new ShipMetrics();
  const served = await metrics.serve('127.0.0.1', 0);
  try {
    const from = Math.floor(emu.world.now() / 1000) * 1000 - 80 * 60_000;
    const run = shipInProcess(api.logs, s, { zones: [zone], window: { from, to: from + 3 * 60_000 }, metrics });
    assert.equal(await run.done, 0, run.lines.join(''));
    const text = await (await fetch(`http://127.0.0.1:${served.port}/metrics`)).text();
    const stored = Number(new RegExp(`burrow_ship_records_stored_total\\{zone="${zone}"\\} (\\d+)`).exec(text)?.[1]);
    assert.equal(stored, (await storedIds(s, zone, from, from + 3 * 60_000)).length);
    assert.match(text, new RegExp(`burrow_ship_platform_requests_total\\{zone="${zone}",status="200"\\} \\d+`));
    assert.match(text, new RegExp(`burrow_ship_lag_seconds\\{zone="${zone}"\\} `));
    assert.match(text, /# TYPE burrow_ship_insert_errors_total counter/);
  } finally {
    served.server.close();
  }
});

test('records ClickHouse refuses are put aside in <table>_rejected and the zone completes: stored + rejected = the platform count', { skip }, async () => {
  const { ShipMetrics } = await import('../../src/log-ship/metrics');
  const emu = await useEmulator({ logRate: 20 });
  const api = apiFor(emu);
  const zone = emu.info.pullZoneIds[0]!;
  const s = store('refusing');
  await s.prepare();
  // a column that takes no value longer than 10 bytes: the server refuses every REVALIDATED record
  await s.command('ALTER TABLE refusing MODIFY COLUMN cacheStatus Nullable(FixedString(10))');
  const from = Math.floor(emu.world.now() / 1000) * 1000 - 80 * 60_000;
  const to = from + 2 * 60_000;
  const platform = generatedLogRecords(emu.world, zone, from, to);
  const refusable = platform.filter((r) => String(r.cacheStatus ?? '').length > 10).map((r) => String(r.requestId));
  assert.ok(refusable.length > 0 && refusable.length < platform.length / 4, `some records will be refused (${refusable.length} of ${platform.length})`);

  const metrics = new ShipMetrics();
  const run = shipInProcess(api.logs, s, { zones: [zone], window: { from, to }, metrics });
  assert.equal(await run.done, 0, run.lines.join(''));
  const stored = await storedIds(s, zone, from, to);
  const rejected = await s.rows<{ r: string; line: string; error: string }>('SELECT requestId AS r, line, error FROM refusing_rejected');
  assert.deepEqual(rejected.map((x) => x.r).sort(), [...refusable].sort(), 'exactly the records the server refuses are put aside');
  assert.equal(stored.length + rejected.length, platform.length, 'stored + rejected = the platform count');
  assert.equal(new Set([...stored, ...rejected.map((x) => x.r)]).size, platform.length, 'each record once, in one of the two tables');
  for (const x of rejected) {
    const line = JSON.parse(x.line) as Record<string, unknown>;
    assert.equal(line.requestId, x.r, 'the line as it was sent');
    assert.equal(line.cacheStatus, 'REVALIDATED');
    assert.match(x.error, /FixedString/);
  }
  const events = run.lines.filter((l) => l.includes('"event":"rejected"'));
  assert.ok(events.length > 0, 'said on stderr');
  assert.match(events[0]!, /refusing_rejected/);
  assert.match(run.lines.join(''), new RegExp(`"event":"done".*"rejected":${refusable.length}`));
  const text = await metrics.registry.metrics();
  assert.match(text, new RegExp(`burrow_ship_records_rejected_total\\{zone="${zone}"\\} ${refusable.length}\\b`));

  // run again: nothing stored or put aside twice
  const again = shipInProcess(api.logs, s, { zones: [zone], window: { from, to } });
  assert.equal(await again.done, 0, again.lines.join(''));
  assert.equal((await storedIds(s, zone, from, to)).length, stored.length);
  assert.equal(Number((await s.rows<{ c: string }>('SELECT count() AS c FROM refusing_rejected'))[0]!.c), rejected.length);
});
