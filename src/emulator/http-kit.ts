import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Past the limit the rest of a body is read and dropped (so the client gets the 413) up to this. */
const DISCARD_LIMIT = 16 * 1024 * 1024;

export class BodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The raw body (at most MAX_BODY_BYTES). */
  text(): Promise<string>;
  /** The body parsed as JSON; throws BodyError with a message fit for a 400. */
  json(): Promise<unknown>;
  send(status: number, body?: unknown, headers?: Record<string, string>): void;
  sendText(status: number, text: string, contentType?: string): void;
}

export type Handler = (ctx: Ctx) => void | Promise<void>;

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

/** Exact-segment router with `:name` parameters. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
    return this;
  }
  get(p: string, h: Handler) {
    return this.on('GET', p, h);
  }
  post(p: string, h: Handler) {
    return this.on('POST', p, h);
  }
  put(p: string, h: Handler) {
    return this.on('PUT', p, h);
  }
  patch(p: string, h: Handler) {
    return this.on('PATCH', p, h);
  }
  delete(p: string, h: Handler) {
    return this.on('DELETE', p, h);
  }

  /** Finds the route; `methodMismatch` when the path exists under another method. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | 'method-mismatch' | null {
    const segs = path.split('/').filter(Boolean);
    let pathMatched = false;
    for (const r of this.routes) {
      if (r.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const p = r.parts[i]!;
        if (p.startsWith(':')) {
          try {
            params[p.slice(1)] = decodeURIComponent(segs[i]!);
          } catch {
            ok = false;
            break;
          }
        } else if (p !== segs[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      pathMatched = true;
      if (r.method === method || (method === 'HEAD' && r.method === 'GET')) return { handler: r.handler, params };
    }
    return pathMatched ? 'method-mismatch' : null;
  }
}

export function makeCtx(req: IncomingMessage, res: ServerResponse, params: Record<string, string> = {}): Ctx {
  // Split by hand: `new URL` throws on paths like `//x` and would take the server down.
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  const search = q < 0 ? '' : raw.slice(q + 1);
  let cached: Promise<string> | null = null;
  const text = () =>
    (cached ??= new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (over) {
          // a client sending far more than allowed is cut off; up to then it can read the 413
          if (size > DISCARD_LIMIT) req.destroy();
          return;
        }
        if (size > MAX_BODY_BYTES) {
          over = true;
          chunks.length = 0;
          reject(new BodyError(`request body larger than ${MAX_BODY_BYTES} bytes`, 413));
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', (e) => reject(new BodyError(`could not read the body: ${e.message}`, 400)));
    }));
  return {
    req,
    res,
    method: req.method ?? 'GET',
    path: pathname.startsWith('/') ? pathname : `/${pathname}`,
    params,
    query: new URLSearchParams(search),
    text,
    async json() {
      const t = await text();
      if (t.trim() === '') throw new BodyError('a JSON request body is required', 400);
      try {
        return JSON.parse(t);
      } catch (e) {
        throw new BodyError(`the request body is not valid JSON: ${(e as Error).message}`, 400);
      }
    },
    send(status, body, headers = {}) {
      if (res.headersSent) return;
      if (body === undefined) {
        res.writeHead(status, headers);
        res.end();
        return;
      }
      const payload = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...headers });
      res.end(payload);
    },
    sendText(status, t, contentType = 'text/plain; charset=utf-8') {
      if (res.headersSent) return;
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(t) });
      res.end(t);
    },
  };
}

/** Integer query parameter: null when absent, NaN when present but not an integer. */
export function intParam(query: URLSearchParams, name: string): number | null {
  const v = query.get(name);
  if (v === null || v === '') return null;
  return /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
}
