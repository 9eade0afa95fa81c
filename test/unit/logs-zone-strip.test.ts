import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ZoneFollowStatus } from '../../src/log-engine/index';
import { ApiError } from '../../src/api/errors';
import { zoneStripParts } from '../../src/screens/logs/zone-strip';
import { combinedBackfill, combinedState, reuseZones, type ZoneLive } from '../../src/state/logs/zone-status';
import { parseZoneList } from '../../src/state/logs/zone-set';
import { togglePicked, zonesToOpen } from '../../src/state/logs/picker';

const NOW = 1_000_000;

function live(zoneId: number, state: ZoneLive['state'], extra: Partial<ZoneLive> = {}): ZoneLive {
  return {
    zoneId,
    state,
    error: null,
    errorStatus: null,
    backfill: null,
    requests: 0,
    records: 0,
    coveredTo: NOW,
    budgetUsed: 3,
    budgetLimit: 28,
    budgetWaiting: 0,
    backoffUntil: null,
    rateLimited: 0,
    ...extra,
  };
}

const text = (parts: { text: string }[]) => parts.map((p) => p.text).join('');

test('zone strip: every zone with its state and budget, the zones in trouble first', () => {
  const zones = [
    live(1058, 'following', { budgetUsed: 4 }),
    live(1199, 'backfilling', {
      backfill: { records: 400, pages: 2, from: 0, to: 1, reached: 0, startedAt: 0, ratePerSecond: 1, remaining: 600, etaMs: 1, done: false },
    }),
    live(1411, 'failed', { error: '404 Not Found logging_disabled' }),
    live(1500, 'rate-limited', { backoffUntil: NOW + 4_000, budgetUsed: 28 }),
  ];
  const strip = text(zoneStripParts(zones, { 1058: 'shop-assets' }, NOW));
  assert.equal(
    strip,
    '1411 ✖ 404 Not Found logging_disabled · 1500 429 rate limited, retry in 4s 28/28 · 1058 shop-assets ● following 4/28 · 1199 ◌ history 40% 3/28',
  );
});

function st(zoneId: number, state: ZoneFollowStatus['state'], error: ApiError | null = null): ZoneFollowStatus {
  return {
    zoneId,
    state,
    error,
    consecutiveErrors: 0,
    requests: 0,
    records: 0,
    late: 0,
    backfillTruncated: false,
    backfill: null,
    coveredTo: null,
    newest: null,
    behindMs: null,
    ingestLagMs: 0,
    recheckMs: 0,
    intervalMs: 0,
    nextPollAt: null,
    backoffUntil: null,
  };
}

test('the status line of several zones: a failed zone does not fail the view; failed only when every zone is', () => {
  const e = new ApiError({ kind: 'http', status: 403, message: '403 Forbidden' });
  assert.equal(combinedState([st(1, 'following'), st(2, 'failed', e)]).state, 'following');
  assert.equal(combinedState([st(1, 'backfilling'), st(2, 'following')]).state, 'backfilling');
  assert.deepEqual(combinedState([st(1, 'failed', e), st(2, 'failed', e)]), { state: 'failed', error: e });
});

test('several backfills as one progress: summed records and what is left, the slowest ETA; unknown while one is', () => {
  const a = {
    ...st(1, 'backfilling'),
    backfill: { records: 100, pages: 1, from: 10, to: 50, reached: 30, startedAt: 5, ratePerSecond: 10, remaining: 300, etaMs: 30_000, done: false },
  };
  const b = {
    ...st(2, 'backfilling'),
    backfill: { records: 50, pages: 2, from: 20, to: 60, reached: 25, startedAt: 3, ratePerSecond: 5, remaining: 50, etaMs: 10_000, done: false },
  };
  assert.deepEqual(combinedBackfill([a, b]), {
    records: 150,
    pages: 3,
    from: 10,
    to: 60,
    reached: 25,
    startedAt: 3,
    ratePerSecond: 15,
    remaining: 350,
    etaMs: 30_000,
    done: false,
  });
  assert.equal(combinedBackfill([a, { ...b, backfill: { ...b.backfill, remaining: null } }])!.remaining, null);
  assert.equal(combinedBackfill([a]), a.backfill, 'one zone: its own progress');
});

test('statuses that did not change are the same array (no redraw)', () => {
  const prev = [live(1, 'following'), live(2, 'following')];
  assert.equal(reuseZones(prev, [live(1, 'following'), live(2, 'following')]), prev);
  const next = [live(1, 'following'), live(2, 'retrying')];
  assert.equal(reuseZones(prev, next), next);
});

test(":logs arguments and the picker's selection", () => {
  assert.deepEqual(parseZoneList('1058 1199'), [1058, 1199]);
  assert.deepEqual(parseZoneList(' 1058,1199  1058 '), [1058, 1199]);
  assert.deepEqual(parseZoneList('1058 shop'), { error: 'pull zone ids are numbers, got "shop" (several: 1058 1199)' });
  assert.match((parseZoneList('1 2 3 4 5 6 7 8 9') as { error: string }).error, /at most 8 zones/);
  assert.deepEqual(togglePicked(togglePicked(togglePicked([], 3), 1), 3), [1]);
  assert.deepEqual(zonesToOpen([], 7), [7]);
  assert.deepEqual(zonesToOpen([3, 1], 7), [3, 1]);
});
