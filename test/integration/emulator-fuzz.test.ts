import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { Random } from '../../src/emulator/random';

// Fuzzes every origin with random paths, methods, headers and bodies. The emulator must answer each
// request with the platform's error shapes (never a 500, never a dropped connection) and stay up.

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const COUNT = Number(process.env.FUZZ_COUNT ?? 900);

const PREFIXES = [
  '/shield/shield-zones',
  '/shield/shield-zone/1',
  '/shield/shield-zone/abc/api-guardian',
  '/shield/shield-zone/99999999999/api-guardian/spec',
  '/mc/limits',
  '/mc/apps',
  '/mc/apps/x/region-settings',
  '/mc/regions',
  '/videolibrary',
  '/loadbalancer',
  '/loadbalancer/-1',
  '/pullzone',
  '/database/v2/databases',
  '/database/v2/databases/db_x/auth/generate',
  '/database/v2/databases/db_x/auth/revoke',
  '/v2/pullzones/1/logs',
  '/v2/pullzones/abc/logs',
  '/11-21-26/1.log',
  '/99-99-99/1.log',
  '/v2/pipeline',
  '/v3/pipeline',
  '/v3-protobuf',
  '/',
];
const SEGMENTS = ['..', '%2e%2e', '%', '%E0%A4%A', 'ünï', '0', '-1', '2147483648', '9'.repeat(40), 'null', 'a'.repeat(300), '%00', '{}', '[]'];
const QUERY_KEYS = ['page', 'perPage', 'search', 'limit', 'offset', 'from', 'to', 'status', 'order', 'nextCursor', 'count', 'start', 'end', 'sort'];
const QUERY_VALUES = ['', '0', '-5', '1e9', 'NaN', '2147483648', 'x'.repeat(2000), '5xx,abc', '2026-13-45T99:99:99Z', '%FF', 'true', '[]'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

function randomBody(r: Random, accessKey: string): string | undefined {
  switch (r.int(0, 9)) {
    case 0:
      return undefined;
    case 1:
      return '';
    case 2:
      return '{"truncated": tr';
    case 3:
      return JSON.stringify({ isEnabled: 'yes', executionMode: 7, extra: [1, 2, { deep: null }] });
    case 4:
      return JSON.stringify({
        requests: [
          {
            type: r.pick(['execute', 'batch', 'bogus', 'close', 'get_autocommit', 'store_sql']),
            stmt: { sql: r.pick(['SELECT 1', 'DROP TABLE nope', '', 'SELECT ?']), args: [{ type: 'integer', value: 'x' }] },
          },
        ],
      });
    case 5:
      return JSON.stringify({ allowedRegionIds: 'DE', requiredRegionIds: [1, 2], maxAllowedRegions: -1, nodeSelectors: [] });
    case 6:
      return JSON.stringify({ content: r.pick(['', 'openapi: 3.0.0', '{"openapi":"3.0.0","paths":{"/a":{"get":{}}}}', ': : :']), key: accessKey.slice(0, 3) });
    case 7:
      return JSON.stringify(Array.from({ length: r.int(0, 50) }, () => r.next()));
    case 8:
      return '['.repeat(r.int(1, 2000));
    default:
      return Buffer.from(Array.from({ length: r.int(1, 200) }, () => r.int(0, 255))).toString('latin1');
  }
}

test(`the emulator survives ${COUNT} random requests (seed ${SEED}) without a 500`, { timeout: 120_000 }, async () => {
  const emu = await useEmulator({ logRate: 1, ingestDelayMs: 1000 });
  const r = new Random(SEED);
  const origins = [emu.info.baseUrl, emu.info.loggingUrl, emu.info.databaseUrl];
  const failures: string[] = [];
  const statuses = new Map<number, number>();

  async function one(i: number): Promise<void> {
    let path = r.pick(PREFIXES);
    for (let s = r.int(0, 2); s > 0; s--) path += `/${r.pick(SEGMENTS)}`;
    const params = Array.from({ length: r.int(0, 4) }, () => `${r.pick(QUERY_KEYS)}=${r.pick(QUERY_VALUES)}`);
    if (params.length) path += `?${params.join('&')}`;
    const headers: Record<string, string> = {};
    const auth = r.int(0, 4);
    if (auth === 1) headers.AccessKey = emu.info.accessKey;
    if (auth === 2) headers.AccessKey = 'nope';
    if (auth === 3) headers.Authorization = `Bearer ${r.pick([emu.info.databaseToken, emu.info.readOnlyDatabaseToken, 'a.b.c', 'garbage'])}`;
    if (auth === 4) headers.Authorization = r.pick(['Basic Zm9vOmJhcg==', 'Bearer', '']);
    const body = randomBody(r, emu.info.accessKey);
    if (body !== undefined)
      headers['content-type'] = r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']);
    const method = r.pick(METHODS);
    const origin = r.pick(origins);
    try {
      const res = await request(`${origin}${path}`, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) failures.push(`#${i} ${method} ${origin}${path.slice(0, 200)} -> ${res.statusCode}`);
    } catch (error) {
      failures.push(`#${i} ${method} ${origin}${path.slice(0, 200)} -> ${(error as Error).message}`);
    }
  }

  for (let i = 0; i < COUNT; i += 10) await Promise.all(Array.from({ length: Math.min(10, COUNT - i) }, (_, k) => one(i + k)));

  assert.deepEqual(failures, [], `requests that failed or got a 5xx (replay with FUZZ_SEED=${SEED}):\n${failures.slice(0, 20).join('\n')}`);
  // Still up and answering correctly after the storm.
  const limits = await request(`${emu.info.baseUrl}/mc/limits`, { headers: { AccessKey: emu.info.accessKey } });
  assert.equal(limits.statusCode, 200);
  assert.equal(typeof ((await limits.body.json()) as { maxNumberOfApplications: unknown }).maxNumberOfApplications, 'number');
  assert.ok(statuses.size >= 3, `expected a spread of statuses, got ${[...statuses.keys()].join(',')}`);
});

/** How many complete responses (headers and Content-Length body) are in `raw`. */
function completeResponses(raw: string): number {
  let n = 0;
  let at = 0;
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end < 0) return n;
    const len = Number(/\r\ncontent-length: *(\d+)/i.exec(raw.slice(at, end))?.[1] ?? 0);
    if (raw.length < end + 4 + len) return n;
    at = end + 4 + len;
    n++;
  }
}

