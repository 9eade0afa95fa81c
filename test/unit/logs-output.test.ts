import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { textLine } from '../../src/commands/logs';
import { OrderedRelease } from '../../src/log-engine/release';
import type { LogEntry } from '../../src/api/logs/entry';
import { logEntry } from '../helpers/log-entry';

function rec(over: Partial<LogEntry> = {}): LogEntry {
  return logEntry({
    timestamp: '2026-08-08T14:32:11.265Z',
    requestId: '648fd832dbc1b102134949e15a9fdb2d',
    cacheStatus: 'HIT',
    bytesSent: 412,
    remoteIp: '163.172.53.229',
    countryCode: 'DE',
    edgeLocation: 'WA',
    scheme: 'https',
    host: 'cdn.example.com',
    path: '/a.jpg',
    url: 'https://cdn.example.com/a.jpg',
    userAgent: 'curl/8',
    ...over,
  });
}

test('text line: fixed columns', () => {
  assert.equal(textLine(rec(), false), '2026-08-08T14:32:11.265Z 200 HIT               412 DE WA   163.172.53.229  https://cdn.example.com/a.jpg "curl/8"');
  assert.equal(textLine(rec({ cacheStatus: 'REVALIDATED', countryCode: null, userAgent: null }), false).slice(25, 60), '200 REVALIDATED       412 -- WA   1');
});

test('text line: control characters from hostile fields never reach the terminal', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (ua, path) => {
      const line = textLine(rec({ userAgent: ua, url: `https://h${path}` }), false);
      assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f]/);
    }),
  );
  assert.match(textLine(rec({ userAgent: 'evil\u001b]52;c;aGk=\u0007\r\nFAKE' }), false), /"evil\\x1b\]52;c;aGk=\\x07\\x0d\\x0aFAKE"$/);
});

test('ordered release: out-of-order input comes out in order once the watermark passes', () => {
  const out: string[] = [];
  const r = new OrderedRelease((e) => out.push(e.requestId!));
  const e = (id: string) => rec({ requestId: id });
  r.add([e('c'), e('a')], [30, 10]);
  r.release(20);
  assert.deepEqual(out, ['a']);
  r.add([e('b'), e('d')], [25, 40]);
  assert.equal(r.pending, 3);
  r.release(35);
  assert.deepEqual(out, ['a', 'b', 'c']);
  // Older than what was already released: out at once, counted.
  r.add([e('late')], [5]);
  assert.deepEqual(out, ['a', 'b', 'c', 'late']);
  assert.equal(r.stragglers, 1);
  r.release(null);
  assert.equal(r.pending, 1);
  r.flush();
  assert.deepEqual(out, ['a', 'b', 'c', 'late', 'd']);
});

test('ordered release: any arrival order gives sorted output when released at the end', () => {
  fc.assert(
    fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 20 }), { maxLength: 20 }), (batches) => {
      const out: number[] = [];
      const r = new OrderedRelease((_, t) => out.push(t));
      for (const b of batches)
        r.add(
          b.map(() => rec()),
          b,
        );
      r.flush();
      assert.deepEqual(
        out,
        batches.flat().sort((a, b) => a - b),
      );
    }),
  );
});
