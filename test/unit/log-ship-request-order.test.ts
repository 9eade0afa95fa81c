import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestOrder } from '../../src/log-ship/request-order';
import { pagesLeft } from '../../src/log-ship/zone-shipper';

/** A budget of 30 per window whose used slots the test sets per zone. */
function budget() {
  const used = new Map<string, number>();
  return {
    used,
    state: (key: string) => ({ used: used.get(key) ?? 0, limit: 30 }),
  };
}

const stopped = () => new AbortController().signal;

test('every zone reads at once before any knows its size', () => {
  const order = new RequestOrder(budget());
  for (const z of [1, 2, 3]) assert.equal(order.may(z), true);
});

test('the zone with the most pages left reads alone for the first third of its budget', async () => {
  const b = budget();
  const order = new RequestOrder(b);
  await order.turn(1, stopped());
  order.estimate(1, 39);
  order.estimate(2, 15);
  assert.equal(order.first(1), true);
  assert.equal(order.first(2), false);
  b.used.set('1', 9);
  assert.equal(order.may(2), false, '9 of 30 used: its first answers set the spacing of its tail');
  let turned = false;
  const waiting = order.turn(2, stopped()).then(() => (turned = true));
  b.used.set('1', 10);
  order.sent();
  await waiting;
  assert.equal(turned, true, 'a third used: the others go');
});

test('reading alone, the first zone holds the others back while it waits for its own inserts, and reads further ahead', async () => {
  const b = budget();
  const order = new RequestOrder(b);
  await order.turn(1, stopped());
  order.estimate(1, 39);
  order.estimate(2, 15);
  b.used.set('1', 4);
  assert.equal(order.depth(1, 3, 4), 4, 'the first zone: as many batches as the run holds');
  assert.equal(order.depth(2, 3, 4), 3);
  order.active(1, false, true);
  assert.equal(order.may(2), false, 'its next page must not queue behind theirs');
  // past its alone share, waiting for its inserts lets the others read
  b.used.set('1', 12);
  assert.equal(order.may(2), true);
  // a retry or the end of its stream is not waiting for its inserts
  b.used.set('1', 4);
  order.active(1, false);
  assert.equal(order.may(2), true);
});

test('then, while it presses, the others read one batch at a time between them', async () => {
  const b = budget();
  const order = new RequestOrder(b);
  await order.turn(1, stopped());
  order.estimate(1, 39);
  b.used.set('1', 12);
  await order.turn(2, stopped());
  order.estimate(2, 15);
  order.estimate(3, 3);
  assert.equal(order.first(1), true);
  assert.equal(order.first(2), false);
  // zone 2 is still reading the batch it took at its turn: zone 3 waits, zone 1 never does
  assert.equal(order.may(3), false);
  assert.equal(order.may(1), true);
  let turned = false;
  const waiting = order.turn(3, stopped()).then(() => (turned = true));
  await Promise.resolve();
  assert.equal(turned, false);
  order.read(2);
  await waiting;
  assert.equal(turned, true, 'zone 3 goes once zone 2 has read its batch');
  // and now zone 2 waits for zone 3's batch
  assert.equal(order.may(2), false);
});

test('the others read freely while the first zone waits for its window, its inserts, or is done', async () => {
  const b = budget();
  const order = new RequestOrder(b);
  await order.turn(1, stopped());
  order.estimate(1, 39);
  b.used.set('1', 12);
  await order.turn(2, stopped());
  order.estimate(2, 15);
  order.estimate(3, 3);
  assert.equal(order.may(3), false);
  // its budget's window is full: it cannot send before a slot frees
  b.used.set('1', 30);
  assert.equal(order.may(3), true);
  b.used.set('1', 29);
  assert.equal(order.may(3), false);
  // waiting for its own inserts
  order.active(1, false);
  assert.equal(order.may(3), true);
  await order.turn(1, stopped());
  assert.equal(order.may(3), false);
  // its stream read to the end: the next largest is first now
  order.estimate(1, 0);
  assert.equal(order.first(1), false);
  assert.equal(order.first(2), true);
  order.read(2);
  assert.equal(order.may(3), false, 'zone 2 presses now');
  order.active(2, false);
  assert.equal(order.may(3), true);
});

test('zones of about the same size are all first: none holds the other back', async () => {
  const order = new RequestOrder(budget());
  await order.turn(1, stopped());
  order.estimate(1, 20);
  await order.turn(2, stopped());
  order.estimate(2, 19);
  assert.equal(order.first(1), true);
  assert.equal(order.first(2), true);
  assert.equal(order.may(1), true);
  assert.equal(order.may(2), true);
});

test('first is about pages past the free budget: the zone that used its window stays first through its tail', async () => {
  const b = budget();
  const order = new RequestOrder(b);
  order.estimate(1, 10);
  b.used.set('1', 30);
  order.estimate(2, 15);
  b.used.set('2', 2);
  assert.equal(order.first(1), true, '10 pages and no slot free');
  assert.equal(order.first(2), false, '15 pages and 28 slots free');
});

test('a zone with less than two pages left is never first: followed zones at the live end hold nobody back', async () => {
  const order = new RequestOrder(budget());
  order.estimate(1, 1);
  order.estimate(2, 0);
  order.active(1, true);
  assert.equal(order.first(1), false);
  assert.equal(order.may(2), true);
});

test('a zone waiting for its turn stops waiting when the run stops', async () => {
  const order = new RequestOrder(budget());
  await order.turn(1, stopped());
  order.estimate(1, 39);
  await order.turn(2, stopped());
  order.estimate(2, 5);
  order.estimate(3, 5);
  const stop = new AbortController();
  const waiting = order.turn(3, stop.signal);
  stop.abort();
  await assert.rejects(waiting, /stopped/);
});

test('pages left: from the density of what the stream read, unknown before it read anything, none when done', () => {
  const stream = { start: 0, read: 10_000, from: 60_000, to: 600_000, done: false };
  // 10,000 records in the first minute: 90,000 in the 9 minutes left, 9 pages of 10,000
  assert.equal(pagesLeft(stream, 10_000), 9);
  assert.equal(pagesLeft({ ...stream, read: 0, from: 0 }, 10_000), Number.POSITIVE_INFINITY);
  assert.equal(pagesLeft({ ...stream, done: true }, 10_000), 0);
});
