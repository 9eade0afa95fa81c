/**
 * A hostile platform: a proxy on 127.0.0.1 port 0 in front of an emulator origin that answers
 * every route burrow reads with terminal control sequences in every string field of the JSON
 * (answers and error bodies alike), and a check that none of them reached a terminal raw.
 *
 *   const mgmt = await startHostileProxy(emu.info.baseUrl);
 *   const logging = await startHostileProxy(emu.info.loggingUrl, { keep: ['timestamp'] });
 *   env: { ...envFor(emu), BURROW_BASE_URL: mgmt.url, BURROW_LOGGING_URL: logging.url }
 *   assertNoHostileBytes(app.rawOutput(), 'videos');
 *
 * Stopped by an `after` hook.
 */
import http from 'node:http';
import { after } from 'node:test';
import assert from 'node:assert/strict';

/**
 * What the attacker puts in front of every string: OSC 52 (writes the clipboard), OSC 0 (window
 * title), a colour code the views never use (blink), CSI clear screen, a right-to-left override,
 * a C1 CSI (0x9b) clear and a C1 OSC (0x9d) title. Each has a marker so a leak is unmistakable.
 */
export const HOSTILE = '\x1b]52;c;SFNUSUxF\x07\x1b]0;pwned\x07\x1b[6m\x1b[2J\u202e\x9b2J\x9d0;c1\x9c';

/** How the sanitiser shows the start of HOSTILE: what a person sees instead of a hijacked terminal. */
export const HOSTILE_VISIBLE = '\\x1b]52;c;SFNUSUxF\\x07';

/** Raw sequences from HOSTILE that must never reach a terminal. */
export const HOSTILE_RAW = ['\x1b]52;', '\x1b]0;', '\x1b[6m', '\x1b[2J', '\u202e', '\x9b', '\x9d', '\x9c', '\x07'] as const;

/** Fails when `raw` (bytes a terminal received) holds any raw piece of HOSTILE. */
export function assertNoHostileBytes(raw: string, where: string): void {
  for (const seq of HOSTILE_RAW) {
    const at = raw.indexOf(seq);
    assert.equal(at, -1, `${where}: ${JSON.stringify(seq)} reached the terminal raw, near ${JSON.stringify(raw.slice(Math.max(0, at - 60), at + 60))}`);
  }
}

export interface HostileOptions {
  /** Field names left as they are (the rest of the record must stay readable, e.g. log timestamps). */
  keep?: readonly string[];
  /** Requests whose path matches answer 400 with HOSTILE in Message, ErrorKey and Field. */
  failPaths?: RegExp;
  /** Rewrites text/plain answers (the v1 log files): see poisonV1. */
  text?: (body: string) => string;
}

export interface HostileProxy {
  url: string;
  /** Paths of the requests seen, in order. */
  seen: string[];
  close(): Promise<void>;
}

/** Every string in `value` with HOSTILE in front, except under the keys in `keep`. */
export function poison(value: unknown, keep: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return HOSTILE + value;
  if (Array.isArray(value)) return value.map((v) => poison(v, keep));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = keep.has(k) ? v : poison(v, keep);
    return out;
  }
  return value;
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startHostileProxy(target: string, options: HostileOptions = {}): Promise<HostileProxy> {
  const keep = new Set(options.keep ?? []);
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const path = req.url ?? '/';
      seen.push(path);
      const body = await readBody(req);
      if (options.failPaths?.test(path)) {
        const text = JSON.stringify({ ErrorKey: `${HOSTILE}bad.key`, Field: `${HOSTILE}Name`, Message: `${HOSTILE}refused` });
        res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(k)) headers[k] = v;
      const answer = await fetch(new URL(path, target), { method: req.method, headers, body: body.length ? body : undefined, redirect: 'manual' });
      const text = await answer.text();
      const type = answer.headers.get('content-type') ?? '';
      let out = text;
      if (options.text && /^text\/plain/.test(type)) out = options.text(text);
      else if (/json/.test(type) && text) {
        try {
          out = JSON.stringify(poison(JSON.parse(text), keep));
        } catch {
          out = text;
        }
      }
      const reply: Record<string, string> = { 'content-length': String(Buffer.byteLength(out)) };
      if (type) reply['content-type'] = type;
      for (const h of ['retry-after', 'location']) {
        const v = answer.headers.get(h);
        if (v) reply[h] = v;
      }
      res.writeHead(answer.status, reply);
      res.end(out);
    })().catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  after(close);
  return { url: `http://127.0.0.1:${port}`, seen, close };
}

/** An OpenAPI 3 document within every plan limit, with HOSTILE in its title, version, a path and a schema name. */
export function hostileSpec(): unknown {
  return {
    openapi: '3.0.3',
    info: { title: `${HOSTILE}Evil API`, version: `${HOSTILE}1.0` },
    paths: { [`/items/${HOSTILE}`]: { get: { responses: { '200': { description: `${HOSTILE}ok` } } } } },
    components: { schemas: { [`${HOSTILE}Item`]: { type: 'object', properties: { name: { type: 'string' } } } } },
  };
}

/** A v1 log file with HOSTILE in front of every line (the cache field), and a line whose status is HOSTILE (its reason is printed). */
export function poisonV1(body: string): string {
  const lines = body
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => HOSTILE + l);
  return [...lines, `HIT|${HOSTILE}|0|0|1|-|-|-|-|-|-|-`].join('\n') + '\n';
}
