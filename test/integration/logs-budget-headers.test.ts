import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi } from '../../src/api/index';
import { LogsApi } from '../../src/api/logs/index';

const envelope = (offset: number) =>
  `"pagination":{"offset":${offset},"limit":10,"returned":0,"hasMore":false},"query":{"pullZoneId":1,"from":"2026-08-08T12:00:00.000Z","to":"2026-08-08T13:00:00.000Z","order":"desc"}}`;

test("a log request's budget slot counts from the answer's headers: the next request may go while the body is still arriving", async () => {
  let releaseFirst: () => void = () => undefined;
  const firstHeld = new Promise<void>((r) => (releaseFirst = r));
  let firstEnded = false;
  let secondWhileFirstOpen = false;
  let requests = 0;
  const server = http.createServer((req, res) => {
    const n = ++requests;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    if (n === 1) {
      // the headers and the start of the body now; the rest once the second request came (or 3 s)
      res.write('{"data":[');
      const fallback = setTimeout(releaseFirst, 3_000);
      void firstHeld.then(() => {
        clearTimeout(fallback);
        firstEnded = true;
        res.end(`],${envelope(0)}`);
      });
      return;
    }
    secondWhileFirstOpen = !firstEnded;
    releaseFirst();
    res.end(`{"data":[],${envelope(10)}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createApi({ baseUrl: url, loggingUrl: url, apiKey: 'key' });
  // one request per 50 ms window
  const logs = new LogsApi(api.logging, { budgetOptions: { limit: 1, windowMs: 50 } });
  try {
    const [a, b] = await Promise.all([logs.query(1, { offset: 0, limit: 10 }), logs.query(1, { offset: 10, limit: 10 })]);
    assert.equal(a.returned + b.returned, 0);
    assert.equal(requests, 2);
    assert.ok(secondWhileFirstOpen, 'the second request was sent only after the whole first answer was read');
  } finally {
    await api.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
