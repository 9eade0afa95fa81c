import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowSegments } from '../../src/log-records/rows';
import { sliceSegments, wideStream } from '../../src/log-records/wide-stream';
import type { LogEntry } from '../../src/api/logs/entry';
import { logEntry } from '../helpers/log-entry';

const entry = (over: Partial<LogEntry>): LogEntry =>
  logEntry({
    timestamp: '2026-11-24T14:05:00.123Z',
    requestId: 'r1',
    cacheStatus: 'HIT',
    bytesSent: 512,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'FRA',
    scheme: 'https',
    host: 'a.example',
    path: '/',
    userAgent: 'curl/8',
    ...over,
  });

test('wide stream: every column, as wide as its longest shown cell; nothing cut; columns never shrink while shown', () => {
  const longPath = `/img/${'p'.repeat(150)}.jpg`;
  const a = wideStream([entry({ path: longPath }), entry({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' })], 'short', null);
  assert.deepEqual(
    a.layout.columns.map((c) => c.id),
    ['time', 'status', 'cache', 'path', 'bytes', 'country', 'edge', 'ip', 'ua'],
  );
  assert.equal(a.layout.columns.find((c) => c.id === 'path')!.width, longPath.length);
  const line = rowSegments(entry({ path: longPath }), a.layout)
    .map((s) => s.text)
    .join('');
  assert.ok(line.includes(longPath), 'the path whole');
  assert.equal(line.length, a.wide.total);
  const b = wideStream([entry({})], 'short', a);
  assert.equal(b, a, 'narrower rows keep the same layout (and its identity)');
  const c = wideStream([entry({})], 'off', a);
  assert.ok(!c.layout.columns.some((x) => x.id === 'time'), 'no time column when timestamps are hidden');
});

test('sliceSegments: the window of a line, segments cut at its edges with their tones', () => {
  const segs = [{ text: 'abcdef' }, { text: '200', tone: 'ok' as const }, { text: 'xyz' }];
  assert.deepEqual(sliceSegments(segs, 4, 4), [{ text: 'ef' }, { text: '20', tone: 'ok' }]);
  assert.deepEqual(sliceSegments(segs, 9, 10), [{ text: 'xyz' }]);
  assert.deepEqual(sliceSegments(segs, 0, 0), []);
});
