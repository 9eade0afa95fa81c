import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';

// An alert rule or a filter with a huge value (a 45,000-character ua="..." crashed the console
// with "Regular expression too large", exit 70): refused past the documented size, pointing at
// the value, on the command line (the console's rules form: integration/console-logs-alerts).

const emu = await useEmulator({ seed: 9, logRate: 6 });
const zone = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-alert-limits-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'cfg'), XDG_STATE_HOME: path.join(dir, 'state'), ...envFor(emu) };
const HUGE = 'x'.repeat(45_000);

test('burrow logs --alert with a 45,000-character value: refused (exit 2), naming the limit; --ua too', { timeout: 60_000 }, async () => {
  for (const rule of [`ua="${HUGE}" count>1 over 1m`, `ua~"${HUGE}" count>1 over 1m`]) {
    const r = await runBurrow(['logs', String(zone.Id), '--since', '5m', '--alert', rule], { env });
    assert.equal(r.code, 2, r.stderr.slice(0, 400));
    assert.match(r.stderr, /a value is at most 1,000 characters, this one has 45,000/);
    assert.doesNotMatch(r.stderr, /too large|unexpected error|    at /);
    assert.ok(r.stderr.length < 2_000, 'the value is not printed back whole');
  }
  const ua = await runBurrow(['logs', String(zone.Id), '--since', '5m', '--ua', HUGE], { env });
  assert.equal(ua.code, 2, ua.stderr.slice(0, 400));
  assert.match(ua.stderr, /at most 1,000 characters, got 45,000/);
});
