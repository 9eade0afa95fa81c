import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator, apiFor } from '../helpers/emulator';
import { configureLoggingRateLimit, generatedLogRecords, loggingStats } from '../../src/emulator/logging/index';
import type { RunningEmulator } from '../../src/emulator/server';
import { LogsApi } from '../../src/api/logs/index';
import { type FollowEngine, type ZoneFollowStatus, followLogs, LogPageReader } from '../../src/log-engine/index';
import type { RateBudgetOptions } from '../../src/api/rate-limit';
import type { FaultSpec } from '../../src/emulator/faults';
import { until } from '../helpers/wait';

const DELAY = 500;
const MAX_LAG = 3 * DELAY;

const waitFor = (what: string, cond: () => boolean, timeoutMs = 15_000) => until(what, cond, timeoutMs, 50);

function assertComplete(emu: RunningEmulator, engine: FollowEngine, zones: readonly number[], from: number, to: number): void {
  const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
  for (const zone of zones) {
    const generated = generatedLogRecords(emu.world, zone, from, to);
    const missing = generated.filter((g) => !held.has(g.requestId as string));
    assert.equal(missing.length, 0, `zone ${zone}: ${missing.length} of ${generated.length} records missing`);
    assert.ok(generated.length > 0);
  }
  const b = engine.buffer;
  for (let i = 1; i < b.length; i++) assert.ok(b.time(i - 1) <= b.time(i), `order broken at ${i}`);
  assert.equal(new Set(b.toArray().map((e) => e.requestId)).size, b.length, 'duplicates');
}

function logsWith(emu: RunningEmulator, budget: RateBudgetOptions): LogsApi {
  return new LogsApi(apiFor(emu).logging, { budgetOptions: budget, pageReader: new LogPageReader() });
}

/** Every status the engine went through, per zone. */
function record(engine: FollowEngine): ZoneFollowStatus[] {
  const seen: ZoneFollowStatus[] = [];
  engine.subscribe(() => seen.push(...engine.status().zones));
  return seen;
}

const noFaults: FaultSpec = { latencyMs: 0, error: 0, reset: 0, malformed: 0, ratelimit: 0 };

test('budget: the tail, searches and v1 downloads of a zone share one budget; the server never sees it exceeded', async () => {
  const emu = await useEmulator({ seed: 31, logRate: 5, ingestDelayMs: DELAY });
  // Scaled down 10x in time (as 25 of 30 per 10 s): client 8 per second, server allows 10.
  configureLoggingRateLimit(emu.world, { limit: 10, windowMs: 1000 });
  const logs = logsWith(emu, { limit: 8, windowMs: 1000 });
  const [zone] = emu.info.pullZoneIds as [number];
  generatedLogRecords(emu.world, zone, Date.now() - 86_400_000, Date.now()); // warm the generator
  const engine = followLogs(logs, { zones: [zone], sinceMs: 10_000, minIntervalMs: 20, budgetShare: 1 });
  engine.start();
  let searches = 0;
  let downloads = 0;
  // Every caller keeps asking until the server has taken 40 requests of the zone: a count, not a
  // time, so a slow machine makes the test longer, never different.
  const accepted = () => loggingStats(emu.world).zone(zone).accepted;
  const started = Date.now();
  const searcher = async () => {
    while (accepted() < 40) {
      await logs.query(zone, { status: '5xx', limit: 10 });
      searches++;
    }
  };
  const downloader = async () => {
    while (accepted() < 40) {
      await logs.v1Day(zone, new Date().toISOString().replace(/^\d\d(\d\d)-(\d\d)-(\d\d).*$/, '$2-$3-$1'), { end: 5 });
      downloads++;
    }
  };
  await Promise.all([searcher(), searcher(), searcher(), downloader()]);
  const elapsed = Date.now() - started;
  await engine.stop();
  const s = loggingStats(emu.world);
  const z = s.zone(zone);
  assert.equal(z.rateLimited, 0, 'no request was refused');
  // A slot is held until a window after its answer, so even a slow server sees at most 8 per second.
  assert.ok(s.maxInWindow(zone, 1000) <= 8, `max in any 1 s at the server: ${s.maxInWindow(zone, 1000)}`);
  // and the callers together cannot go faster than 8 per second: 40 take more than 4 windows
  assert.ok(elapsed >= (Math.ceil(z.accepted / 8) - 1) * 1000, `${z.accepted} requests in ${elapsed} ms`);
  assert.ok(searches > 0 && downloads > 0 && engine.status().zones[0]!.requests > 0, 'every caller got its turn');
  assert.ok(z.v1 > 0 && z.v2 > 0);
});

