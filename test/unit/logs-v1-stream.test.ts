import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { LogPageReader } from '../../src/log-engine/page-reader';
import { V1PieceCutter, V1PieceReader } from '../../src/api/logs/v1-stream';
import { formatV1Line, parseV1 } from '../../src/api/logs/v1';
import type { LogEntry } from '../../src/api/logs/entry';

// A v1 file cut into pieces at line ends and read piece by piece gives what reading it whole gives:
// the same records in order, the same counts, bad lines numbered as in the file.

function entry(i: number): LogEntry {
  return {
    timestamp: new Date(Date.UTC(2026, 2, 1) + i * 997).toISOString(),
    pullZoneId: 77,
    requestId: i.toString(16).padStart(32, 'a'),
    cacheStatus: i % 3 ? 'HIT' : 'MISS',
    statusCode: i % 11 ? 200 : 503,
    bytesSent: 100 + i,
    remoteIp: `10.0.${i % 250}.${i % 7}`,
    countryCode: i % 2 ? 'DE' : 'FR',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'cdn.example',
    path: `/p/${i}?q=ä${i % 5}`,
    url: `https://cdn.example/p/${i}?q=ä${i % 5}`,
    userAgent: i % 4 ? 'curl/8|pipe' : 'Mozilla/5.0',
    referer: null,
    bodyBytesSent: null,
    contentRange: null,
    authorizationHeader: null,
    ja4Fingerprint: null,
    asn: null,
    asnOrganization: null,
  };
}

const lines: string[] = [];
for (let i = 0; i < 3000; i++) {
  lines.push(formatV1Line(entry(i)));
  if (i % 700 === 5) lines.push('HIT|2x0|broken');
  if (i % 900 === 1) lines.push('');
}
const text = `\ufeff${lines.join('\r\n')}`;
const bytes = Buffer.from(text, 'utf8');
const whole = parseV1(text, 77);
const reader = new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY });
after(() => reader.close());

test('the cutter cuts only after a line end and loses no byte', () => {
  const cutter = new V1PieceCutter(1000);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 333) out.push(...cutter.push(bytes.subarray(at, at + 333)));
  const last = cutter.end();
  assert.ok(out.length > 10);
  for (const piece of out) assert.equal(piece[piece.length - 1], 10, 'each piece ends with LF');
  assert.ok(last && last[last.length - 1] !== 10, 'the file has no final line end');
  assert.deepEqual(Buffer.concat([...out, last]), bytes);
});

test("pieces read in order give the whole file's records, counts and problem line numbers", async () => {
  for (const chunk of [97, 4096, 70_000]) {
    const got: LogEntry[] = [];
    const pieces = new V1PieceReader(
      reader,
      77,
      (piece) => {
        got.push(...piece.batch.entries());
      },
      2048,
    );
    for (let at = 0; at < bytes.length; at += chunk) await pieces.push(bytes.subarray(at, at + chunk));
    const done = await pieces.finish();
    assert.equal(done.bytes, bytes.length);
    assert.equal(done.lines, whole.lines);
    assert.equal(done.skipped, whole.skipped);
    assert.ok(whole.skipped >= 4);
    assert.deepEqual(done.problems, whole.problems, `chunks of ${chunk}`);
    assert.deepEqual(got, whole.entries);
  }
});
