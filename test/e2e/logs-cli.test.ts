import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { spawnBurrow } from '../helpers/cli';
import { BURROW_BIN } from '../helpers/pty';
import { useEmulator, envFor } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import { v1Date } from '../../src/api/logs/v1';

// `burrow logs` through the real binary (npm run build first) against an in-process emulator.

const emu = await useEmulator({ seed: 41, logRate: 10, ingestDelayMs: 500 });
const [ZONE] = emu.info.pullZoneIds as [number];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-logs-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const baseEnv = { PATH: process.env.PATH ?? '', TZ: 'UTC', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state') };
const env = { ...baseEnv, ...envFor(emu) };

// The follow tests get an emulator of their own: no other test spends its zone's request budget,
// and its traffic is counted from its start, so the first minutes of this zone are the same busy
// ones (about 8-12 records/s) on every run, whatever the hour.
const live = await useEmulator({ seed: 41, logRate: 10, ingestDelayMs: 500 });
const LIVE_ZONE = live.world.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
const liveEnv = { ...baseEnv, ...envFor(live) };

const start = (args: string[], e: Record<string, string> = env) => spawnBurrow(args, { env: e, timeoutMs: 15_000 });
const burrow = (args: string[], e?: Record<string, string>) => start(args, e).done;
const lines = (s: string) => s.split('\n').filter((l) => l !== '');
const iso = (t: number) => new Date(t).toISOString();

// A finished window in the past: every record in it is visible, so the answer is exact.
const FROM = Date.now() - 40 * 60_000;
const TO = Date.now() - 20 * 60_000;
const past = generatedLogRecords(emu.world, ZONE, FROM, TO) as { requestId: string; statusCode: number; timestamp: string }[];

test('bounded query, ndjson: the newest N records of the window, oldest first', async () => {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--limit', '50', '-o', 'ndjson']);
  assert.equal(r.code, 0, r.stderr);
  const recs = lines(r.stdout).map((l) => JSON.parse(l) as { requestId: string; timestamp: string; pullZoneId: number });
  assert.equal(recs.length, 50);
  assert.deepEqual(
    recs.map((x) => x.requestId),
    past.slice(-50).map((x) => x.requestId),
  );
  assert.ok(recs.every((x) => x.pullZoneId === ZONE));
  assert.match(r.stderr, /showing the newest 50 matching records; there are more/);
});

test('bounded query, json with filters: exactly the matching records, as one array', async () => {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--status', '5xx,404', '--limit', '100000', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const recs = JSON.parse(r.stdout) as { requestId: string; statusCode: number }[];
  const want = past.filter((x) => x.statusCode >= 500 || x.statusCode === 404).map((x) => x.requestId);
  assert.ok(want.length > 0);
  assert.deepEqual(
    recs.map((x) => x.requestId),
    want,
  );
  assert.equal(r.stderr, '');
});

test('bounded query, text: one aligned line per record', async () => {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--limit', '30', '--cache-status', 'HIT,MISS']);
  assert.equal(r.code, 0, r.stderr);
  const ls = lines(r.stdout);
  assert.equal(ls.length, 30);
  for (const l of ls) {
    assert.match(l, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \d{3} (HIT|MISS) +\d+ /);
    assert.equal(l.slice(24, 25), ' ');
    assert.equal(l.slice(28, 29), ' ');
    assert.equal(l.slice(40, 41), ' ', 'the cache column is 11 wide');
    assert.match(l.slice(41, 50), /^ *\d+$/, 'bytes right-aligned in 9');
  }
  const want = past.filter((x) => ['HIT', 'MISS'].includes((x as unknown as { cacheStatus: string }).cacheStatus)).slice(-30);
  assert.deepEqual(
    ls.map((l) => l.slice(0, 24)),
    want.map((x) => x.timestamp),
  );
});

test('--follow prints new records in order and stops cleanly on SIGINT (exit 130)', async () => {
  const startedAt = live.world.now();
  const p = start(['logs', String(LIVE_ZONE), '--follow', '--since', '30s', '-o', 'ndjson'], liveEnv);
  // Live records: newer than the start (held back until the command has learnt the lag, which
  // takes 20 records and 3 polls of this zone's steady traffic).
  await until('live records', () => lines(p.out()).some((l) => Date.parse((JSON.parse(l) as { timestamp: string }).timestamp) > startedAt + 500), 25_000);
  p.child.kill('SIGINT');
  const r = await p.done;
  assert.equal(r.code, 130, r.stderr);
  const recs = lines(r.stdout).map((l) => JSON.parse(l) as { requestId: string; timestamp: string });
  const times = recs.map((x) => Date.parse(x.timestamp));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
    'timestamp order',
  );
  assert.equal(new Set(recs.map((x) => x.requestId)).size, recs.length, 'no duplicates');
  assert.ok(times[0]! >= startedAt - 31_000);
  const generated = new Set(generatedLogRecords(live.world, LIVE_ZONE, startedAt - 31_000, live.world.now()).map((g) => g.requestId));
  assert.ok(
    recs.every((x) => generated.has(x.requestId)),
    'every record is one the emulator wrote',
  );
});

