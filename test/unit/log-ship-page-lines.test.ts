import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageLines } from '../../src/log-ship/page-lines';
import { LOG_FIELDS } from '../../src/log-fields/fields';

const ZONE = 1058;

function record(i: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of LOG_FIELDS) out[f.name] = f.type === 'number' ? i : `${f.name}-${i}`;
  out.timestamp = new Date(Date.UTC(2026, 7, 8, 14, 32, 11, i % 1000)).toISOString();
  out.pullZoneId = ZONE;
  out.requestId = i.toString(16).padStart(32, '0');
  out.bodyBytesSent = null;
  return { ...out, ...over };
}

const page = (data: unknown[], hasMore = false) =>
  Buffer.from(
    JSON.stringify({
      data,
      pagination: { offset: 0, limit: 10000, returned: data.length, hasMore },
      query: { pullZoneId: ZONE, from: null, to: null, order: 'asc' },
    }),
  );

const lines = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test('a platform record keeps its bytes; only the timestamp is rewritten for each form', () => {
  const recs = [record(1), record(265)];
  const legacy = pageLines(page(recs, true), ZONE, 'legacy');
  assert.equal(legacy.count, 2);
  assert.equal(legacy.hasMore, true);
  assert.equal(legacy.returned, 2);
  assert.deepEqual(
    [...legacy.times],
    recs.map((r) => Date.parse(r.timestamp as string)),
  );
  assert.deepEqual(
    legacy.ids,
    recs.map((r) => r.requestId),
  );
  const [first, second] = lines(legacy.bytes);
  assert.equal(first!.timestamp, '2026-08-08 14:32:11');
  assert.equal(first!.timestampMs, 1);
  assert.equal(second!.timestampMs, 265);
  const rest = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'timestamp' && k !== 'timestampMs'));
  assert.deepEqual(rest(second!), rest(recs[1]!));
  // the bytes after the timestamp are the platform's, unchanged
  const raw = JSON.stringify(recs[1]);
  assert.ok(legacy.bytes.toString('utf8').includes(raw.slice(raw.indexOf(',"pullZoneId"'))));
  const current = lines(pageLines(page(recs), ZONE, 'current').bytes);
  assert.equal(current[1]!.timestamp, '2026-08-08 14:32:11.265');
  assert.equal('timestampMs' in current[1]!, false);
  assert.equal(lines.length > 0, true);
});

test('hostile values pass through byte for byte: quotes, backslashes, newlines, controls, 4-byte UTF-8, braces', () => {
  const ua = `q"uote \\back\\slash\nnew\r\u0000\u0001\u001f\u007f 😀𝄞 {"a":[1]} } ] , ${'x'.repeat(20_000)}`;
  const recs = [record(7, { userAgent: ua, referer: '}]},{' }), record(8)];
  const out = pageLines(page(recs), ZONE, 'legacy');
  assert.equal(out.count, 2);
  const [a, b] = lines(out.bytes);
  assert.equal(a!.userAgent, ua);
  assert.equal(a!.referer, '}]},{');
  assert.equal(b!.requestId, recs[1]!.requestId);
});

test('a record in another layout is parsed and written again: same values, fields in the table order, unknown ones dropped', () => {
  const odd = { ...record(3), timestamp: '2026-08-08T14:32:11Z', extra: 'x' };
  const reordered = Object.fromEntries(Object.entries(record(4)).reverse());
  const noId = { ...record(5), requestId: null };
  const spaced = Buffer.from(
    ` { "data" : [ ${JSON.stringify(odd)} , ${JSON.stringify(reordered)}, ${JSON.stringify(noId)} ], "pagination": {"offset":0,"limit":3,"returned":3,"hasMore":false} }`,
  );
  const out = pageLines(spaced, ZONE, 'current');
  assert.equal(out.count, 3);
  const [x, y, z] = lines(out.bytes);
  assert.equal(x!.timestamp, '2026-08-08 14:32:11.000');
  assert.equal('extra' in x!, false);
  assert.deepEqual(
    Object.keys(y!),
    LOG_FIELDS.map((f) => f.name),
  );
  assert.equal(y!.requestId, record(4).requestId);
  assert.equal(z!.requestId, '', 'no request id: empty (the sorting key takes no null)');
  assert.deepEqual(out.ids, [record(3).requestId, record(4).requestId, '']);
  assert.equal(out.times[0], Date.UTC(2026, 7, 8, 14, 32, 11));
});

test('an empty page, and bodies that are not pages', () => {
  const empty = pageLines(page([]), ZONE, 'legacy');
  assert.equal(empty.count, 0);
  assert.equal(empty.bytes.length, 0);
  assert.throws(() => pageLines(Buffer.from('<html>'), ZONE, 'legacy'), SyntaxError);
  assert.throws(() => pageLines(Buffer.from('{"data":[{"timestamp":"x"'), ZONE, 'legacy'), SyntaxError);
  assert.throws(() => pageLines(Buffer.from('{"data":[]}'), ZONE, 'legacy'), SyntaxError, 'no pagination');
});

test('records are cut at their boundaries only: a value holding the separator, a record in another layout between two', () => {
  const sneaky = record(9, { userAgent: '},{"timestamp":"2026-08-08T14:32:11.009Z","requestId":"x"}', path: '\\"},{"timestamp":"' });
  const reordered = Object.fromEntries(Object.entries(record(10)).reverse());
  const recs = [record(8), sneaky, reordered, record(11), { ...record(12), requestId: 'back\\slash"quote' }];
  const out = pageLines(page(recs), ZONE, 'legacy');
  assert.equal(out.count, recs.length);
  const back = lines(out.bytes);
  assert.deepEqual(
    back.map((l) => l.requestId),
    recs.map((r) => r.requestId),
  );
  assert.equal(back[1]!.userAgent, sneaky.userAgent);
  assert.equal(back[1]!.path, sneaky.path);
  assert.deepEqual(
    [...out.ids],
    recs.map((r) => r.requestId),
  );
  assert.equal(out.idAt(4), 'back\\slash"quote', 'an escaped id is read as JSON');
});
