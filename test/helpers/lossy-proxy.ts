import { after } from 'node:test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * A loopback proxy in front of an origin that records every request, and can lose the answer to
 * mutations after the origin applied them:
 *   'pass'  forwards both ways;
 *   'reset' forwards, waits for the origin's answer, then drops the client's connection;
 *   'hold'  forwards, then never answers (the client times out).
 * Each request reaching the proxy is forwarded exactly once, so `seen` is what the server saw.
 */
export interface LossyProxy {
  url: string;
  seen: SeenRequest[];
  mode: 'pass' | 'reset' | 'hold';
  /** Mutations seen since `from` (an index into `seen`). */
  mutationsSince(from: number): SeenRequest[];
}

export async function useLossyProxy(target: string): Promise<LossyProxy> {
  const held: http.ServerResponse[] = [];
  const proxy: LossyProxy = {
    url: '',
    seen: [],
    mode: 'pass',
    mutationsSince: (from) => proxy.seen.slice(from).filter((r) => r.method !== 'GET'),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      proxy.seen.push({ method: req.method!, path: req.url!, body });
      const mode = req.method === 'GET' ? 'pass' : proxy.mode;
      const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (upRes) => {
        const parts: Buffer[] = [];
        upRes.on('data', (c: Buffer) => parts.push(c));
        upRes.on('end', () => {
          if (mode === 'hold') {
            held.push(res);
            return;
          }
          if (mode === 'reset') {
            req.socket.destroy();
            return;
          }
          res.writeHead(upRes.statusCode!, upRes.headers);
          res.end(Buffer.concat(parts));
        });
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  after(async () => {
    for (const r of held) r.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return proxy;
}
