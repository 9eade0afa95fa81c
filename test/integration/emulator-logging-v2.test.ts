import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { configureLoggingRateLimit, generatedLogRecords, loggingStats } from '../../src/emulator/logging/index';
import { MAX_CACHED_RECORDS } from '../../src/emulator/logging/traffic';

// A fixed, movable clock: visibility and retention are exact.
const T0 = Date.UTC(2026, 7, 8, 14, 0, 0);
let now = T0;
const emu = await useEmulator({ seed: 7, now: () => now, logRate: 1, ingestDelayMs: 20_000 });
configureLoggingRateLimit(emu.world, { limit: 1_000_000, windowMs: 10_000 });
const [ZONE] = emu.info.pullZoneIds as [number];
const MIN = 60_000;
const H = 60 * MIN;
const D = 24 * H;
const iso = (t: number) => new Date(t).toISOString();

type Rec = Record<string, unknown> & { requestId: string; timestamp: string };
interface Answer {
  status: number;
  body: { data?: Rec[]; pagination?: Record<string, unknown>; query?: Record<string, unknown>; error?: { code: string; message: string; details?: string[] } };
}

async function get(path: string, params: Record<string, string> = {}, headers: Record<string, string> = { AccessKey: emu.info.accessKey }): Promise<Answer> {
  const qs = new URLSearchParams(params).toString();
  const res = await request(`${emu.info.loggingUrl}${path}${qs ? `?${qs}` : ''}`, { headers });
  return { status: res.statusCode, body: (await res.body.json()) as Answer['body'] };
}

const logs = (params: Record<string, string> = {}, zone = ZONE) => get(`/v2/pullzones/${zone}/logs`, params);

/** Everything the generator wrote in [from, to) (visible, since to <= now - max delay). */
const WINDOW = { from: T0 - H, to: T0 - 2 * MIN };
const all = generatedLogRecords(emu.world, ZONE, WINDOW.from, WINDOW.to) as Rec[];
const windowParams = { from: iso(WINDOW.from), to: iso(WINDOW.to), limit: '10000', order: 'asc' };

async function ids(params: Record<string, string>): Promise<string[]> {
  const a = await logs({ ...windowParams, ...params });
  assert.equal(a.status, 200, JSON.stringify(a.body));
  assert.equal(a.body.pagination!.hasMore, false);
  return a.body.data!.map((r) => r.requestId);
}
const expected = (pred: (r: Rec) => boolean) => all.filter(pred).map((r) => r.requestId);

/** Compares id lists with a short message (the lists are long). */
function sameIds(actual: string[], wanted: string[], what = ''): void {
  if (actual.length === wanted.length && actual.every((id, i) => id === wanted[i])) return;
  const missing = wanted.filter((id) => !actual.includes(id)).length;
  const extra = actual.filter((id) => !wanted.includes(id)).length;
  assert.fail(
    `${what} got ${actual.length} ids, expected ${wanted.length} (${missing} missing, ${extra} unexpected${missing + extra === 0 ? ', order differs' : ''})`,
  );
}

test('the generator writes realistic traffic: every cache status, IPv4 and IPv6, many countries and edges, errors', () => {
  assert.ok(all.length > 1000, `records in 1 h: ${all.length}`);
  const set = (k: string) => new Set(all.map((r) => r[k]));
  assert.deepEqual([...set('cacheStatus')].sort(), ['-', 'BYPASS', 'HIT', 'MISS', 'REVALIDATED', 'STALE', 'UPDATING']);
  assert.ok(set('countryCode').size >= 15);
  assert.ok(set('edgeLocation').size >= 10);
  assert.ok(all.some((r) => String(r.remoteIp).includes(':')) && all.some((r) => /^\d+\.\d+\.\d+\.\d+$/.test(String(r.remoteIp))));
  assert.ok(all.some((r) => Number(r.statusCode) >= 500) && all.some((r) => Number(r.statusCode) === 404));
  assert.ok(
    all.some((r) => String(r.path).includes('?')),
    'paths with query strings',
  );
  assert.ok(all.some((r) => r.referer === null) && all.some((r) => r.userAgent === null));
  assert.ok(all.every((r) => /^[0-9a-f]{32}$/.test(r.requestId)));
  assert.equal(new Set(all.map((r) => r.requestId)).size, all.length, 'request ids are unique');
  // Asking again (regenerating or from memory) gives the same records.
  const again = generatedLogRecords(emu.world, ZONE, WINDOW.from, WINDOW.from + 10 * MIN) as Rec[];
  assert.equal(JSON.stringify(again), JSON.stringify(all.filter((r) => Date.parse(r.timestamp) < WINDOW.from + 10 * MIN)));
});