test('--follow stops cleanly on SIGTERM with exit 143 (as the console), output flushed whole', async () => {
  const p = start(['logs', String(LIVE_ZONE), '--follow', '--since', '1m', '-o', 'ndjson'], liveEnv);
  await until('records', () => lines(p.out()).length > 0, 25_000);
  p.child.kill('SIGTERM');
  const r = await p.done;
  assert.equal(r.code, 143, r.stderr);
  assert.equal(r.signal, null, 'the command ended itself, not the signal');
  assert.ok(r.stdout.endsWith('\n'));
  for (const l of lines(r.stdout)) assert.ok(JSON.parse(l));
});

test('a closed pipe ends the command quietly with exit 0 (bounded and --follow)', async () => {
  for (const args of [
    ['--since', '1h', '--limit', '20000'],
    ['--follow', '--since', '1m'],
  ]) {
    const script = `"${process.execPath}" "${BURROW_BIN}" logs ${ZONE} ${args.join(' ')} -o ndjson | head -1; echo "exit=\${PIPESTATUS[0]}" >&2`;
    const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await new Promise((resolve) => child.on('close', resolve));
    clearTimeout(guard);
    assert.equal(lines(stdout).length, 1, `${args.join(' ')}: ${stderr}`);
    assert.ok(JSON.parse(lines(stdout)[0]!));
    assert.match(stderr, /exit=0\n/, `${args.join(' ')}: ${stderr}`);
    assert.doesNotMatch(stderr, /EPIPE|Error/);
  }
});

test('bad input: a clear message on stderr, exit 2, nothing sent', async () => {
  const cases: [string[], RegExp][] = [
    [['--status', '5xz'], /--status "5xz" is not a status code \(100-599\) or a class \(1xx-5xx\); example: 5xx,404/],
    [['--search', Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ')], /--search at most 16 search tokens/],
    [['--country', 'Germany'], /--country "GERMANY" is not an ISO 3166 alpha-2 country code/],
    [['--since', '4d'], /--since "4d": use a duration like 30s, 15m, 2h or 3d/],
    [['--limit', '0'], /--limit must be a whole number from 1 to 1000000/],
    [['--v1'], /--v1 needs --date MM-dd-yy/],
    [['--v1', '--date', '2026-01-01'], /--date "2026-01-01" is not a date in MM-dd-yy form/],
    [['--follow', '--from', iso(FROM), '--to', iso(TO)], /--follow .* cannot take --to/],
  ];
  for (const [args, re] of cases) {
    const r = await burrow(['logs', String(ZONE), ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, re);
    assert.equal(r.stdout, '');
  }
  const notZone = await burrow(['logs', 'shop-assets']);
  assert.equal(notZone.code, 2);
  assert.match(notZone.stderr, /PULLZONE must be a numeric pull zone id/);
});

test('API errors go to stderr with exit 1, and the process never hangs', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  for (const args of [[], ['--follow']]) {
    const r = await burrow(['logs', String(off.Id), ...args]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /404 Not Found logging_disabled/);
    assert.equal(r.stdout, '');
  }
  const bad = await burrow(['logs', String(ZONE)], { ...env, BURROW_API_KEY: 'not-the-key' });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /403 Forbidden forbidden/);
  const none = await burrow(['logs', String(ZONE)], baseEnv);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no API key configured/);
});

test('--v1: a day file, filtered locally, same records', async () => {
  const r = await burrow(['logs', String(ZONE), '--v1', '--date', v1Date(Date.now()), '--country', 'US', '--status', '2xx', '--limit', '5', '-o', 'ndjson']);
  assert.equal(r.code, 0, r.stderr);
  const recs = lines(r.stdout).map((l) => JSON.parse(l) as { countryCode: string; statusCode: number; requestId: string; timestamp: string });
  assert.equal(recs.length, 5);
  assert.ok(recs.every((x) => x.countryCode === 'US' && x.statusCode < 300));
  const generated = new Map(generatedLogRecords(emu.world, ZONE, Date.now() - 86_400_000, Date.now()).map((g) => [g.requestId, g]));
  for (const x of recs) assert.equal(generated.get(x.requestId)?.timestamp, x.timestamp);
});