test('429 from the server: the shared budget backs off (jitter) and the tail recovers without gaps', async () => {
  const emu = await useEmulator({ seed: 32, logRate: 8, ingestDelayMs: DELAY, faults: { ...noFaults, ratelimit: 0.3 } });
  const logs = logsWith(emu, { limit: 25, windowMs: 10_000, backoffBaseMs: 150, backoffCapMs: 600 });
  const zones = emu.info.pullZoneIds.slice(0, 2);
  const engine = followLogs(logs, { zones, sinceMs: 10_000, minIntervalMs: 100, maxIntervalMs: 400 });
  const seen = record(engine);
  const start = engine.startAt();
  engine.start();
  try {
    await waitFor('429s answered and seen', () => emu.faultCounters().logging.ratelimited > 0 && seen.some((z) => z.state === 'rate-limited'));
    const cut = Date.now() - 300;
    await waitFor('coverage', () => engine.status().zones.every((z) => z.coveredTo !== null && z.coveredTo > cut + MAX_LAG + 300));
    assertComplete(emu, engine, zones, start + 1000, cut);
  } finally {
    await engine.stop();
  }
  assert.ok(emu.faultCounters().logging.ratelimited > 0, 'the emulator answered 429s');
  assert.ok(
    seen.some((z) => z.state === 'rate-limited'),
    'the engine showed it was rate limited',
  );
  assert.ok(
    seen.some((z) => z.backoffUntil !== null),
    'the backoff deadline was visible',
  );
  for (const zone of zones) assert.ok(logs.budget.state(String(zone)).rateLimited > 0);
});

test('429 from the real limit: backoff keeps the refusals few', async () => {
  const emu = await useEmulator({ seed: 33, logRate: 5, ingestDelayMs: DELAY });
  configureLoggingRateLimit(emu.world, { limit: 4, windowMs: 1000 });
  // A budget far above what the server allows: only the 429 backoff holds the client back.
  const logs = logsWith(emu, { limit: 100, windowMs: 1000, backoffBaseMs: 400, backoffCapMs: 1600 });
  const [zone] = emu.info.pullZoneIds as [number];
  const engine = followLogs(logs, { zones: [zone], sinceMs: 5000, minIntervalMs: 10, budgetShare: 1 });
  engine.start();
  const until = Date.now() + 2500;
  const searcher = async () => {
    while (Date.now() < until) await logs.query(zone, { limit: 1 }, { retries: 2 }).catch(() => undefined);
  };
  await Promise.all([searcher(), searcher()]);
  await engine.stop();
  const z = loggingStats(emu.world).zone(zone);
  // Without backoff three callers would send hundreds of requests in 3 s (about 12 could pass).
  assert.ok(z.rateLimited > 0, 'the limit was hit');
  assert.ok(z.rateLimited <= 20, `${z.rateLimited} refused, ${z.accepted} accepted`);
  assert.ok(z.accepted >= 4);
  assert.ok(logs.budget.state(String(zone)).rateLimited === z.rateLimited, 'every 429 was seen by the budget');
});

test('faults (5xx, resets, garbled JSON, latency): the tail retries and loses nothing', async () => {
  const emu = await useEmulator({
    seed: 34,
    logRate: 8,
    ingestDelayMs: DELAY,
    faults: { latencyMs: 30, error: 0.15, reset: 0.1, malformed: 0.2, ratelimit: 0 },
  });
  const logs = logsWith(emu, { limit: 100, windowMs: 10_000 });
  const zones = emu.info.pullZoneIds.slice(1, 3);
  const engine = followLogs(logs, { zones, sinceMs: 10_000, minIntervalMs: 100, maxIntervalMs: 400 });
  const seen = record(engine);
  const kindsSeen = () => new Set(seen.filter((z) => z.error).map((z) => z.error!.kind));
  const start = engine.startAt();
  engine.start();
  try {
    // met by the server and seen by the engine: an error can be replaced by the next one before a
    // status notification shows it, so wait for both kinds to have been shown rather than check once
    await waitFor('every fault kind met', () => {
      const f = emu.faultCounters().logging;
      const kinds = kindsSeen();
      return f.errors > 0 && f.resets > 0 && f.malformed > 0 && kinds.has('http') && kinds.has('malformed') && seen.some((z) => z.state === 'retrying');
    });
    const cut = Date.now() - 300;
    await waitFor('coverage', () => engine.status().zones.every((z) => z.coveredTo !== null && z.coveredTo > cut + MAX_LAG + 300));
    assertComplete(emu, engine, zones, start + 1000, cut);
    assert.equal(engine.status().state, 'running');
  } finally {
    await engine.stop();
  }
  const f = emu.faultCounters().logging;
  assert.ok(f.errors > 0 && f.resets > 0 && f.malformed > 0, JSON.stringify(f));
  const kinds = kindsSeen();
  assert.ok(kinds.has('http') && kinds.has('malformed'), `errors seen: ${[...kinds].join(', ')}`);
  assert.ok(seen.some((z) => z.state === 'retrying'));
});
