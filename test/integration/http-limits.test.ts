import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { HttpClient } from '../../src/api/http';
import { ApiError } from '../../src/api/errors';

// A wrong URL or a broken proxy must not hang burrow or eat its memory: a server that drips a
// byte at a time (never silent long enough for the idle timeouts) meets the overall deadline, and
// an endless body meets the size cap. Both become readable errors.

const seen: string[] = [];
const server = http.createServer((req, res) => {
  req.resume();
  seen.push(`${req.method} ${req.url}`);
  if (req.url?.startsWith('/moved')) {
    res.writeHead(301, { location: 'https://db.example.net/v2/pipeline', 'content-type': 'text/html' });
    res.end('<html><title>Moved</title></html>');
    return;
  }
  if (req.url?.startsWith('/drip')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const t = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(t));
    return;
  }
  if (req.url?.startsWith('/huge')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const push = () => {
      while (sent < 50 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
      if (sent < 50 * 1024 * 1024) res.once('drain', push);
      else res.end(']');
    };
    res.write('[');
    push();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
after(() => {
  server.closeAllConnections();
  server.close();
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = new HttpClient({ baseUrl: base, requestTimeoutMs: 300, maxRetries: 0, maxResponseBytes: 1024 * 1024 });
after(() => client.close());

test('a body that drips forever meets the deadline (4x the request timeout) as a timeout; a mutation as an unknown outcome', async () => {
  const started = Date.now();
  const e = await client.request('/drip').catch((x: unknown) => x);
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.kind, 'timeout');
  assert.match(e.message, /GET \/drip timed out \(no complete answer within 1\.2 s\)/);
  assert.ok(Date.now() - started < 5000);
  const m = await client.request('/drip', { method: 'PATCH', body: { a: 1 } }).catch((x: unknown) => x);
  assert.ok(m instanceof ApiError);
  assert.equal(m.kind, 'unknown-outcome');
  assert.match(m.message, /^unknown outcome: PATCH \/drip timed out \(no complete answer within 1\.2 s\) after it was sent; it was not retried/);
  // and the client still works
  assert.deepEqual((await client.request('/ok')).data, { ok: true });
});

test('an endless body is cut at the size cap with a readable error', async () => {
  const e = await client.request('/huge').catch((x: unknown) => x);
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.kind, 'malformed');
  assert.match(e.message, /GET \/huge answered with a body larger than 1 MiB: is the URL right\?/);
  assert.deepEqual((await client.request('/ok')).data, { ok: true });
});

test('a caller that cancels still gets "cancelled", not a timeout', async () => {
  const abort = new AbortController();
  const before = seen.length;
  const pending = client.request('/drip', { signal: abort.signal }).catch((x: unknown) => x);
  await until('the server dripping its answer', () => seen.length > before);
  abort.abort();
  const e = await pending;
  assert.ok(e instanceof ApiError);
  assert.equal(e.kind, 'aborted');
});

test('a dripping server fails at the limit its message names, once: not again on each retry', async () => {
  const retrying = new HttpClient({ baseUrl: base, requestTimeoutMs: 5000, deadlineMs: 450, maxRetries: 3, retryBaseMs: 1 });
  after(() => retrying.close());
  const before = seen.length;
  const e = await retrying.request('/drip?once').catch((x: unknown) => x);
  assert.ok(e instanceof ApiError, String(e));
  assert.match(e.message, /^GET \/drip\?once timed out \(no complete answer within 0\.5 s\)$/);
  assert.deepEqual(seen.slice(before), ['GET /drip?once'], 'asked once: a retry would drip the same way');
});

test('a redirect is not followed; the error says where it points', async () => {
  const before = seen.length;
  const e = await client.request('/moved', { method: 'POST', body: {} }).catch((x: unknown) => x);
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.status, 301);
  assert.equal(
    e.message,
    '301 Moved Permanently: the server redirects to https://db.example.net/v2/pipeline (burrow does not follow redirects: if that address is right, use it)',
  );
  assert.deepEqual(seen.slice(before), ['POST /moved'], 'not followed');
});

test('a TLS handshake that fails is reported as such: nothing was sent, not an unknown outcome', async () => {
  // a plain TCP server that answers a TLS hello with HTTP text: the handshake cannot succeed
  const received: Buffer[] = [];
  const plain = net.createServer((socket) => {
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', () => {});
    socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
  after(() => plain.close());
  const tls = new HttpClient({ baseUrl: `https://127.0.0.1:${(plain.address() as AddressInfo).port}`, requestTimeoutMs: 2000, maxRetries: 0 });
  after(() => tls.close());
  const e = await tls.request('/v2/pipeline', { method: 'POST', body: { requests: [] } }).catch((x: unknown) => x);
  assert.ok(e instanceof ApiError, String(e));
  assert.equal(e.kind, 'network');
  assert.match(e.message, /^POST \/v2\/pipeline: the TLS handshake failed \(ERR_SSL_\w+: [a-z ]+\) \(https:\/\/127\.0\.0\.1:\d+\); nothing was sent$/);
  assert.doesNotMatch(e.message, /unknown outcome|after it was sent/);
  assert.ok(!Buffer.concat(received).toString('latin1').includes('/v2/pipeline'), 'the request itself never went out');
});
