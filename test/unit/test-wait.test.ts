import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slowdown, until } from '../helpers/wait';

test('until awaits an async check each poll, not taking its promise for a truthy answer', async () => {
  let calls = 0;
  const got = await until('the third answer', async () => {
    calls += 1;
    await Promise.resolve();
    return calls >= 3 ? `answer ${calls}` : null;
  });
  assert.equal(got, 'answer 3');
  assert.equal(calls, 3);
});

test('until takes a sync check as before', async () => {
  let calls = 0;
  assert.equal(await until('two calls', () => ++calls >= 2 && calls), 2);
});

test('until fails naming what it waited for, and an async check that never holds fails too', async () => {
  await assert.rejects(
    until('a server that never answers yes', async () => false, 1, 1),
    /timed out waiting for a server that never answers yes after \d+ ms \(1 ms idle, × [\d.]+ for the machine's load\)/,
  );
});

test('slowdown: at least 1, at least BURROW_TEST_SLOWDOWN, at most 8', () => {
  const saved = process.env.BURROW_TEST_SLOWDOWN;
  try {
    delete process.env.BURROW_TEST_SLOWDOWN;
    assert.ok(slowdown() >= 1 && slowdown() <= 8);
    process.env.BURROW_TEST_SLOWDOWN = '5';
    assert.ok(slowdown() >= 5);
    process.env.BURROW_TEST_SLOWDOWN = '50';
    assert.equal(slowdown(), 8);
  } finally {
    if (saved === undefined) delete process.env.BURROW_TEST_SLOWDOWN;
    else process.env.BURROW_TEST_SLOWDOWN = saved;
  }
});
