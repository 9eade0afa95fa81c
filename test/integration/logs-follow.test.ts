import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator, apiFor } from '../helpers/emulator';
import { generatedLogRecords, loggingStats } from '../../src/emulator/logging/index';
import type { RunningEmulator } from '../../src/emulator/server';
import { type FollowEngine, followLogs } from '../../src/log-engine/index';
import { ApiError } from '../../src/api/errors';
import { deadline, until } from '../helpers/wait';
import { EmulatorClock } from '../../src/emulator/clock';

// Large enough that the quiet zones' longer lag (3x) stands well clear of polling latency on a loaded machine.
const DELAY = 3000;
/** Quiet zones lag up to 3 x the delay in the emulator. */
const MAX_LAG = 3 * DELAY;

const waitFor = (what: string, cond: () => boolean, timeoutMs = 15_000) => until(what, cond, timeoutMs, 50);

/**
 * The emulator's time (the engine's too: apiFor hands it the emulator's clock) moves on by STEP
 * once every zone has polled again, instead of waiting for the ingestion delay in real time.
 * A step is well under the engine's re-check window, so a record that turns up late is still
 * inside the window of a later poll: time runs faster, not in jumps the engine could miss.
 */
const STEP = 2000;
async function fastForward(engine: FollowEngine, what: string, cond: () => boolean, timeoutMs = 30_000): Promise<void> {
  const requests = () => engine.status().zones.map((z) => z.requests);
  const end = deadline(timeoutMs);
  while (!cond()) {
    if (end.passed()) assert.fail(`timed out on the way to ${what} after ${end.describe()}`);
    const before = requests();
    const everyZonePolled = () => requests().every((n, i) => n > before[i]!);
    await waitFor(`a poll of every zone on the way to ${what}`, () => cond() || everyZonePolled(), timeoutMs);
    if (!cond()) clock.advance(STEP);
  }
}

/** Moves the emulator's time on until every zone has read past `t` (server time). */
const coveredPast = (engine: FollowEngine, t: number) =>
  fastForward(engine, `coverage past ${new Date(t).toISOString()}`, () => engine.status().zones.every((z) => z.coveredTo !== null && z.coveredTo > t));

/** What the engine holds in [from, to) is exactly what the emulator generated there. */
function assertComplete(emu: RunningEmulator, engine: FollowEngine, zones: readonly number[], from: number, to: number): number {
  const held = engine.buffer.toArray();
  let total = 0;
  for (const zone of zones) {
    const generated = generatedLogRecords(emu.world, zone, from, to).map((r) => r.requestId as string);
    const mine = held.filter((e) => e.pullZoneId === zone && Date.parse(e.timestamp) >= from && Date.parse(e.timestamp) < to).map((e) => e.requestId!);
    const have = new Set(mine);
    const wanted = new Set(generated);
    const missing = generated.filter((id) => !have.has(id));
    const extra = mine.filter((id) => !wanted.has(id));
    assert.equal(missing.length, 0, `zone ${zone}: ${missing.length} of ${generated.length} generated records missing`);
    assert.equal(extra.length, 0, `zone ${zone}: ${extra.length} records that were not generated`);
    total += generated.length;
  }
  return total;
}

function assertOrderedUnique(engine: FollowEngine): void {
  const b = engine.buffer;
  for (let i = 1; i < b.length; i++) assert.ok(b.time(i - 1) <= b.time(i), `order broken at ${i}`);
  assert.equal(new Set(b.toArray().map((e) => e.requestId)).size, b.length, 'duplicates in the buffer');
}

// a fixed start: the same traffic on every run, whatever the hour
const clock = new EmulatorClock(Date.parse('2026-03-03T14:00:00Z'));
const emu = await useEmulator({ seed: 21, logRate: 24, ingestDelayMs: DELAY, now: clock.now });
const api = apiFor(emu);
const zones = emu.info.pullZoneIds;

