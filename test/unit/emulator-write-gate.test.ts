import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { WriteGate } from '../../src/emulator/database/write-gate';
import { StmtError } from '../../src/emulator/database/stmt-error';

// One writer at a time, first come first served; a waiter gives up with SQLITE_BUSY after the
// wait, and a cancelled one leaves the queue. Timers are mocked: no wall clock.

/** Follows a promise: its state after the microtasks that ran so far. */
function track(p: Promise<unknown>): { state: string } {
  const t = { state: 'pending' };
  p.then(
    () => (t.state = 'resolved'),
    (e: unknown) => (t.state = `rejected ${(e as StmtError).code}`),
  );
  return t;
}
const tick = () => new Promise<void>((r) => setImmediate(r));

test('writers get the gate in the order they asked, each when the one before releases it', async () => {
  const gate = new WriteGate(5000);
  const [a, b, c] = [{}, {}, {}];
  await gate.acquire(a);
  await gate.acquire(a); // the holder asking again does not queue behind itself
  const pb = gate.acquire(b);
  const pc = gate.acquire(c);
  const [tb, tc] = [track(pb), track(pc)];
  await tick();
  assert.equal(tb.state, 'pending');
  gate.release(c); // not the holder: nothing happens
  gate.release(a);
  await tick();
  assert.equal(tb.state, 'resolved');
  assert.equal(tc.state, 'pending');
  assert.ok(gate.heldBy(b));
  gate.release(b);
  await pc;
  assert.ok(gate.heldBy(c));
  gate.release(c);
});

test('a waiter gives up with SQLITE_BUSY after the wait; a cancelled one leaves the queue at once', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const gate = new WriteGate(5000);
    const [holder, patient, quitter] = [{}, {}, {}];
    await gate.acquire(holder);
    const pp = gate.acquire(patient);
    const pq = gate.acquire(quitter);
    const [tp, tq] = [track(pp), track(pq)];
    gate.cancel(quitter, new StmtError('SQLite error: interrupted', 'SQLITE_INTERRUPT'));
    await tick();
    assert.equal(tq.state, 'rejected SQLITE_INTERRUPT');
    mock.timers.tick(4999);
    await tick();
    assert.equal(tp.state, 'pending');
    mock.timers.tick(1);
    await assert.rejects(pp, (e: unknown) => e instanceof StmtError && e.code === 'SQLITE_BUSY' && /held the write lock for 5000 ms/.test(e.message));
    gate.release(holder);
    const late = {};
    await gate.acquire(late);
    assert.ok(gate.heldBy(late), 'nobody left in the queue: the gate is free for the next writer');
  } finally {
    mock.timers.reset();
  }
});
