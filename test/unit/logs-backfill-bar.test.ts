import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backfillBarText } from '../../src/screens/logs/backfill-bar';
import type { BackfillProgress } from '../../src/log-engine/index';

const progress = (over: Partial<BackfillProgress> = {}): BackfillProgress => ({
  records: 1_240_000,
  pages: 124,
  from: 0,
  to: 3_600_000,
  reached: 1_800_000,
  startedAt: 0,
  ratePerSecond: 28_000,
  remaining: 760_000,
  etaMs: 27_143,
  done: false,
  ...over,
});

test('the history bar: share of the estimated total, records, pages, rate, ETA', () => {
  assert.equal(backfillBarText(progress(), 120), 'history ████████████░░░░░░░░ 62% · 1,240,000 records · 124 pages · 28,000/s · ETA 28s');
  assert.equal(backfillBarText(progress({ etaMs: 3_725_000 }), 120).endsWith('ETA 1h 02m'), true);
  assert.equal(backfillBarText(progress({ etaMs: 125_000 }), 120).endsWith('ETA 2m 05s'), true);
});

test('narrow: parts that do not fit are left out from the end; nothing at all once the history is in', () => {
  assert.equal(backfillBarText(progress(), 60), 'history ███████░░░░░ 62% · 1,240,000 records · 124 pages');
  assert.equal(backfillBarText(progress(), 39), 'history ████░░░ 62% · 1,240,000 records');
  assert.equal(backfillBarText(progress(), 30), 'history ████░░ 62%');
  assert.equal(backfillBarText(progress({ done: true, remaining: 0, etaMs: 0 }), 120), '');
  assert.equal(backfillBarText(null, 120), '');
});

test('before the density is known: an empty bar and no ETA', () => {
  assert.equal(
    backfillBarText(progress({ remaining: null, etaMs: null, records: 10_000, pages: 1 }), 120),
    'history ░░░░░░░░░░░░░░░░░░░░ … · 10,000 records · 1 page · 28,000/s · ETA …',
  );
});