test('follow: no duplicates, no gaps, order kept, late records caught (all four zones)', async () => {
  const engine = followLogs(api.logs, { zones, sinceMs: 20_000, minIntervalMs: 150, maxIntervalMs: 800, minRecheckMs: 3000, pageLimit: 400 });
  const start = engine.startAt();
  engine.start();
  try {
    // long enough to have seen the ingestion delay at work in every zone
    await fastForward(
      engine,
      'late records and a few polls in every zone',
      () => {
        const st = engine.status();
        return st.zones.every((z) => z.requests > 3) && st.zones.reduce((n, z) => n + z.late, 0) > 0 && st.duplicates > 0;
      },
      30_000,
    );
    const cut = clock.now() - 500;
    await coveredPast(engine, cut + MAX_LAG + 300);
    const total = assertComplete(emu, engine, zones, start + 1000, cut);
    // the emulator's 4-minute episodes (quiet spells at 0.1-0.3x) make the volume vary several-fold
    assert.ok(total > 100, `compared ${total} records`);
    assertOrderedUnique(engine);
    const s = engine.status();
    assert.equal(s.state, 'running');
    const late = s.zones.reduce((n, z) => n + z.late, 0);
    assert.ok(late > 0, 'some records arrived after newer ones (the ingestion delay at work)');
    for (const z of s.zones) {
      assert.ok(z.ingestLagMs > 0 && z.ingestLagMs < 20_000, `observed lag ${z.ingestLagMs}`);
      assert.ok(z.recheckMs >= 3000 && z.recheckMs >= z.ingestLagMs, `re-checking the last ${z.recheckMs} ms`);
      assert.ok(z.behindMs !== null && z.behindMs < 10_000);
      assert.ok(z.requests > 3);
    }
    assert.ok(s.duplicates > 0, 'overlapping windows returned records twice; the buffer kept one');
    // Quiet zones lag longer (x3 in the emulator, up to 3 x DELAY): the engine sees a lag twice
    // what any busy zone's records are delayed, and re-checks that far back. Compared with the
    // delay, not with a busy zone's observed lag: polling latency on a loaded machine adds to every
    // observed lag (a busy zone's reached 11.9 s at load 12), so load can only push this further.
    const quiet = emu.world.pullZones.find((z) => z.EnableLogging && z.trafficWeight < 0.2)!;
    const quietZone = s.zones.find((z) => z.zoneId === quiet.Id)!;
    assert.ok(quietZone.ingestLagMs >= 2 * DELAY, `quiet zone's observed lag ${quietZone.ingestLagMs} ms, busy zones' records delayed up to ${DELAY} ms`);
    assert.ok(quietZone.recheckMs >= quietZone.ingestLagMs);
  } finally {
    await engine.stop();
  }
  assert.equal(engine.status().state, 'stopped');
});

test('follow: backfill pages with offset while hasMore, newest first, capped at maxBackfill', async () => {
  const [zone] = zones as [number];
  // The seeded traffic varies several-fold with the time of day (4-minute episodes): the page size
  // follows what the window holds, so the backfill always takes about 6 pages, never dozens (the
  // zone's budget is 25 requests per 10 s, and the previous test may have spent it).
  const now = emu.world.now();
  const inWindow = generatedLogRecords(emu.world, zone, now - 3 * 60_000, now).length;
  const pageLimit = Math.max(20, Math.ceil(inWindow / 6));
  const engine = followLogs(api.logs, { zones: [zone], sinceMs: 3 * 60_000, pageLimit, minIntervalMs: 200 });
  const start = engine.startAt();
  engine.start();
  try {
    await waitFor('backfill', () => engine.status().zones[0]!.state === 'following', 30_000);
    const z = engine.status().zones[0]!;
    assert.ok(engine.buffer.length > 2 * pageLimit, `only ${engine.buffer.length} records in 3 minutes: too few to page`);
    assert.ok(z.requests >= Math.ceil(engine.buffer.length / pageLimit), `backfill used ${z.requests} pages for ${engine.buffer.length} records`);
    const settled = z.coveredTo! - MAX_LAG;
    assertComplete(emu, engine, [zone], start + 1000, settled);
  } finally {
    await engine.stop();
  }
  // polls at least once a second (the default cadence slows to one in 10 s when they find nothing)
  const capped = followLogs(api.logs, { zones: [zone], sinceMs: 5 * 60_000, pageLimit: 100, maxBackfill: 300, minIntervalMs: 200, maxIntervalMs: 1000 });
  // The buffer's size when the backfill ends (the polls may have added records beside it).
  let atBackfillEnd: number | null = null;
  capped.subscribe(() => {
    if (atBackfillEnd === null && capped.status().zones[0]!.backfill?.done) atBackfillEnd = capped.buffer.length;
  });
  capped.start();
  try {
    await waitFor('capped backfill', () => capped.status().zones[0]!.state === 'following', 30_000);
    const z = capped.status().zones[0]!;
    assert.equal(z.backfillTruncated, true);
    // the cap is reached, and the pages never pass it; records that came late between two pages,
    // found by a gap read inside what is held, are kept on top (leaving them out would leave a
    // hole). The buffer may hold more: the polls run beside the history's pages.
    const { records, gapRecords = 0 } = z.backfill!;
    assert.ok(records >= 300 && records - gapRecords <= 300, `${records} backfilled, ${gapRecords} of them by gap reads`);
    assert.ok(atBackfillEnd! >= records);
    // The newest were kept: nothing newer than the oldest held is missing.
    const oldest = capped.buffer.time(0);
    assertComplete(emu, capped, [zone], oldest + 1, z.coveredTo! - MAX_LAG);
    const polled = z.requests;
    await waitFor('two more polls', () => capped.status().zones[0]!.requests >= polled + 2);
    assert.ok(capped.buffer.time(0) >= oldest, 'polls do not bring back what the backfill left out');
  } finally {
    await capped.stop();
  }
});