test('defaults: last 24 h, newest first, 100 records, the exact envelope', async () => {
  const a = await logs();
  assert.equal(a.status, 200);
  assert.deepEqual(Object.keys(a.body).sort(), ['data', 'pagination', 'query']);
  assert.deepEqual(a.body.query, { pullZoneId: ZONE, from: iso(T0 - D), to: iso(T0), order: 'desc' });
  assert.deepEqual(a.body.pagination, { offset: 0, limit: 100, returned: 100, hasMore: true });
  const times = a.body.data!.map((r) => Date.parse(r.timestamp));
  assert.deepEqual(
    times,
    [...times].sort((x, y) => y - x),
  );
  assert.ok(times.every((t) => t < T0));
  const r = a.body.data![0]!;
  assert.equal(r.url, `${r.scheme}://${r.host}${r.path}`);
  assert.equal(r.pullZoneId, ZONE);
});

test('a window returns exactly what was generated in it, oldest first with order=asc', async () => {
  assert.ok(all.length > 1000 && all.length < 10_000, `records in the window: ${all.length}`);
  const a = await logs(windowParams);
  assert.equal(a.body.pagination!.hasMore, false);
  sameIds(
    a.body.data!.map((r) => r.requestId),
    all.map((r) => r.requestId),
  );
  assert.ok(
    a.body.data!.every((r, i) => JSON.stringify(r) === JSON.stringify(all[i])),
    'every field as generated',
  );
  const desc = await logs({ ...windowParams, order: 'desc' });
  sameIds(
    desc.body.data!.map((r) => r.requestId),
    [...all].reverse().map((r) => r.requestId),
  );
});

test('ingestion delay: recent records appear late, after newer ones', async () => {
  const from = T0 - 90_000;
  const generated = generatedLogRecords(emu.world, ZONE, from, T0) as Rec[];
  const before = (await logs({ from: iso(from), limit: '10000' })).body.data!.map((r) => r.requestId);
  assert.ok(before.length < generated.length, 'some records are not visible yet');
  const firstMissing = generated.findIndex((g) => !before.includes(g.requestId));
  const newerVisible = generated.slice(firstMissing + 1).some((g) => before.includes(g.requestId));
  assert.ok(newerVisible, 'a newer record is visible while an older one is not');
  now = T0 + 61_000; // past the largest delay (quiet zones lag 3 x 20 s)
  try {
    const after = (await logs({ from: iso(from), to: iso(T0), limit: '10000' })).body.data!.map((r) => r.requestId);
    assert.deepEqual(new Set(after), new Set(generated.map((g) => g.requestId)));
    assert.ok(before.every((id) => after.includes(id)));
  } finally {
    now = T0;
  }
});

test('filters: status codes and classes ORed', async () => {
  sameIds(
    await ids({ status: '5xx,404' }),
    expected((r) => Number(r.statusCode) >= 500 || r.statusCode === 404),
  );
  sameIds(
    await ids({ status: '200' }),
    expected((r) => r.statusCode === 200),
  );
});

test('filters: cacheStatus (exact, comma list, - included)', async () => {
  const got = await ids({ cacheStatus: 'MISS,-' });
  assert.ok(got.length > 0);
  sameIds(
    got,
    expected((r) => r.cacheStatus === 'MISS' || r.cacheStatus === '-'),
  );
});

test('filters: country, edgeLocation, remoteIp (IPv4 and IPv6)', async () => {
  sameIds(
    await ids({ country: 'DE,fr' }),
    expected((r) => r.countryCode === 'DE' || r.countryCode === 'FR'),
  );
  sameIds(
    await ids({ edgeLocation: 'WA' }),
    expected((r) => r.edgeLocation === 'WA'),
  );
  const v4 = String(all.find((r) => !String(r.remoteIp).includes(':'))!.remoteIp);
  const v6 = String(all.find((r) => String(r.remoteIp).includes(':'))!.remoteIp);
  sameIds(
    await ids({ remoteIp: v4 }),
    expected((r) => r.remoteIp === v4),
  );
  sameIds(
    await ids({ remoteIp: v6.toUpperCase() }),
    expected((r) => r.remoteIp === v6),
  );
});

