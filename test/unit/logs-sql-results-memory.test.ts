import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { LogBuffer } from '../../src/log-engine/buffer';
import { NO_EXTENDED_FIELDS, type LogEntry } from '../../src/api/logs/entry';
import type { StatementResult } from '../../src/api/database/index';
import { LogsBackend } from '../../src/state/sql/logs-backend';
import type { PagedRows } from '../../src/state/sql/paged-rows';
import { until } from '../helpers/wait';

// Issue 28 item 4: three `SELECT * FROM logs, range(400)` took the console from 170 MB to
// 3.34 GB, each transcript entry holding its whole DuckDB result. A result is now a window of
// pages read again on demand, and only the newest result keeps pages.

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);
const RECORDS = 2000;
const QUERY = 'SELECT * FROM logs, range(50)';

function buffer(): LogBuffer {
  const b = new LogBuffer(RECORDS);
  b.insert(
    Array.from({ length: RECORDS }, (_, i): LogEntry => ({
      timestamp: new Date(BASE + i * 1000).toISOString(),
      pullZoneId: 1058,
      requestId: (i + 1).toString(16).padStart(32, '0'),
      cacheStatus: 'HIT',
      statusCode: 200,
      bytesSent: i,
      remoteIp: '198.51.100.7',
      countryCode: 'DE',
      edgeLocation: 'DE',
      scheme: 'https',
      host: 'zone.b-cdn.net',
      path: `/a/rather/long/path/for/record/${i}?with=a&query=string`,
      url: null,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)',
      referer: 'https://referer.example/some/page',
      ...NO_EXTENDED_FIELDS,
    })),
  );
  return b;
}

function rss(): number {
  gc();
  return process.memoryUsage().rss;
}

test('ten large results hold about what one does: only the newest keeps pages, and an earlier one is read again when shown', async () => {
  const records = buffer();
  const backend = new LogsBackend(
    () => records,
    () => undefined,
    () => 0,
  );
  const results: { result: StatementResult; paged: PagedRows | null }[] = [];
  let pages = 0;
  try {
    await backend.refresh();
    const run = () => backend.run(QUERY, new AbortController().signal, (result, paged) => results.push({ result, paged }), { onPage: () => pages++ });
    await run();
    const heldAfterOne = backend.rowsHeld();
    const rssAfterOne = rss();
    assert.equal(results[0]!.result.rows.length, RECORDS * 50);
    assert.ok(heldAfterOne > 0 && heldAfterOne <= 20_000, `one result holds a window of pages (${heldAfterOne} rows)`);
    for (let i = 2; i <= 10; i++) {
      await run();
      // checked after each, so a leak fails early (before it takes the machine's memory)
      const grown = rss() / rssAfterOne;
      assert.ok(grown <= 1.5, `after ${i} queries the process is ${grown.toFixed(2)}x its size after one`);
    }
    assert.ok(backend.rowsHeld() <= heldAfterOne * 1.5, `rows held after ten: ${backend.rowsHeld()}, after one: ${heldAfterOne}`);
    // the first result gave its pages back; shown again, a row is read again and is right
    const first = results[0]!.result;
    const i = 75_123;
    const before = pages;
    first.rows[i];
    await until('the page was read again', () => pages > before);
    const row = first.rows[i]!;
    const [expected] = await (async () => {
      const out: StatementResult[] = [];
      await backend.run(`SELECT * FROM (${QUERY}) LIMIT 1 OFFSET ${i}`, new AbortController().signal, (r) => out.push(r));
      return out;
    })();
    assert.deepEqual([...row], [...expected!.rows[0]!]);
  } finally {
    backend.close();
  }
});
