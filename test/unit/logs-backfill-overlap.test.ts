import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BackfillOverlap } from '../../src/log-engine/backfill-overlap';
import { until } from '../helpers/wait';
import { LateWindow, windowEntry as entry } from '../helpers/late-window';

test('overlap: one record at first, grows when a page is read again, shrinks slowly while pages hold the record with room to spare', () => {
  const o = new BackfillOverlap(2000);
  assert.equal(o.records, 1);
  o.missed();
  assert.equal(o.records, 256);
  o.missed();
  assert.equal(o.records, 512);
  // held at index 411 of an overlap of 512: shifted by 100, twice that is kept (not less than 90% at once)
  o.held(411, 512);
  assert.equal(o.records, 460);
  for (let i = 0; i < 20; i++) o.held(o.records - 1 - 100, o.records);
  assert.equal(o.records, 201);
  // a page read later than the one above (no shift): down towards one record
  for (let i = 0; i < 100; i++) o.held(o.records + 50, o.records);
  assert.equal(o.records, 1);
  for (let i = 0; i < 10; i++) o.missed();
  assert.equal(o.records, 2000, 'never past the maximum');
});

test('after a page had to be read again, later pages overlap more: a stale page is taken as it is (no second request, no gap)', async () => {
  const N = 40_000;
  const win = new LateWindow(N);
  const { pending, asked } = win;
  /** The server answers the request for this offset now (with the window as it is now). */
  const serve = (offset: number) => win.serve(offset);
  const engine = win.followEngine();
  engine.start();
  try {
    await serve(0);
    await until('three pages in flight', () => pending.length === 3);
    await serve(9_998);
    win.late = 100;
    await serve(4_999);
    // missed: read again (the overlap grows to 256 records; pages read later than the one above shrink it slowly)
    await until('the page read again', () => pending.length === 3);
    assert.deepEqual(
      pending.map((p) => p.q.offset ?? 0).sort((a, b) => a - b),
      [9_998, 14_997, 19_996],
    );
    await serve(9_998);
    await serve(14_997);
    await until('the next page', () => pending.length === 3);
    // the first page asked after 19,996
    const next = Math.min(...pending.map((p) => p.q.offset ?? 0).filter((o) => o > 19_996));
    const shared = 19_996 + 5_000 - next;
    assert.ok(shared > 200 && shared <= 256, `the page after the miss shares ${shared} records with the one above`);
    // that page answered before the one above it, then 100 more late records: still taken as it is
    await serve(next);
    win.late = 200;
    await serve(19_996);
    while (!engine.status().zones[0]!.backfill?.done) {
      await until('a request or the end', () => pending.length > 0 || engine.status().zones[0]!.backfill?.done);
      if (pending.length) await serve(Math.min(...pending.map((p) => p.q.offset ?? 0)));
    }
    assert.equal(asked.filter((o) => o === next).length, 1, 'the stale page was not asked again');
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    const missing: number[] = [];
    for (let n = 0; n < N; n++) if (!held.has(entry(n).requestId)) missing.push(n);
    assert.deepEqual(missing, [], 'every record of the window is held');
  } finally {
    const stopping = engine.stop();
    for (const p of pending.splice(0)) p.resolve(win.answer(p.q));
    await stopping;
  }
});
