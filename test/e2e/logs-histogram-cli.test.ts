import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { useEmulator, envFor } from '../helpers/emulator';

// `burrow logs --histogram` through the real binary against an emulator: its counts are the
// counts of the records `-o ndjson` prints for the same window, bucket by bucket.

const emu = await useEmulator({ seed: 43, logRate: 10, ingestDelayMs: 500 });
const [ZONE] = emu.info.pullZoneIds as [number];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-histogram-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = {
  PATH: process.env.PATH ?? '',
  TZ: 'UTC',
  HOME: dir,
  XDG_CONFIG_HOME: path.join(dir, 'cfg'),
  XDG_STATE_HOME: path.join(dir, 'state'),
  ...envFor(emu),
};
const burrow = (args: string[]) => runBurrow(args, { env, timeoutMs: 30_000 });
const iso = (t: number) => new Date(t).toISOString();

// A finished window in the past, not on bucket boundaries (so the first and last buckets are partial).
const FROM = Math.floor((Date.now() - 40 * 60_000) / 60_000) * 60_000 + 17_000;
const TO = FROM + 12 * 60_000 + 5_000;

interface Row {
  start: string;
  total: number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
}

/** The histogram computed here from the ndjson records of the same window and filters. */
async function expected(size: number, extra: string[] = []): Promise<Row[]> {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--limit', '1000000', '-o', 'ndjson', ...extra]);
  assert.equal(r.code, 0, r.stderr);
  const recs = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { timestamp: string; statusCode: number });
  assert.ok(recs.length > 100, `a busy window (${recs.length} records)`);
  const first = Math.floor(FROM / size) * size;
  const rows: Row[] = [];
  for (let t = first; t < TO; t += size) rows.push({ start: iso(t), total: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 });
  for (const e of recs) {
    const row = rows[Math.floor((Date.parse(e.timestamp) - first) / size)]!;
    row.total++;
    const cls = `${Math.floor(e.statusCode / 100)}xx`;
    if (cls === '2xx' || cls === '3xx' || cls === '4xx' || cls === '5xx') row[cls]++;
  }
  return rows;
}

test('--histogram -o json: every bucket of a --from/--to window, counts equal to the ndjson records of that window', async () => {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--histogram', '--bucket', '1m', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as Row[];
  assert.equal(rows.length, 13, '12 min 5 s starting at :17 spans 13 one-minute buckets');
  assert.deepEqual(rows, await expected(60_000));
  assert.ok(rows.some((x) => x['4xx'] > 0) && rows.some((x) => x['2xx'] > 0), 'several classes counted');
});

test('--histogram with a server filter and 10 s buckets, as CSV', async () => {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--status', '4xx,5xx', '--histogram', '--bucket', '10s', '-o', 'csv']);
  assert.equal(r.code, 0, r.stderr);
  const [header, ...lines] = r.stdout.trim().split('\n');
  assert.equal(header, 'START,TOTAL,2XX,3XX,4XX,5XX');
  const rows = lines.map((l) => {
    const [start, total, a, b, c, d] = l.split(',');
    return { start: start!, total: Number(total), '2xx': Number(a), '3xx': Number(b), '4xx': Number(c), '5xx': Number(d) };
  });
  const want = await expected(10_000, ['--status', '4xx,5xx']);
  assert.deepEqual(rows, want);
  assert.ok(
    rows.some((x) => x.total === 0),
    'empty buckets are listed',
  );
  assert.ok(
    rows.every((x) => x['2xx'] === 0),
    'the filter applies',
  );
});

test('--histogram as a table, with the automatic bucket size', async () => {
  const r = await burrow(['logs', String(ZONE), '--from', iso(FROM), '--to', iso(TO), '--histogram']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0]!, /^START\s+TOTAL\s+2XX\s+3XX\s+4XX\s+5XX$/);
  // 12 min 5 s in at most 100 buckets: 10 s ones (30 s would also fit, 5 s would not)
  assert.equal(lines.length - 1, Math.floor((TO - 1) / 10_000) - Math.floor(FROM / 10_000) + 1);
  assert.match(lines[1]!, new RegExp(`^${iso(Math.floor(FROM / 10_000) * 10_000).replace(/\./g, '\\.')}\\s+\\d+`));
});

test('a bad --bucket, and --bucket without --histogram, are usage errors', async () => {
  const bad = await burrow(['logs', String(ZONE), '--since', '1h', '--histogram', '--bucket', '2x']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--bucket "2x": use a duration like 1s, 10s, 1m, 5m or 1h/);
  const alone = await burrow(['logs', String(ZONE), '--since', '1h', '--bucket', '1m']);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--bucket goes with --histogram/);
  const follow = await burrow(['logs', String(ZONE), '--histogram', '--follow']);
  assert.equal(follow.code, 2);
  assert.match(follow.stderr, /--histogram counts a window/);
  const many = await burrow(['logs', String(ZONE), '--since', '3d', '--histogram', '--bucket', '1s']);
  assert.equal(many.code, 2);
  assert.match(many.stderr, /at most 100,000/);
});

test('--histogram of two zones: each bucket is the sum of the two zones counted alone', async () => {
  const [a, b] = emu.info.pullZoneIds as [number, number];
  const run = async (zones: number[]) => {
    const r = await burrow(['logs', ...zones.map(String), '--from', iso(FROM), '--to', iso(TO), '--histogram', '--bucket', '5m', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Row[];
  };
  const [both, one, two] = [await run([a, b]), await run([a]), await run([b])];
  assert.ok(one.some((r) => r.total > 0) && two.some((r) => r.total > 0), 'both zones have traffic');
  assert.deepEqual(
    both,
    one.map((r, i) => ({
      ...r,
      total: r.total + two[i]!.total,
      '2xx': r['2xx'] + two[i]!['2xx'],
      '3xx': r['3xx'] + two[i]!['3xx'],
      '4xx': r['4xx'] + two[i]!['4xx'],
      '5xx': r['5xx'] + two[i]!['5xx'],
    })),
  );
});
