import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackfillOverlap } from '../../src/log-engine/backfill-overlap';

test('overlap: a page that held the record with little room to spare makes the next overlap twice its shift, before a page misses', () => {
  const o = new BackfillOverlap(2000);
  // overlap 1, held at index 0: no shift, stays
  o.held(0, 1);
  assert.equal(o.records, 1);
  o.missed();
  assert.equal(o.records, 256);
  // held at index 5 of 256: shifted by 250, so the next pages share 501 records
  o.held(5, 256);
  assert.equal(o.records, 501);
  // never past the maximum
  o.held(0, 1500);
  assert.equal(o.records, 2000);
  // room to spare again: shrinks by a tenth a page at most
  o.held(1999, 2000);
  assert.equal(o.records, 1800);
});