/** Writes raw bytes on a new connection; resolves with what came back once `responses` answers are complete, the server closed, or the wait ended. */
function rawExchange(
  origin: string,
  parts: (string | Buffer)[],
  opts: { gapMs?: number; waitMs?: number; abortAfterWrite?: boolean; responses?: number } = {},
): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let out = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(out);
    };
    socket.on('data', (d) => {
      out += d.toString('latin1');
      if (completeResponses(out) >= (opts.responses ?? 1)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('connect', async () => {
      for (const p of parts) {
        if (!socket.writable) break;
        socket.write(p);
        // pacing is the point: a slow client trickling its request in parts
        if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
      }
      if (opts.abortAfterWrite) return finish();
      setTimeout(finish, opts.waitMs ?? 3000);
    });
  });
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);

test(
  'raw HTTP abuse (cut-off uploads, bad chunking, oversize bodies, huge headers, pipelining, deep JSON) gets readable answers; the emulator stays up',
  { timeout: 60_000 },
  async () => {
    const emu = await useEmulator({ logRate: 1, ingestDelayMs: 1000 });
    const key = emu.info.accessKey;
    const token = emu.info.databaseToken;
    const zones = (await (await request(`${emu.info.baseUrl}/shield/shield-zones`, { headers: { AccessKey: key } })).body.json()) as {
      data: { shieldZoneId: number }[];
    };
    const zone = zones.data[0]!.shieldZoneId;
    const writes: [string, string, string][] = [
      [emu.info.baseUrl, 'PATCH', `/shield/shield-zone/${zone}/api-guardian`],
      [emu.info.baseUrl, 'PUT', '/database/v2/databases/db_01KCHBG8C5KSFGG0VRNFQ7EK7X/auth/generate'],
      [emu.info.databaseUrl, 'POST', '/v2/pipeline'],
    ];
    const head = (method: string, path: string, extra: string) =>
      `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccessKey: ${key}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${extra}\r\n`;
    const failures: string[] = [];
    const expect = (what: string, raw: string, ok: (status: number) => boolean) => {
      if (!ok(statusOf(raw))) failures.push(`${what}: ${raw.split('\r\n')[0] || '(no answer)'}`);
    };

    for (const [origin, method, path] of writes) {
      // the client gives up half-way through its upload: nothing to answer, nothing may break
      await rawExchange(origin, [head(method, path, 'Content-Length: 5000\r\n'), '{"isEnabled": tr'], { abortAfterWrite: true });
      await rawExchange(origin, [head(method, path, 'Content-Length: 5000\r\n'), '{"requests": ['], { gapMs: 50, abortAfterWrite: true });
      expect(
        `${path} bad chunked`,
        await rawExchange(origin, [head(method, path, 'Transfer-Encoding: chunked\r\n'), 'zz\r\nabc\r\n0\r\n\r\n']),
        (s) => s === 400,
      );
      // a client library (undici here) must be able to read the 413, not meet a reset mid-upload
      const big = await request(`${origin}${path}`, {
        method: method as 'PUT',
        headers: { AccessKey: key, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: Buffer.alloc(3 * 1024 * 1024, 0x61),
      }).catch((e: Error) => e);
      if (big instanceof Error || big.statusCode !== 413) failures.push(`${path} oversize body: ${big instanceof Error ? big.message : big.statusCode}`);
      else await big.body.dump();
      expect(
        `${path} slow body`,
        await rawExchange(origin, [head(method, path, 'Content-Length: 2\r\n'), '{', '}'], { gapMs: 150 }),
        (s) => s >= 200 && s < 500,
      );
      expect(`${path} expect 100`, await rawExchange(origin, [head(method, path, 'Expect: 100-continue\r\nContent-Length: 2\r\n'), '{}']), (s) => s === 100);
      const deep = '['.repeat(1_900_000);
      const deepAnswer = await request(`${origin}${path}`, {
        method: method as 'PUT',
        headers: { AccessKey: key, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: deep,
      });
      if (deepAnswer.statusCode !== 400 && deepAnswer.statusCode !== 413) failures.push(`${path} deep JSON: ${deepAnswer.statusCode}`);
      await deepAnswer.body.dump();
    }
    for (const origin of [emu.info.baseUrl, emu.info.loggingUrl, emu.info.databaseUrl]) {
      // a request line and no more: the server must not wait for ever (nor crash); the test only waits a little
      await rawExchange(origin, ['GET /mc/limits HTTP/1.1\r\nHost: x\r\n'], { waitMs: 100 });
      expect(
        `${origin} huge header`,
        await rawExchange(origin, [`GET /mc/limits HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`]),
        (s) => s === 400 || s === 431,
      );
      expect(
        `${origin} absolute URL`,
        await rawExchange(origin, [`GET http://elsewhere/mc/limits HTTP/1.1\r\nHost: x\r\nAccessKey: ${key}\r\n\r\n`]),
        (s) => s > 0 && s < 500,
      );
      expect(`${origin} OPTIONS *`, await rawExchange(origin, ['OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n']), (s) => s > 0 && s < 500);
      expect(`${origin} garbage`, await rawExchange(origin, ['\x00\x01\x02 not http at all\r\n\r\n']), (s) => s === 400);
      await rawExchange(origin, ['CONNECT elsewhere:443 HTTP/1.1\r\nHost: x\r\n\r\n'], { waitMs: 300 });
      const pipelined = await rawExchange(
        origin,
        [`GET /mc/limits HTTP/1.1\r\nHost: x\r\nAccessKey: ${key}\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\nAccessKey: ${key}\r\n\r\n`],
        { responses: 2 },
      );
      if ((pipelined.match(/HTTP\/1\.1 \d{3}/g) ?? []).length !== 2) failures.push(`${origin} pipelined: ${pipelined.slice(0, 80)}`);
    }
    assert.deepEqual(failures, []);
    const limits = await request(`${emu.info.baseUrl}/mc/limits`, { headers: { AccessKey: key } });
    assert.equal(limits.statusCode, 200);
    await limits.body.dump();
    const sql = await request(`${emu.info.databaseUrl}/v2/pipeline`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: '{"requests":[{"type":"execute","stmt":{"sql":"SELECT 1"}}]}',
    });
    assert.equal(sql.statusCode, 200);
    await sql.body.dump();
  },
);
