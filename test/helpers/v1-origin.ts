import { after } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatV1Line } from '../../src/api/logs/v1';
import type { LogEntry } from '../../src/api/logs/entry';

/** A v1 day file served by a logging origin of the test's own, whose end is held back. */
export interface HeldBackDay {
  /** The origin's base URL (BURROW_LOGGING_URL, or a LogsApi's logging URL). */
  url: string;
  /** The whole day as v1 lines. */
  text: string;
  /** Bytes sent at once (the lines before `heldBackFrom`), and the whole file's. */
  headBytes: number;
  totalBytes: number;
  /** Sends the rest of the file to the newest request. */
  release(): void;
  /** Requests for the day so far. */
  requests(): number;
}

/**
 * Serves `entries` as the v1 day of `zoneId` (`day` as MM-dd-yy, or any day): each request gets
 * the lines before `heldBackFrom` at once and the rest only on `release()`, so a test sees a day
 * while it is read. Any other path answers 503. Closed when the test file ends.
 */
export async function heldBackV1Day(o: { zoneId: number; entries: readonly LogEntry[]; heldBackFrom: number; day?: string }): Promise<HeldBackDay> {
  const lines = o.entries.map((e) => `${formatV1Line(e)}\n`);
  const head = Buffer.from(lines.slice(0, o.heldBackFrom).join(''));
  const tail = Buffer.from(lines.slice(o.heldBackFrom).join(''));
  const path = new RegExp(`^/${o.day ?? '\\d\\d-\\d\\d-\\d\\d'}/${o.zoneId}\\.log`);
  let release: () => void = () => {};
  let requests = 0;
  const origin = http.createServer((req, res) => {
    if (!path.test(req.url ?? '')) {
      res.writeHead(503).end();
      return;
    }
    requests++;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(head.length + tail.length) });
    res.write(head);
    void new Promise<void>((resolve) => (release = resolve)).then(() => res.end(tail));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  after(() => {
    origin.closeAllConnections();
    origin.close();
  });
  return {
    url: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
    text: lines.join(''),
    headBytes: head.length,
    totalBytes: head.length + tail.length,
    release: () => release(),
    requests: () => requests,
  };
}
