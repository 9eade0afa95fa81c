import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { generatedLogRecords, loggingStats } from '../../src/emulator/logging/index';

// `burrow logs A B ...` through the real binary (npm run build first) against an in-process emulator.

const emu = await useEmulator({ seed: 43, logRate: 10, ingestDelayMs: 500 });
const zone = (name: string) => emu.world.pullZones.find((z) => z.Name === name)!.Id;
const A = zone('shop-assets');
const B = zone('video-edge');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-zones-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...envFor(emu) };

const start = (args: string[]) => spawnBurrow(['logs', ...args], { env, timeoutMs: 30_000 });
const burrow = (args: string[]) => start(args).done;
const lines = (s: string) => s.split('\n').filter((l) => l !== '');
const iso = (t: number) => new Date(t).toISOString();
interface Rec {
  requestId: string;
  timestamp: string;
  pullZoneId: number;
}
const parse = (out: string) => lines(out).map((l) => JSON.parse(l) as Rec);

// a finished window: every record in it is visible, so the answers are exact
const FROM = Date.now() - 30 * 60_000;
const TO = Date.now() - 25 * 60_000;
const window = ['--from', iso(FROM), '--to', iso(TO), '--limit', '100000'];

test('logs A B --from --to -o ndjson: the union of the single-zone outputs, in time order, without duplicates, each with its pullZoneId', async () => {
  const [both, onlyA, onlyB] = await Promise.all([
    burrow([String(A), String(B), ...window, '-o', 'ndjson']),
    burrow([String(A), ...window, '-o', 'ndjson']),
    burrow([String(B), ...window, '-o', 'ndjson']),
  ]);
  for (const r of [both, onlyA, onlyB]) assert.equal(r.code, 0, r.stderr);
  const a = parse(onlyA.stdout);
  const b = parse(onlyB.stdout);
  assert.ok(a.length > 100 && b.length > 100, `records: ${a.length}, ${b.length}`);
  // the reference: both outputs together, sorted by time (stable: a tie keeps A before B)
  const want = [...a, ...b].sort((x, y) => Date.parse(x.timestamp) - Date.parse(y.timestamp));
  const got = parse(both.stdout);
  assert.deepEqual(got, want);
  assert.ok(got.every((r) => r.pullZoneId === A || r.pullZoneId === B));
  assert.equal(new Set(got.map((r) => r.requestId)).size, got.length);
  // the same zone twice is one zone
  const twice = await burrow([String(A), `${A},${B}`, ...window, '-o', 'ndjson']);
  assert.deepEqual(parse(twice.stdout), want);
});

test('--limit N across zones: the newest N of the merged window', async () => {
  const [all, newest] = await Promise.all([
    burrow([String(A), String(B), ...window, '-o', 'ndjson']),
    burrow([String(A), String(B), '--from', iso(FROM), '--to', iso(TO), '--limit', '40', '-o', 'ndjson']),
  ]);
  assert.equal(newest.code, 0, newest.stderr);
  assert.deepEqual(parse(newest.stdout), parse(all.stdout).slice(-40));
  assert.match(newest.stderr, /showing the newest 40 matching records of the 2 zones/);
});

test('-o table and -o csv: a zone column', async () => {
  const table = await burrow([String(A), String(B), '--from', iso(FROM), '--to', iso(TO), '--limit', '20', '-o', 'table']);
  assert.equal(table.code, 0, table.stderr);
  const [header, ...rows] = lines(table.stdout);
  assert.match(header!, /^TIME +ZONE +STATUS CACHE +BYTES CC EDGE IP +URL +USER AGENT$/, 'URL is as wide as its widest value');
  assert.equal(rows.length, 20);
  const zonesShown = new Set(rows.map((l) => /^\S+ (\d+) +\d{3} /.exec(l)?.[1]));
  assert.deepEqual([...zonesShown].sort(), [String(A), String(B)].sort(), table.stdout);
  const csv = await burrow([String(A), String(B), '--from', iso(FROM), '--to', iso(TO), '--limit', '20', '-o', 'csv']);
  const [csvHeader, ...csvRows] = csv.stdout.split('\r\n').filter((l) => l !== '');
  assert.match(csvHeader!, /^timestamp,pullZoneId,requestId,/);
  assert.equal(csvRows.length, 20);
  assert.deepEqual([...new Set(csvRows.map((l) => l.split(',')[1]))].sort(), [String(A), String(B)].sort());
  // one zone: no zone column, as before
  const one = await burrow([String(A), '--from', iso(FROM), '--to', iso(TO), '--limit', '3', '-o', 'table']);
  assert.match(lines(one.stdout)[0]!, /^TIME +STATUS CACHE/);
});

test('--follow A B: merged live records in time order, no duplicates, both zones; SIGINT ends it cleanly (exit 130)', async () => {
  const startedAt = emu.world.now();
  const p = start([String(A), String(B), '--follow', '--since', '30s', '-o', 'ndjson']);
  const live = () => parse(p.out()).filter((r) => Date.parse(r.timestamp) > startedAt + 500);
  await until('live records of both zones', () => new Set(live().map((r) => r.pullZoneId)).size === 2, 40_000);
  p.child.kill('SIGINT');
  const r = await p.done;
  assert.equal(r.code, 130, r.stderr);
  const recs = parse(r.stdout);
  const times = recs.map((x) => Date.parse(x.timestamp));
  assert.deepEqual(
    times,
    [...times].sort((x, y) => x - y),
    'time order across the zones',
  );
  assert.equal(new Set(recs.map((x) => x.requestId)).size, recs.length, 'no duplicates');
  for (const z of [A, B]) {
    const generated = new Set(generatedLogRecords(emu.world, z, startedAt - 31_000, emu.world.now()).map((g) => g.requestId));
    const mine = recs.filter((x) => x.pullZoneId === z);
    assert.ok(mine.length > 0);
    assert.ok(
      mine.every((x) => generated.has(x.requestId)),
      `zone ${z}: records the emulator wrote`,
    );
  }
});

test('a zone that does not exist or has no logging: the command fails before printing anything, naming the zone (exit 1); bad arguments exit 2', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!.Id;
  const before = loggingStats(emu.world).zone(A).accepted;
  for (const args of [
    [String(A), String(off), '--follow'],
    [String(A), '99999', '--follow'],
    [String(A), String(off), '--since', '1m'],
  ]) {
    const r = await burrow(args);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`pull zone ${args[1]}: (404 Not Found logging_disabled|403 Forbidden forbidden)`));
  }
  assert.ok(loggingStats(emu.world).zone(A).accepted - before <= 3, 'one check request for the good zone per run');
  const bad = await burrow([String(A), 'shop-assets']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /PULLZONE must be a numeric pull zone id .*got "shop-assets"/);
  const v1 = await burrow([String(A), String(B), '--v1', '--date', '01-01-26']);
  assert.equal(v1.code, 2);
  assert.match(v1.stderr, /--v1 reads the day file of one zone/);
});
