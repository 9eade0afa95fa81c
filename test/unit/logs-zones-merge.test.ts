import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { FollowEngine } from '../../src/log-engine/follow';
import { LogBuffer } from '../../src/log-engine/buffer';
import type { LogEntry } from '../../src/api/logs/entry';
import type { LogPage, LogsApi } from '../../src/api/logs/index';
import { mergeByTime } from '../../src/log-engine/merge';
import type { LogQuery } from '../../src/api/logs/query';
import { OrderedRelease } from '../../src/log-engine/release';
import { RateBudget } from '../../src/api/rate-limit';
import { until } from '../helpers/wait';
import { logEntry } from '../helpers/log-entry';

// Several zones merged into one stream: against a plain reference (everything, each id once, sorted).

const BASE = Date.UTC(2026, 7, 8, 12);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function record(zone: number, n: number, t: number): LogEntry {
  return logEntry({
    timestamp: new Date(t).toISOString(),
    pullZoneId: zone,
    requestId: (zone * 1_000_000 + n).toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    bytesSent: 1,
    scheme: 'https',
    host: 'h',
    path: '/',
    url: 'https://h/',
  });
}

interface Rec {
  e: LogEntry;
  t: number;
}

/** Records of several zones at distinct times (so the reference order is unique). */
function zonesOf(random: () => number, zones: number[], perZone: number): Rec[][] {
  const used = new Set<number>();
  return zones.map((z) => {
    const out: Rec[] = [];
    for (let n = 0; n < perZone; n++) {
      let t: number;
      do t = BASE + Math.floor(random() * 600_000);
      while (used.has(t));
      used.add(t);
      out.push({ e: record(z, n, t), t });
    }
    return out.sort((a, b) => a.t - b.t);
  });
}

/** The plain reference: every record once, by time. */
function reference(all: Rec[]): string[] {
  const byId = new Map<string, Rec>();
  for (const r of all) byId.set(r.e.requestId!, r);
  return [...byId.values()].sort((a, b) => a.t - b.t).map((r) => r.e.requestId!);
}

test('mergeByTime: random zones, duplicates inside and across pages, a window: the reference, oldest first', () => {
  for (let seed = 1; seed <= 30; seed++) {
    const random = rng(seed);
    const zones = zonesOf(random, [1058, 1199, 1411].slice(0, 1 + (seed % 3)), 50 + Math.floor(random() * 200));
    // each zone as a newest-first list, with some records repeated (overlapping pages)
    const sources = zones.map((recs) => {
      const list = [...recs].reverse();
      for (let i = 0; i < 20; i++) list.splice(Math.floor(random() * list.length), 0, list[Math.floor(random() * list.length)]!);
      return { entries: list.map((r) => r.e), times: list.map((r) => r.t) };
    });
    const from = BASE + 60_000;
    const to = BASE + 540_000;
    const got = mergeByTime(sources, from, to);
    const want = reference(zones.flat().filter((r) => r.t >= from && r.t < to));
    assert.deepEqual(
      got.entries.map((e) => e.requestId),
      want,
      `seed ${seed}`,
    );
    assert.deepEqual(
      got.times,
      got.entries.map((e) => Date.parse(e.timestamp)),
    );
  }
});

test("mergeByTime: equal times keep the server's order within a zone, then the zones in the order given", () => {
  const t = BASE + 1000;
  const a = [record(1, 1, t), record(1, 2, t), record(1, 3, t)];
  const b = [record(2, 1, t)];
  // newest-first pages list a tie in reverse of the server's ascending order
  const got = mergeByTime([
    { entries: [...a].reverse(), times: [t, t, t] },
    { entries: b, times: [t] },
  ]);
  assert.deepEqual(got.entries, [...a, ...b]);
});

/**
 * Zones delivering batches in random interleavings, each record `late` ms after its time at most
 * (a record becomes visible only after an ingestion lag), duplicates re-sent by overlapping polls:
 * one LogBuffer takes them all, and an OrderedRelease lets out what is older than the watermark
 * min over zones of (delivered up to - assumed lag), as FollowEngine.settledBefore computes it.
 */
