import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { envFor } from '../helpers/emulator';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import { spawnBurrow } from '../helpers/cli';

/**
 * `burrow logs --store` with the platform's filters and --histogram: a window shipped from the
 * emulator, then the same command with and without --store gives the same answer.
 */
const skip = clickhouseSkip();
let ch: ClickHouseServer;
let emu: RunningEmulator;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-store-read-'));
let zones: [number, number];
let from: number;
let to: number;

const env = () => ({
  PATH: process.env.PATH ?? '',
  TZ: 'UTC',
  HOME: dir,
  XDG_CONFIG_HOME: path.join(dir, 'cfg'),
  XDG_STATE_HOME: path.join(dir, 'state'),
  ...envFor(emu),
  BURROW_LOG_STORE: ch.storeUrl,
});

before(async () => {
  if (skip) return;
  ch = await startClickHouse();
  emu = await startEmulator({ seed: 7, port: 0, host: '127.0.0.1', logRate: 30 });
  zones = emu.info.pullZoneIds.slice(0, 2) as [number, number];
  from = Math.floor(emu.world.now() / 1000) * 1000 - 75 * 60_000;
  to = from + 5 * 60_000;
  const shipped = await spawnBurrow(
    ['ship', String(zones[0]), String(zones[1]), '--from', new Date(from).toISOString(), '--to', new Date(to).toISOString(), '--table', 'reads'],
    {
      env: env(),
      timeoutMs: 120_000,
    },
  ).done;
  assert.equal(shipped.code, 0, shipped.stderr);
});
after(async () => {
  await ch?.close();
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const windowArgs = () => [String(zones[0]), String(zones[1]), '--from', new Date(from).toISOString(), '--to', new Date(to).toISOString()];

async function both(args: readonly string[]): Promise<{ store: string; platform: string }> {
  const [s, p] = await Promise.all([
    spawnBurrow(['logs', ...windowArgs(), ...args, '--store', '--table', 'reads'], { env: env(), timeoutMs: 60_000 }).done,
    spawnBurrow(['logs', ...windowArgs(), ...args], { env: env(), timeoutMs: 60_000 }).done,
  ]);
  assert.equal(s.code, 0, `--store ${args.join(' ')}: ${s.stderr}`);
  assert.equal(p.code, 0, `${args.join(' ')}: ${p.stderr}`);
  return { store: s.stdout, platform: p.stdout };
}

/** A value of the window's records, picked from the platform's own records (most frequent first). */
function common(field: (r: Record<string, unknown>) => unknown, nth = 0): string {
  const counts = new Map<string, number>();
  for (const z of zones) {
    for (const r of generatedLogRecords(emu.world, z, from, to)) {
      const v = field(r as unknown as Record<string, unknown>);
      if (typeof v === 'string' && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[nth]![0];
}

test("logs --store with the platform's filters prints what the platform prints for the window", { skip }, async () => {
  const total = (await both(['--limit', '1000000', '-o', 'ndjson'])).platform.split('\n').filter(Boolean).length;
  assert.ok(total > 1000, `the window has records (${total})`);
  const country = common((r) => r.countryCode, 1);
  const edge = common((r) => r.edgeLocation);
  // a piece of a frequent path and user agent, in another case: the platform matches any case
  const pathPiece = common((r) => r.path)
    .slice(1, 5)
    .toUpperCase();
  const uaPiece = common((r) => r.userAgent, 2)
    .slice(0, 9)
    .toLowerCase();
  const host = common((r) => r.host);
  const filters: string[][] = [
    ['--status', '4xx,200'],
    ['--cache-status', 'miss,BYPASS', '--country', country.toLowerCase()],
    ['--edge', edge, '--status', '2xx'],
    ['--url', `${host.slice(2)}${common((r) => r.path).slice(0, 3)}`],
    ['--ua', uaPiece],
    // ANY token in ANY searched field: a path piece, an edge code, a cache status
    ['--search', `${pathPiece} ${edge.toLowerCase()} Expired`],
    ['--search', uaPiece.slice(0, 6), '--status', '3xx,5xx'],
  ];
  for (const f of filters) {
    const { store, platform } = await both([...f, '--limit', '1000000', '-o', 'ndjson']);
    const lines = (t: string) => t.split('\n').filter(Boolean).sort();
    const n = lines(platform).length;
    assert.ok(n > 0 && n < total, `${f.join(' ')} filters (${n} of ${total})`);
    const got = lines(store);
    const want = lines(platform);
    assert.equal(got.length, want.length, `${f.join(' ')}: as many records as the platform's`);
    const wrong = got.findIndex((line, i) => line !== want[i]);
    assert.equal(wrong, -1, `${f.join(' ')}: first difference\n${got[wrong]}\n${want[wrong]}`);
  }
});

test('logs --store --histogram is counted by ClickHouse and prints what the platform histogram prints', { skip }, async () => {
  for (const args of [['--bucket', '1m'], ['--bucket', '10s', '--status', '5xx,404', '--search', 'HIT'], []]) {
    const { store, platform } = await both([...args, '--histogram', '-o', 'csv']);
    assert.ok(platform.split('\n').length > 5, platform);
    assert.equal(store, platform, args.join(' '));
  }
});

test('--store with --sql or --v1 is refused with what to do instead', { skip }, async () => {
  const sql = await spawnBurrow(['logs', String(zones[0]), '--store', '--table', 'reads', '--sql', 'SELECT 1'], { env: env(), timeoutMs: 30_000 }).done;
  assert.notEqual(sql.code, 0);
  assert.match(sql.stderr, /--sql loads records into DuckDB; the store is ClickHouse already: query it there/);
  const v1 = await spawnBurrow(['logs', String(zones[0]), '--store', '--table', 'reads', '--v1', '--date', '11-20-26'], { env: env(), timeoutMs: 30_000 }).done;
  assert.notEqual(v1.code, 0);
  assert.match(v1.stderr, /--v1 reads the platform's day files: it does not go with --store/);
});
