import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';
import { until } from '../helpers/wait';
import { generatedLogRecords } from '../../src/emulator/logging/index';

// `burrow logs --alert` through the built binary against an in-process emulator.

const emu = await useEmulator({ seed: 41, logRate: 10, ingestDelayMs: 500 });
const ZONE = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-alerts-e2e-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...envFor(emu) };
const lines = (s: string) => s.split('\n').filter((l) => l !== '');
const iso = (t: number) => new Date(t).toISOString();

// every second of this zone's traffic has successes: a rule certain to fire
const CERTAIN = 'status=2xx rate>0.1/s over 10s';
const FIRING =
  /^burrow alert: FIRING  (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)  status=2xx rate>0\.1\/s over 10s  observed ([\d.]+)\/s \((\d+) records in 10s\)$/;

/** A started command whose stderr can be read while it runs. */
function start(args: string[]) {
  const p = spawnBurrow(['logs', String(ZONE), ...args], { env, timeoutMs: 40_000 });
  let err = '';
  p.child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { ...p, err: () => err };
}

test('--follow --exit-on-alert: the alert line on stderr, the records so far on stdout, exit 3', async () => {
  const r = await start(['--follow', '--since', '1m', '-o', 'ndjson', '--alert', CERTAIN, '--exit-on-alert']).done;
  assert.equal(r.code, 3, r.stderr);
  const alerts = lines(r.stderr).filter((l) => l.startsWith('burrow alert:'));
  assert.equal(alerts.length, 1, r.stderr);
  const m = FIRING.exec(alerts[0]!);
  assert.ok(m, alerts[0]);
  assert.ok(Number(m[2]) > 0.1 && Number(m[3]) > 1, 'the rate seen is over the threshold');
  // the window end is a record time up to which the records are complete: close to now, not after it
  const at = Date.parse(m[1]!);
  assert.ok(at <= emu.world.now() && at > emu.world.now() - 5 * 60_000, m[1]);
  assert.ok(r.stdout.endsWith('\n'), 'stdout flushed whole');
  const recs = lines(r.stdout).map((l) => JSON.parse(l) as { timestamp: string; statusCode: number });
  assert.ok(recs.length > 0);
  // the records printed include the window that fired it
  const inWindow = recs.filter((x) => Date.parse(x.timestamp) < at && Date.parse(x.timestamp) >= at - 10_000 && x.statusCode < 300);
  assert.ok(inWindow.length >= Number(m[3]) * 0.5, `${inWindow.length} of the ${m[3]} records of the window were printed`);
});

test('--follow --alert without --exit-on-alert: the line, and it keeps following (stopped by SIGINT, exit 130)', async () => {
  const p = start(['--follow', '--since', '1m', '-o', 'ndjson', '--alert', CERTAIN, '--alert', 'status=5xx rate>1000/s over 10s']);
  await until('the alert line', () => lines(p.err()).some((l) => FIRING.test(l)), 30_000);
  const printed = lines(p.out()).length;
  await until('more records after the alert', () => lines(p.out()).length > printed, 30_000);
  assert.equal(p.child.exitCode, null, 'still running');
  p.child.kill('SIGINT');
  const r = await p.done;
  assert.equal(r.code, 130, r.stderr);
  assert.doesNotMatch(r.stderr, /rate>1000\/s/, 'the rule that was never crossed printed nothing');
});

test('without --follow: the rules replayed over the window, each firing at the time of the records that crossed it', async () => {
  const FROM = emu.world.now() - 40 * 60_000;
  const TO = emu.world.now() - 20 * 60_000;
  const records = generatedLogRecords(emu.world, ZONE, FROM, TO) as { statusCode: number; timestamp: string }[];
  const errors = records.filter((g) => g.statusCode >= 500).map((g) => Date.parse(g.timestamp));
  assert.ok(errors.length > 0, 'the emulator wrote some 5xx in the window');
  const r = await start([
    '--from',
    iso(FROM),
    '--to',
    iso(TO),
    '--limit',
    '100000',
    '-o',
    'ndjson',
    '--alert',
    'status=5xx count>0 over 10s',
    '--exit-on-alert',
  ]).done;
  assert.equal(r.code, 3, r.stderr);
  assert.equal(lines(r.stdout).length > 0, true);
  const events = lines(r.stderr)
    .map((l) => /^burrow alert: (FIRING|CLEARED) (\S+)  status=5xx count>0 over 10s  observed (\d+) records? in 10s/.exec(l.replace('FIRING ', 'FIRING')))
    .filter((m) => m !== null)
    .map((m) => ({ kind: m[1]!, at: Date.parse(m[2]!), count: Number(m[3]) }));
  assert.ok(events.length > 0, r.stderr);
  assert.equal(events[0]!.kind, 'FIRING');
  // fired within a second (one bucket) after the first 5xx of the window
  assert.ok(events[0]!.at > errors[0]! && events[0]!.at <= errors[0]! + 1000, `${iso(events[0]!.at)} vs first 5xx ${iso(errors[0]!)}`);
  for (const e of events.filter((x) => x.kind === 'CLEARED')) {
    // cleared: no 5xx in the 10 s window before, nor in the 10 s before that (under for a whole window)
    assert.equal(errors.filter((t) => t < e.at && t >= e.at - 20_000 + 1000).length, 0, `cleared at ${iso(e.at)}`);
  }
});

test('a bad rule: exit 2 with the bad part pointed at, nothing fetched', async () => {
  const r = await start(['--follow', '--alert', 'status=5xx rate>2/s over 60', '--exit-on-alert']).done;
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--alert: "60" is not a window: use a duration such as 30s, 5m or 1h\n  status=5xx rate>2\/s over 60\n {27}\^\^\n/);
  assert.equal(r.stdout, '');
  const lone = await start(['--follow', '--exit-on-alert']).done;
  assert.equal(lone.code, 2);
  assert.match(lone.stderr, /--exit-on-alert needs at least one --alert RULE/);
});