function simulate(seed: number, lateness: number[], assumedLag: number) {
  const random = rng(seed);
  const zones = zonesOf(
    random,
    lateness.map((_, i) => 1000 + i),
    300,
  );
  const buffer = new LogBuffer(10_000);
  const released: string[] = [];
  const release = new OrderedRelease((e) => released.push(e.requestId!));
  // each record's arrival: its time plus a random lag up to the zone's lateness
  const arrivals = zones.map((recs, z) => recs.map((r) => ({ r, at: r.t + Math.floor(random() * lateness[z]!) })).sort((a, b) => a.at - b.at));
  const next = arrivals.map(() => 0);
  const deliveredTo = arrivals.map(() => BASE);
  let clock = BASE;
  while (next.some((n, z) => n < arrivals[z]!.length)) {
    // a random zone polls: everything that arrived by the clock, plus a few it sent before
    const z = Math.floor(random() * zones.length);
    clock += Math.floor(random() * 3000);
    const list = arrivals[z]!;
    const batch: Rec[] = [];
    while (next[z]! < list.length && list[next[z]!]!.at <= clock) batch.push(list[next[z]!++]!.r);
    for (let i = 0; i < 3 && next[z]! > 0; i++) batch.push(list[Math.floor(random() * next[z]!)]!.r);
    deliveredTo[z] = clock;
    const added: LogEntry[] = [];
    const addedTimes: number[] = [];
    buffer.insert(
      batch.map((r) => r.e),
      batch.map((r) => r.t),
      added,
      addedTimes,
    );
    release.add(added, addedTimes);
    release.release(Math.min(...deliveredTo.map((d) => d - assumedLag)));
  }
  release.flush();
  return { zones, buffer, released, stragglers: release.stragglers };
}

test('several zones into one buffer, random interleavings, duplicates and late records: the reference order, each record once', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const { zones, buffer, released, stragglers } = simulate(seed, [20_000, 5_000, 1_000], 20_000);
    const want = reference(zones.flat());
    assert.deepEqual(
      buffer.toArray().map((e) => e.requestId),
      want,
      `buffer, seed ${seed}`,
    );
    assert.equal(stragglers, 0, `seed ${seed}: nothing later than the assumed lag`);
    assert.deepEqual(released, want, `ordered output, seed ${seed}`);
  }
});

test('a zone later than the assumed lag: its records come out late (counted), none lost, none twice', () => {
  const { zones, released, stragglers } = simulate(7, [60_000, 1_000], 5_000);
  const want = reference(zones.flat());
  assert.ok(stragglers > 0);
  assert.deepEqual([...released].sort(), [...want].sort());
  assert.equal(new Set(released).size, released.length);
});

/** Zone 1 answers (a record every 100 ms up to now); zone 2 fails with 503 every time. */
function oneZoneDown(now: () => number) {
  const query = async (zone: number, q: LogQuery = {}): Promise<LogPage> => {
    await new Promise((r) => setImmediate(r));
    if (zone === 2) throw new ApiError({ kind: 'http', status: 503, message: '503 Service Unavailable' });
    const to = now();
    const from = typeof q.from === 'number' ? q.from : to - 60_000;
    const entries: LogEntry[] = [];
    for (let t = Math.ceil(from / 100) * 100; t < to; t += 100) entries.push(record(1, t, t));
    if (q.order !== 'asc') entries.reverse();
    return {
      entries,
      times: entries.map((e) => Date.parse(e.timestamp)),
      offset: 0,
      limit: 10_000,
      returned: entries.length,
      hasMore: false,
      from,
      to,
      order: q.order ?? 'desc',
      skipped: 0,
    };
  };
  return { query, budget: new RateBudget({ limit: 10_000, windowMs: 1000 }), now } as unknown as LogsApi;
}

test('settledBefore: a zone in trouble holds the merged watermark back by maxSkewMs at most; without the bound it holds it for ever', async () => {
  let clock = BASE + 600_000;
  const now = () => clock;
  const opts = { zones: [1, 2], sinceMs: 60_000, now, initialLagMs: 2_000, minIntervalMs: 20, maxIntervalMs: 20, capacity: 100_000 };
  const bounded = new FollowEngine({ ...opts, api: oneZoneDown(now), maxSkewMs: 10_000 });
  const strict = new FollowEngine({ ...opts, api: oneZoneDown(now) });
  bounded.start();
  strict.start();
  try {
    await until('zone 2 retrying', () => bounded.status().zones[1]!.consecutiveErrors > 0 && strict.status().zones[1]!.consecutiveErrors > 0);
    await until('zone 1 backfilled', () => bounded.status().zones[0]!.state === 'following' && strict.status().zones[0]!.state === 'following');
    clock += 5_000;
    await until('a poll of zone 1 after the clock moved', () => (bounded.status().zones[0]!.coveredTo ?? 0) >= clock);
    const covered = bounded.status().zones[0]!.coveredTo!;
    const z1 = bounded.status().zones[0]!;
    // zone 1 alone settles at coveredTo minus its lag (observed, or 2 s while learning); zone 2,
    // still in its backfill, lowers that by exactly maxSkewMs
    const alone = covered - Math.max(z1.ingestLagMs, 2_000);
    assert.equal(bounded.settledBefore(), alone - 10_000);
    assert.equal(strict.settledBefore(), null, 'strict order waits for the zone in trouble');
    assert.equal(bounded.status().zones[1]!.state, 'retrying');
    assert.equal(bounded.status().state, 'running', 'the failing zone does not stop the other');
  } finally {
    await bounded.stop();
    await strict.stop();
  }
});
