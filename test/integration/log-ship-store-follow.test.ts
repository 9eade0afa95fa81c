import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { storeAt } from '../helpers/ship';
import { logEntry } from '../helpers/log-entry';
import { spawnBurrow } from '../helpers/cli';
import { until } from '../helpers/wait';
import { pageLines } from '../../src/log-ship/page-lines';
import { StoreFollower } from '../../src/log-ship/store-follow';
import { normalizeFilter } from '../../src/api/logs/query';
import type { LogEntry } from '../../src/log-fields/fields';
import type { LogStore } from '../../src/log-ship/store';

/**
 * Following the store: records given once each as they are stored, including records stored
 * late with an older time (behind the zone's checkpoint, or within the overlap without one).
 */
const skip = clickhouseSkip();
let ch: ClickHouseServer;
const stores: LogStore[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-store-follow-'));
before(async () => {
  if (!skip) ch = await startClickHouse();
});
after(async () => {
  for (const s of stores) await s.close();
  await ch?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function storeFor(table: string): Promise<LogStore> {
  const s = storeAt(ch.storeUrl, table);
  stores.push(s);
  await s.prepare();
  return s;
}

let serial = 0;
function record(zone: number, t: number, extra: Partial<LogEntry> = {}): LogEntry {
  serial++;
  return logEntry({ timestamp: new Date(t).toISOString(), pullZoneId: zone, requestId: serial.toString(16).padStart(32, '0'), statusCode: 200, ...extra });
}

async function insert(s: LogStore, zone: number, records: LogEntry[]): Promise<void> {
  const body = Buffer.from(JSON.stringify({ data: records, pagination: { offset: 0, limit: 10000, returned: records.length, hasMore: false } }));
  await s.insert(pageLines(body, zone, s.form).bytes);
}

const ids = (entries: readonly LogEntry[]) => entries.map((e) => e.requestId);

test('a follower gives each stored record once, late ones behind the checkpoint too, and forgets what the checkpoint passed', { skip }, async () => {
  const s = await storeFor('follow_cp');
  const zone = 7;
  const base = Date.UTC(2026, 10, 20, 12, 0, 0);
  const follower = new StoreFollower(s, { zones: [zone], filter: null, from: base, overlapMs: 60_000 });
  assert.deepEqual(await follower.poll(), [], 'nothing stored yet');

  const first = [record(zone, base + 1000), record(zone, base + 2000), record(zone, base - 5000)];
  await insert(s, zone, first);
  assert.deepEqual(ids(await follower.poll()), ids(first.slice(0, 2)), 'the window from `from` on, oldest first');
  assert.deepEqual(await follower.poll(), [], 'nothing twice');

  // a shipper's checkpoint at base + 1500: only records at or after it stay remembered
  await s.writeState(zone, 'checkpoint', { value: base + 1500, owner: 'test', host: 'h', pid: 1, writtenMs: Date.now() });
  const late = record(zone, base + 1600);
  const next = record(zone, base + 3000);
  await insert(s, zone, [late, next]);
  assert.deepEqual(ids(await follower.poll()), ids([late, next]), 'a late record (older than the newest given) is given, in time order');
  assert.equal(follower.remembered, 3, 'what the checkpoint passed is forgotten');

  // far later records, then one stored late 10 minutes behind them but after the checkpoint
  const far = record(zone, base + 20 * 60_000);
  await insert(s, zone, [far]);
  assert.deepEqual(ids(await follower.poll()), ids([far]));
  const veryLate = record(zone, base + 10 * 60_000);
  await insert(s, zone, [veryLate]);
  assert.deepEqual(ids(await follower.poll()), ids([veryLate]), 'with a checkpoint, however late: the floor waits for it');
  assert.deepEqual(await follower.poll(), []);
});

test('without a checkpoint the follower keeps the overlap behind the newest record, and filters as the platform', { skip }, async () => {
  const s = await storeFor('follow_overlap');
  const zone = 8;
  const base = Date.UTC(2026, 10, 20, 12, 0, 0);
  const follower = new StoreFollower(s, { zones: [zone], filter: normalizeFilter({ status: '5xx' }), from: base, overlapMs: 60_000 });
  const a = record(zone, base + 10 * 60_000, { statusCode: 503 });
  await insert(s, zone, [a, record(zone, base + 10 * 60_000 + 1, { statusCode: 200 })]);
  assert.deepEqual(ids(await follower.poll()), ids([a]), 'the 200 is filtered out');
  const inOverlap = record(zone, base + 9.5 * 60_000, { statusCode: 500 });
  const pastOverlap = record(zone, base + 8 * 60_000, { statusCode: 500 });
  await insert(s, zone, [inOverlap, pastOverlap]);
  assert.deepEqual(ids(await follower.poll()), ids([inOverlap]), 'within the overlap: given; older: not (no checkpoint to wait for)');
  assert.equal(follower.remembered, 2);
});

test('burrow logs --store --follow prints records as they are stored, each once', { skip }, async () => {
  const s = await storeFor('follow_cli');
  const zone = 9;
  const now = Date.now();
  const old = record(zone, now - 30_000);
  await insert(s, zone, [old]);
  const cli = spawnBurrow(['logs', String(zone), '--store', '--table', 'follow_cli', '--follow', '--since', '5m', '-o', 'ndjson'], {
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), BURROW_LOG_STORE: ch.storeUrl },
    timeoutMs: 120_000,
  });
  const lines = () =>
    cli
      .out()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as LogEntry).requestId);
  await until('the stored record printed', () => lines().length === 1, 30_000);
  const fresh = record(zone, Date.now());
  const late = record(zone, now - 20_000);
  await insert(s, zone, [fresh]);
  await until('the new record printed', () => lines().length === 2, 30_000);
  await insert(s, zone, [late]);
  await until('the late record printed', () => lines().length === 3, 30_000);
  cli.child.kill('SIGINT');
  const r = await cli.done;
  assert.equal(r.code, 130, r.stderr);
  assert.deepEqual(lines(), ids([old, fresh, late]));
});

test('burrow logs --store --follow --alert fires on the records as they are stored (--exit-on-alert: 3)', { skip }, async () => {
  const s = await storeFor('follow_alert');
  const zone = 10;
  await insert(s, zone, [record(zone, Date.now() - 20_000)]);
  const cli = spawnBurrow(
    [
      'logs',
      String(zone),
      '--store',
      '--table',
      'follow_alert',
      '--follow',
      '--since',
      '5m',
      '-o',
      'ndjson',
      '--alert',
      'status=5xx count>0 over 10s',
      '--exit-on-alert',
    ],
    { env: { PATH: process.env.PATH ?? '', TZ: 'UTC', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), BURROW_LOG_STORE: ch.storeUrl }, timeoutMs: 120_000 },
  );
  await until('the stored record printed', () => cli.out().split('\n').filter(Boolean).length === 1, 30_000);
  const bad = record(zone, Date.now(), { statusCode: 503 });
  await insert(s, zone, [bad, record(zone, Date.now() + 1)]);
  const r = await cli.done;
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /burrow alert: FIRING .*status=5xx count>0 over 10s\s+observed 1 record/);
});
