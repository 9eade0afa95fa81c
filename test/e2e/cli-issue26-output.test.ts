import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';

// What scripts read (issue 26): an alert replay over the whole window, `logs -o table` aligned,
// a write's count from `sql -e`, reals as sqlite3 prints them. The built binary (npm run build).

const emu = await useEmulator({ seed: 26, logRate: 10 });
const ZONE = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-issue26-cli-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...envFor(emu) };
const lines = (s: string) => s.split('\n').filter((l) => l !== '');

// ten minutes of this zone hold thousands of successes: more than the 1000 records printed by default
const RULE = 'status=2xx count>1500 over 10m';

test('logs --alert without --follow replays the whole window, not the 1000 records printed', async () => {
  const r = await runBurrow(['logs', String(ZONE), '--since', '1h', '-o', 'ndjson', '--alert', RULE, '--exit-on-alert'], { env, timeoutMs: 60_000 });
  assert.equal(r.code, 3, r.stderr);
  assert.ok(
    lines(r.stderr).some((l) => /^burrow alert: FIRING  \S+  status=2xx count>1500 over 10m  observed \d+ records in 10m$/.test(l)),
    r.stderr,
  );
  assert.doesNotMatch(r.stderr, /no rule fired/);
  assert.equal(lines(r.stdout).length, 1000, 'stdout still gets the newest 1000 (the default --limit)');
  assert.match(r.stderr, /printing the newest 1000 of the \d+ matching records \(raise --limit for more\); the alert rules replay all \d+/);
});

test('logs --alert with a --limit smaller than the window says the rules saw only part of it', async () => {
  const r = await runBurrow(['logs', String(ZONE), '--since', '1h', '--limit', '500', '-o', 'ndjson', '--alert', RULE], { env, timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /the rules saw only the newest 500 \(from \S+Z\); raise --limit or narrow the window/);
  assert.match(r.stderr, /no rule fired in the part of the window read/);
  assert.doesNotMatch(r.stderr, /no rule fired in the window \(/);
});

/** Where each header word starts in the header line. */
function starts(header: string, names: string[]): number[] {
  return names.map((n) => {
    const at = header.indexOf(n);
    assert.ok(at >= 0, `${n} in ${header}`);
    return at;
  });
}

test('logs -o table: every column starts under its header, with local times longer than UTC', async () => {
  const r = await runBurrow(['logs', String(ZONE), '--since', '10m', '--limit', '300', '-o', 'table'], {
    env: { ...env, TZ: 'Europe/Berlin' },
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  const [header, ...rows] = lines(r.stdout);
  assert.ok(rows.length > 50, 'records to compare');
  assert.match(rows[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00 /, 'a local time with its offset');
  const names = ['STATUS', 'CC', 'EDGE', 'IP', 'URL', 'USER AGENT'];
  const at = starts(header!, names);
  for (const row of rows) {
    for (let k = 0; k < names.length; k++) {
      assert.equal(row[at[k]! - 1], ' ', `a gap before ${names[k]} in\n${header}\n${row}`);
      assert.notEqual(row[at[k]!], ' ', `${names[k]} starts under its header in\n${header}\n${row}`);
    }
    // BYTES is right-aligned: it ends where its header ends
    const end = header!.indexOf('BYTES') + 'BYTES'.length;
    assert.match(row.slice(0, end), /\d$/, `BYTES ends under its header in\n${header}\n${row}`);
    assert.equal(row[end], ' ');
  }
});

test('sql -e: a write prints its count (DELETE 2); reals print as sqlite3 prints them', async () => {
  const r = await runBurrow(
    [
      'sql',
      '-e',
      'CREATE TEMP TABLE t26 (x); INSERT INTO t26 VALUES (1), (2), (3); DELETE FROM t26 WHERE x < 3; SELECT 0.1 + 0.2 AS f, 213.785 + 0.00000000000003 AS g, 1e20 AS big, 2.0 AS two;',
    ],
    { env },
  );
  assert.equal(r.code, 0, r.stderr);
  const out = lines(r.stdout);
  assert.deepEqual(out.slice(0, 2), ['INSERT 3', 'DELETE 2']);
  assert.match(r.stdout, /f\s+g\s+big\s+two\n\s*0\.3\s+213\.785\s+1\.0e\+20\s+2\.0\n/);
  const csv = await runBurrow(
    ['sql', '-o', 'csv', '-e', 'CREATE TEMP TABLE t27 (x); INSERT INTO t27 VALUES (1), (2); DELETE FROM t27; SELECT 0.1 + 0.2 AS f'],
    { env },
  );
  assert.equal(csv.code, 0, csv.stderr);
  assert.equal(csv.stdout, 'f\n0.3\n', 'stdout keeps rows only');
  assert.deepEqual(lines(csv.stderr), ['INSERT 2', 'DELETE 2'], 'the counts on stderr');
});
