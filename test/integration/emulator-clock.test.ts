import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EmulatorClock, parseClockStart } from '../../src/emulator/clock';
import { createWorld } from '../../src/emulator/world';
import { generatedLogRecords } from '../../src/emulator/logging/index';

const T = Date.parse('2026-03-02T10:00:00Z');

test('a frozen clock moves only when told; resumed, it runs on from where it stood', () => {
  const clock = new EmulatorClock(T, { running: false });
  assert.equal(clock.now(), T);
  clock.advance(1500);
  assert.equal(clock.now(), T + 1500);
  clock.set(T - 60_000);
  assert.equal(clock.now(), T - 60_000);
  clock.resume();
  assert.ok(clock.isRunning);
  assert.ok(clock.now() >= T - 60_000);
  clock.freeze();
  const stood = clock.now();
  assert.equal(clock.now(), stood);
});

test('--clock-start values: ISO date-times (Z assumed) and epoch ms; anything else is NaN', () => {
  assert.equal(parseClockStart('2026-03-02T10:00:00Z'), T);
  assert.equal(parseClockStart('2026-03-02T10:00:00'), T);
  assert.equal(parseClockStart('2026-03-02T11:00:00+01:00'), T);
  assert.equal(parseClockStart(String(T)), T);
  for (const bad of ['yesterday', '10:00', '2026-13-45T00:00:00Z', '', '12']) assert.ok(Number.isNaN(parseClockStart(bad)), bad);
});

test('the traffic is counted from the start: the same records around it at any hour, shifted with it', () => {
  const busy = (w: ReturnType<typeof createWorld>) => w.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
  const starts = [T, T + 5 * 3_600_000 + 17_321, T - 11 * 3_600_000 - 999];
  const windows = starts.map((start) => {
    const w = createWorld({ seed: 9, logRate: 4, now: () => start });
    return generatedLogRecords(w, busy(w), start - 10 * 60_000, start + 5 * 60_000) as { requestId: string; timestamp: string; statusCode: number }[];
  });
  assert.ok(windows[0]!.length > 1000);
  for (let k = 1; k < starts.length; k++) {
    const shift = starts[k]! - starts[0]!;
    assert.deepEqual(
      windows[k]!.map((r) => r.requestId),
      windows[0]!.map((r) => r.requestId),
    );
    assert.deepEqual(
      windows[k]!.map((r) => Date.parse(r.timestamp) - shift),
      windows[0]!.map((r) => Date.parse(r.timestamp)),
    );
    assert.deepEqual(
      windows[k]!.map((r) => r.statusCode),
      windows[0]!.map((r) => r.statusCode),
    );
  }
});

test('clockStart: the emulator reads that time at start, and its records carry it', () => {
  const w = createWorld({ seed: 9, clockStart: T });
  assert.ok(Math.abs(w.startedAt - T) < 1000);
  const zone = w.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
  const recs = generatedLogRecords(w, zone, T - 60_000, T) as { timestamp: string }[];
  assert.ok(recs.length > 0 && recs.every((r) => r.timestamp.startsWith('2026-03-02T09:59')));
});
