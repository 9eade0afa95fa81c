import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogEntry } from '../../src/api/logs/entry';
import { compilePattern } from '../../src/log-records/filter';
import { MarkSet } from '../../src/log-records/marks';
import { LogsViewModel } from '../../src/state/logs/view-model';
import { LogMarks, timeTarget } from '../../src/state/logs/marks';
import { setDisplayZone } from '../../src/text/time-format';
import { logEntry } from '../helpers/log-entry';

setDisplayZone('utc');

const BASE = Date.UTC(2026, 10, 24, 14, 0, 0);
function record(i: number, t = BASE + i * 1000): LogEntry {
  return logEntry({
    timestamp: new Date(t).toISOString(),
    requestId: i.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    statusCode: i % 2 ? 503 : 200,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'a.example',
    path: `/p/${i}`,
    userAgent: 'ua',
  });
}
const timeOf = (i: number) => BASE + i * 1000;

function model(capacity: number, from: number, to: number): LogsViewModel {
  const m = new LogsViewModel(capacity);
  const ids = Array.from({ length: to - from }, (_, k) => from + k);
  m.load(
    ids.map((i) => record(i)),
    ids.map(timeOf),
  );
  return m;
}
const pathAt = (m: LogsViewModel, pos: number) => m.entryAt(pos)?.path;

test('MarkSet: toggles by record identity, lists by time, goes around in both directions', () => {
  const set = new MarkSet();
  assert.equal(set.toggle(record(5), timeOf(5)), true);
  assert.equal(set.toggle(record(2), timeOf(2)), true);
  assert.equal(set.toggle(record(8), timeOf(8)), true);
  // a copy of the record (as a restarted follow reads it again) is the same record
  assert.equal(set.has({ ...record(5) }), true);
  assert.deepEqual(
    set.list().map((m) => m.path),
    ['/p/2', '/p/5', '/p/8'],
  );
  const next = (at: number, dir: 1 | -1, self: boolean) =>
    set.around(timeOf(at), self ? record(at).requestId : null, dir).map((x) => `${x.mark.path}${x.wrapped ? '*' : ''}`);
  assert.deepEqual(next(5, 1, true), ['/p/8', '/p/2*']);
  assert.deepEqual(next(8, 1, true), ['/p/2*', '/p/5*']);
  assert.deepEqual(next(5, -1, true), ['/p/2', '/p/8*']);
  assert.deepEqual(next(6, 1, false), ['/p/8', '/p/2*', '/p/5*']);
  assert.deepEqual(next(6, -1, false), ['/p/5', '/p/2', '/p/8*']);
  assert.equal(set.toggle(record(5), timeOf(5)), false, 'a second m unmarks');
  assert.deepEqual(
    set.list().map((m) => m.path),
    ['/p/2', '/p/8'],
  );
  assert.equal(set.clear(), 2);
  assert.equal(set.size, 0);
});

test('LogMarks: found again after a local filter and after the store is rebuilt (new sequence numbers); evicted marks say so', () => {
  const m = model(1000, 0, 20);
  const marks = new LogMarks(m);
  marks.set.toggle(m.entryAt(3)!, m.timeAt(3));
  marks.set.toggle(m.entryAt(9)!, m.timeAt(9));
  marks.set.toggle(m.entryAt(15)!, m.timeAt(15));

  let t = marks.target(3, 1);
  assert.ok('pos' in t && pathAt(m, t.pos) === '/p/9');
  t = marks.target(15, 1);
  assert.ok('pos' in t && pathAt(m, t.pos) === '/p/3' && t.wrapped, 'goes around to the first');
  t = marks.target(3, -1);
  assert.ok('pos' in t && pathAt(m, t.pos) === '/p/15' && t.wrapped);

  // a local filter: only odd records (503) are rows; /p/3, /p/9 and /p/15 are odd
  const p = compilePattern('503');
  assert.ok(p.ok);
  m.setPattern(p);
  t = marks.target(0, 1);
  assert.ok('pos' in t && pathAt(m, t.pos) === '/p/3', "positions are the filtered view's");
  assert.equal(m.total, 10);

  // a new query: the store starts over, the same records come again with new sequence numbers
  m.setPattern(null);
  m.reset();
  m.load(
    [10, 11, 12, 13, 14, 15, 16].map((i) => record(i)),
    [10, 11, 12, 13, 14, 15, 16].map(timeOf),
  );
  t = marks.target(0, 1);
  assert.ok('pos' in t && pathAt(m, t.pos) === '/p/15', 'the mark is found in the new store');
  assert.deepEqual(
    marks.rows().map((r) => `${r.path} ${r.state}`),
    ['/p/3 not held', '/p/9 not held', '/p/15 held'],
  );

  // a full store lets the oldest go: that mark is evicted
  const small = model(1000, 0, 1000);
  const ms = new LogMarks(small);
  ms.set.toggle(small.entryAt(0)!, small.timeAt(0));
  ms.set.toggle(small.entryAt(500)!, small.timeAt(500));
  small.load(
    [1000, 1001].map((i) => record(i)),
    [1000, 1001].map(timeOf),
  );
  assert.deepEqual(
    ms.rows().map((r) => `${r.path} ${r.state}`),
    ['/p/0 evicted', '/p/500 held'],
  );
  assert.equal(pathAt(small, 498), '/p/500');
  const only = ms.target(498, 1);
  assert.ok('message' in only && /1 mark besides this one are evicted or hidden/.test(only.message), JSON.stringify(only));
});

