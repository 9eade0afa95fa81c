import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import { LateWindow, windowEntry as entry } from '../helpers/late-window';

test('history pages answered before the page above them while late records came: one request reads the gap, the pages after the missed one are taken as they are', async () => {
  const N = 30_000;
  const win = new LateWindow(N);
  const { pending, asked } = win;
  /** The server answers the request for this offset now (with the window as it is now). */
  const serve = (offset: number) => win.serve(offset);
  const engine = win.followEngine();
  engine.start();
  try {
    await serve(0);
    await until('three pages in flight', () => pending.length === 3);
    // the two lower pages are answered first ...
    await serve(9_998);
    await serve(14_997);
    // ... then 100 late records, then the page above them
    win.late = 100;
    await serve(4_999);
    while (!engine.status().zones[0]!.backfill?.done) {
      await until('a request or the end', () => pending.length > 0 || engine.status().zones[0]!.backfill?.done);
      if (pending.length) await serve(Math.min(...pending.map((p) => p.q.offset ?? 0)));
    }
    const twice = [...new Set(asked)].filter((o) => asked.filter((x) => x === o).length > 1);
    assert.deepEqual(twice, [9_998], 'one request for the gap (at the missed page), none for the page after it');
    const held = new Set(engine.buffer.toArray().map((e) => e.requestId));
    const missing: number[] = [];
    for (let n = 0; n < N; n++) if (!held.has(entry(n).requestId)) missing.push(n);
    assert.deepEqual(missing, [], 'every record of the window is held');
    // the late records are at the top of the window: the polls' to read
    assert.equal(engine.buffer.length, N, 'each record once');
  } finally {
    const stopping = engine.stop();
    for (const p of pending.splice(0)) p.resolve(win.answer(p.q));
    await stopping;
  }
});