test('filters: url/user agent/referer contain (case-insensitive; url = host + path)', async () => {
  const host = String(all[0]!.host);
  const needle = `${host.slice(-4)}/img`.toUpperCase();
  const url = await ids({ urlContains: needle });
  assert.ok(url.length > 0);
  sameIds(
    url,
    expected((r) => `${r.host}${r.path}`.toLowerCase().includes(needle.toLowerCase())),
  );
  sameIds(
    await ids({ urlContains: 'https' }),
    expected((r) => `${r.host}${r.path}`.includes('https')),
  );
  sameIds(
    await ids({ userAgentContains: 'cUrL' }),
    expected((r) =>
      String(r.userAgent ?? '')
        .toLowerCase()
        .includes('curl'),
    ),
  );
  sameIds(
    await ids({ refererContains: 'GOOGLE' }),
    expected((r) =>
      String(r.referer ?? '')
        .toLowerCase()
        .includes('google'),
    ),
  );
});

test('filters: search matches ANY token in ANY searched field, never the IP or country', async () => {
  const fields = ['cacheStatus', 'requestId', 'edgeLocation', 'host', 'path', 'userAgent', 'referer', 'contentRange'];
  const hit = (r: Rec, tokens: string[]) =>
    tokens.some((t) =>
      fields.some((f) =>
        String(r[f] ?? '')
          .toLowerCase()
          .includes(t.toLowerCase()),
      ),
    );
  const tokens = ['jnb', 'wp-login', 'Firefox'];
  const got = await ids({ search: tokens.join(' ') });
  assert.ok(got.length > 0);
  sameIds(
    got,
    expected((r) => hit(r, tokens)),
  );
  const ip = String(all[0]!.remoteIp);
  sameIds(
    await ids({ search: ip }),
    expected((r) => hit(r, [ip])),
    'the IP is not searched',
  );
});

test('filters: requestId fetches one entry; filters are ANDed', async () => {
  const one = all[Math.floor(all.length / 2)]!;
  sameIds(await ids({ requestId: one.requestId }), [one.requestId]);
  sameIds(
    await ids({ status: '2xx', country: 'US', cacheStatus: 'HIT' }),
    expected((r) => Number(r.statusCode) < 300 && r.countryCode === 'US' && r.cacheStatus === 'HIT'),
  );
});

test('includeOriginShield adds the origin-shield records (default false)', async () => {
  const withShield = generatedLogRecords(emu.world, ZONE, WINDOW.from, WINDOW.to, true) as Rec[];
  assert.ok(withShield.length > all.length);
  sameIds(
    await ids({ includeOriginShield: 'true' }),
    withShield.map((r) => r.requestId),
  );
  sameIds(
    await ids({ includeOriginShield: 'false' }),
    all.map((r) => r.requestId),
  );
});

test('paging: offset/limit while hasMore reads every record once', async () => {
  const seen: string[] = [];
  let offset = 0;
  for (;;) {
    const a = await logs({ ...windowParams, limit: '250', offset: String(offset) });
    const p = a.body.pagination!;
    assert.equal(p.offset, offset);
    assert.equal(p.limit, 250);
    assert.equal(p.returned, a.body.data!.length);
    seen.push(...a.body.data!.map((r) => r.requestId));
    offset += Number(p.returned);
    if (!p.hasMore) break;
    assert.equal(p.returned, 250);
  }
  sameIds(
    seen,
    all.map((r) => r.requestId),
  );
  const past = await logs({ ...windowParams, offset: String(all.length + 5) });
  assert.deepEqual(past.body.pagination, { offset: all.length + 5, limit: 10_000, returned: 0, hasMore: false });
  const capped = await logs({ ...windowParams, limit: '50000' });
  assert.equal(capped.body.pagination!.limit, 10_000, 'limit is capped at 10000');
});