test('LogMarks: an export of the marks writes exactly the marked records still held, oldest first', () => {
  const m = model(1000, 0, 50);
  const marks = new LogMarks(m);
  for (const i of [40, 7, 22]) marks.set.toggle(m.entryAt(i)!, m.timeAt(i));
  const snap = marks.exportRecords();
  assert.equal(snap.count, 3);
  assert.deepEqual(
    [...snap.records()].map((e) => e.path),
    ['/p/7', '/p/22', '/p/40'],
  );
  assert.equal(snap.missed, 0);
});

test('time jump: the first record at or after the time; outside the records held, the nearest with the range said', () => {
  const m = model(1000, 0, 600); // 14:00:00 .. 14:09:59, one a second
  let r = timeTarget(m, Date.UTC(2026, 10, 24, 14, 5, 0));
  assert.ok('pos' in r && pathAt(m, r.pos) === '/p/300');
  r = timeTarget(m, Date.UTC(2026, 10, 24, 14, 5, 0, 1));
  assert.ok('pos' in r && pathAt(m, r.pos) === '/p/301', 'at or after');
  r = timeTarget(m, Date.UTC(2026, 10, 24, 13, 0, 0));
  assert.ok('nearest' in r && pathAt(m, r.nearest) === '/p/0');
  assert.match(r.message, /2026-11-24 13:00:00 is before the oldest record held, 2026-11-24 14:00:00 \(newest 2026-11-24 14:09:59\): enter again goes to it/);
  r = timeTarget(m, Date.UTC(2026, 10, 24, 15, 0, 0));
  assert.ok('nearest' in r && pathAt(m, r.nearest) === '/p/599');
  assert.match(r.message, /is after the newest record held, 2026-11-24 14:09:59/);
  // with a local filter, among the rows shown
  const p = compilePattern('503');
  assert.ok(p.ok);
  m.setPattern(p);
  r = timeTarget(m, Date.UTC(2026, 10, 24, 14, 5, 0));
  assert.ok('pos' in r && pathAt(m, r.pos) === '/p/301');
  assert.deepEqual(timeTarget(new LogsViewModel(1000), BASE), { message: 'no records to jump in yet' });
});

test('MarkSet: a mark belongs to the zone it was made on; other zones neither see, count nor clear it', () => {
  const set = new MarkSet();
  const a = { ...record(1), pullZoneId: 1058 };
  const b = { ...record(2), pullZoneId: 1199 };
  set.toggle(a, timeOf(1));
  set.toggle(b, timeOf(2));
  set.setZones([1199]);
  assert.equal(set.size, 1);
  assert.deepEqual(
    set.list().map((m) => m.zone),
    [1199],
  );
  assert.equal(set.has(a), false);
  assert.equal(set.clear(), 1, 'only the marks of the zones shown are cleared');
  set.setZones([1058]);
  assert.equal(set.size, 1, 'the other zone keeps its mark');
  assert.equal(set.has(a), true);
  set.setZones([1058, 1199]);
  assert.equal(set.total, 1);
});
