import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LogPageReader, type ReadPage } from '../../src/log-engine/page-reader';
import { LogBuffer } from '../../src/log-engine/buffer';
import { logEntry } from '../helpers/log-entry';

// A page read by the worker thread reaches the main thread in shared memory: the worker posts its
// columns without a transfer list, so none of its ArrayBuffers is ever detached (the first detach
// in a thread costs every optimized typed-array function a recompile, and a check at each access
// from then on). The records must be the same as read on the calling thread, page after page
// (the worker's dictionaries grow from page to page; each page has its own columns).

const BASE = Date.UTC(2026, 7, 8, 12);

/** A page body in the platform's layout: `n` records from `from`, values repeating across pages. */
function body(from: number, n: number): string {
  const data = Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return logEntry({
      timestamp: new Date(BASE + i * 7).toISOString(),
      requestId: i.toString(16).padStart(32, '0'),
      cacheStatus: ['HIT', 'MISS', 'BYPASS'][i % 3]!,
      statusCode: [200, 404, 503][i % 3]!,
      remoteIp: i % 4 === 0 ? `2001:db8::${(i % 50).toString(16)}` : `10.0.${i % 7}.${i % 200}`,
      countryCode: ['DE', 'FR'][i % 2]!,
      scheme: 'https',
      host: 'shop.example.com',
      path: `/p/${i % 37}`,
      url: i % 5 === 0 ? 'https://elsewhere.example/x' : `https://shop.example.com/p/${i % 37}`,
      userAgent: `agent ${i % 11}`,
    });
  });
  return JSON.stringify({ data, pagination: { offset: from, limit: n, returned: n, hasMore: true } });
}

const plain = (p: ReadPage) => ({ entries: p.entries, times: Array.from(p.times), skipped: p.skipped, envelope: p.envelope });

test('the worker thread posts a page as columns in shared memory, equal to the page read on this thread', async () => {
  const threaded = new LogPageReader({ workerThreshold: 0 });
  const local = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  try {
    for (let p = 0; p < 4; p++) {
      const text = body(p * 300, 300);
      const page = await threaded.read(Buffer.from(text));
      const batch = page.batch;
      assert.ok(batch, 'a page with data has a batch');
      for (const column of [batch.times, batch.nums, batch.codes, batch.ridWords, batch.ip4, batch.ip6]) {
        assert.ok(column.buffer instanceof SharedArrayBuffer, 'each column is shared memory, not an ArrayBuffer moved out of the worker');
      }
      assert.deepEqual(plain(page), plain(local.readSync(text)));
    }
    assert.ok(threaded.workerBusyMs > 0, 'the worker did the reading');
  } finally {
    await threaded.close();
  }
});

test('a store fills from the worker pages columns as from pages read on this thread', async () => {
  const threaded = new LogPageReader({ workerThreshold: 0 });
  const local = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
  const a = new LogBuffer(2000);
  const b = new LogBuffer(2000);
  try {
    // pages overlapping by 100 records, as overlapping polls give
    for (let p = 0; p < 5; p++) {
      const text = body(p * 200, 300);
      a.insertBatch((await threaded.read(Buffer.from(text))).batch!);
      b.insertBatch(local.readSync(text).batch!);
    }
  } finally {
    await threaded.close();
  }
  assert.equal(a.length, 1100);
  assert.equal(a.duplicates, 400);
  assert.deepEqual(a.toArray(), b.toArray());
});