test('follow: pause stops requests, resume catches up without losing records', async () => {
  const [, zone] = zones as [number, number];
  const engine = followLogs(api.logs, { zones: [zone], sinceMs: 10_000, minIntervalMs: 150, maxIntervalMs: 500 });
  const start = engine.startAt();
  const stats = () => loggingStats(emu.world).zone(zone).requests;
  engine.start();
  try {
    await waitFor('following', () => engine.status().zones[0]!.state === 'following');
    engine.pause();
    // a poll in flight finishes first; then the runner waits at the gate
    await waitFor('paused', () => engine.status().zones[0]!.state === 'paused');
    const before = stats();
    assert.equal(engine.status().state, 'paused');
    // Told to poll at once while paused: a runner past the gate would send its request right
    // away, ahead of the test's own one to the zone, which the server has answered when this
    // returns. The gate holding is what the counts show.
    engine.pollNow();
    await api.logs.query(zone, { limit: 1 });
    assert.equal(stats(), before + 1, "no requests while paused (the one counted is the test's own)");
    engine.resume();
    const cut = clock.now() - 200;
    await coveredPast(engine, cut + MAX_LAG + 300);
    assert.ok(stats() > before + 1, 'resumed: the engine asks again');
    assertComplete(emu, engine, [zone], start + 1000, cut);
    assertOrderedUnique(engine);
  } finally {
    await engine.stop();
  }
});

test('follow: a zone without logging fails with its error; the others go on', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  const [zone] = zones as [number];
  const engine = followLogs(api.logs, { zones: [off.Id, zone], sinceMs: 5000, minIntervalMs: 150 });
  const seen: string[] = [];
  engine.onRecords((entries) => seen.push(...entries.map((e) => e.requestId!)));
  engine.start();
  try {
    await waitFor('failure', () => engine.status().zones[0]!.state === 'failed');
    const failed = engine.status().zones[0]!;
    assert.ok(failed.error instanceof ApiError);
    assert.equal(failed.error.status, 404);
    assert.equal(failed.error.code, 'logging_disabled');
    await waitFor('records of the other zone', () => seen.length > 0);
    assert.equal(engine.status().state, 'running');
  } finally {
    await engine.stop();
  }
  const only = followLogs(api.logs, { zones: [off.Id], sinceMs: 5000 });
  only.start();
  await only.done;
  assert.equal(only.status().state, 'failed', 'done resolves when every zone has failed');
});

test('follow: bad input is refused before anything is sent', () => {
  assert.throws(() => followLogs(api.logs, { zones: [] }), /at least one pull zone/);
  assert.throws(
    () => followLogs(api.logs, { zones: [1], filter: { status: 'nope' } }),
    (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input',
  );
  assert.throws(() => followLogs(api.logs, { zones: [1], sinceMs: 4 * 86_400_000 }), /between 0 and 3 days/);
});