test('bad parameters: 400 invalid_request with per-parameter details', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ from: iso(T0 - 3 * D - 5 * MIN) }, /from: must be within the last 3 days/],
    [{ from: iso(T0 - 2 * D), to: iso(T0 + 2 * D) }, /at most 3 days/],
    [{ from: iso(T0 - H), to: iso(T0 - 2 * H) }, /from: must be before to/],
    [{ from: 'yesterday' }, /not an ISO 8601 date-time/],
    [{ limit: '0' }, /limit: must be at least 1/],
    [{ limit: 'ten' }, /limit: "ten" is not an integer/],
    [{ offset: '-1' }, /offset: must be at least 0/],
    [{ order: 'sideways' }, /order: "sideways" must be asc or desc/],
    [{ status: '5xz' }, /status: "5xz" is not a status code/],
    [{ country: 'DEU' }, /country: "DEU" is not an ISO 3166 alpha-2 code/],
    [{ remoteIp: '1.2.3' }, /remoteIp/],
    [{ includeOriginShield: 'maybe' }, /includeOriginShield/],
    [{ search: Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ') }, /at most 16 tokens/],
    [{ search: 'x'.repeat(129) }, /at most 128 characters/],
  ];
  for (const [params, re] of cases) {
    const a = await logs(params);
    assert.equal(a.status, 400, JSON.stringify(params));
    assert.equal(a.body.error!.code, 'invalid_request');
    assert.ok(
      a.body.error!.details!.some((d) => re.test(d)),
      `${JSON.stringify(params)}: ${JSON.stringify(a.body.error)}`,
    );
  }
  assert.equal((await logs({ search: Array.from({ length: 16 }, (_, i) => `t${i}`).join(' ') })).status, 200);
  assert.equal((await logs({ search: 'x'.repeat(128) })).status, 200);
  assert.equal((await get('/v2/pullzones/abc/logs')).status, 400);
});

test('retention: nothing older than 3 days, ever; memory stays bounded', async () => {
  const a = await logs({ from: iso(T0 - 3 * D + 1000), order: 'asc', limit: '5' });
  assert.equal(a.status, 200);
  assert.ok(a.body.data!.length > 0, 'a sparse tail reaches back 3 days');
  assert.ok(Date.parse(a.body.data![0]!.timestamp) < T0 - 3 * D + 2 * H, 'the tail goes back nearly 3 days');
  now = T0 + D;
  try {
    const later = await logs({ from: iso(T0 - 2 * D + 1000), order: 'asc', limit: '10000' });
    assert.equal(later.status, 200);
    assert.ok(later.body.data!.every((r) => Date.parse(r.timestamp) >= now - 3 * D));
    const old = await logs({ from: iso(T0 - 3 * D + 1000), to: iso(T0 - 2 * D) });
    assert.equal(old.status, 400, 'a window before retention is refused');
  } finally {
    now = T0;
  }
  assert.ok(loggingStats(emu.world).cachedRecords <= MAX_CACHED_RECORDS);
});

test('zones: logging disabled 404, unknown 403, suspended or disabled 403', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  const a = await logs({}, off.Id);
  assert.equal(a.status, 404);
  assert.equal(a.body.error!.code, 'logging_disabled');
  const unknown = await logs({}, 424242);
  assert.equal(unknown.status, 403);
  assert.equal(unknown.body.error!.code, 'forbidden');
  const zone = emu.world.pullZones.find((z) => z.Id === ZONE)!;
  zone.Suspended = true;
  try {
    const s = await logs();
    assert.equal(s.status, 403);
    assert.match(s.body.error!.message, /suspended/);
  } finally {
    zone.Suspended = false;
  }
  zone.Enabled = false;
  try {
    assert.equal((await logs()).status, 403);
  } finally {
    zone.Enabled = true;
  }
});

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (payload: Record<string, unknown>) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.${Buffer.from('sig').toString('base64url')}`;

test('auth: AccessKey or an unexpired bearer JWT; none 401, bad 403', async () => {
  const path = `/v2/pullzones/${ZONE}/logs`;
  const none = await get(path, {}, {});
  assert.equal(none.status, 401);
  assert.equal(none.body.error!.code, 'unauthorized');
  const wrong = await get(path, {}, { AccessKey: 'not-the-key' });
  assert.equal(wrong.status, 403);
  assert.equal(wrong.body.error!.code, 'forbidden');
  const valid = await get(path, {}, { Authorization: `Bearer ${jwt({ sub: 'u', exp: Math.floor(now / 1000) + 600 })}` });
  assert.equal(valid.status, 200);
  const noExp = await get(path, {}, { Authorization: `Bearer ${jwt({ sub: 'u' })}` });
  assert.equal(noExp.status, 200);
  for (const bad of [`Bearer ${jwt({ exp: Math.floor(now / 1000) - 1 })}`, 'Bearer abc.def', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz']) {
    const r = await get(path, {}, { Authorization: bad });
    assert.equal(r.status, 403, bad);
    assert.equal(r.body.error!.code, 'forbidden');
  }
});
