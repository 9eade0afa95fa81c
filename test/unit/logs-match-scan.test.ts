import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LogEntry } from '../../src/api/logs/entry';
import { columnTest, compilePattern, locate, MatchIndex, recordTest } from '../../src/log-records/filter';
import { MatchScan } from '../../src/state/logs/match-scan';
import { LogsViewModel } from '../../src/state/logs/view-model';
import { LogBuffer } from '../../src/log-engine/buffer';
import { until } from '../helpers/wait';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12, 0, 0);
let seq = 0;
function rec(t: number, statusCode: number): LogEntry {
  seq++;
  return logEntry({
    timestamp: new Date(t).toISOString(),
    requestId: seq.toString(16).padStart(32, '0'),
    cacheStatus: 'HIT',
    statusCode,
    remoteIp: '10.0.0.1',
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'a.example',
    path: `/p/${seq}`,
    userAgent: 'curl/8.0',
  });
}

function pattern(source: string) {
  const p = compilePattern(source);
  assert.ok(p.ok);
  return p;
}

const seqs = (index: MatchIndex, from = 0, to = index.length) => Array.from({ length: to - from }, (_, i) => index.seq(from + i));

test('a pattern scanned in slices from any start, with records arriving and evicted meanwhile: the final part is always a gapless run of the true matches, and the end equals a full scan', () => {
  const test5xx = recordTest(pattern('^5'));
  const record = fc.record({ dt: fc.integer({ min: 0, max: 40 }), status: fc.constantFrom(200, 200, 500, 503) });
  const op = fc.oneof(
    fc.record({ kind: fc.constant('newer' as const), n: fc.integer({ min: 1, max: 7 }) }),
    fc.record({ kind: fc.constant('older' as const), n: fc.integer({ min: 1, max: 7 }) }),
    fc.record({
      kind: fc.constant('fill' as const),
      at: fc.integer({ min: 0, max: 40 }),
      dir: fc.constantFrom(1 as const, -1 as const),
      want: fc.integer({ min: 1, max: 5 }),
    }),
    fc.record({ kind: fc.constant('arrive' as const), batch: fc.array(record, { maxLength: 8 }) }),
  );
  fc.assert(
    fc.property(
      fc.integer({ min: 3, max: 40 }),
      fc.array(record, { maxLength: 50 }),
      fc.option(fc.integer({ min: 0, max: 40 })),
      fc.array(op, { maxLength: 25 }),
      (capacity, initial, start, ops) => {
        const buffer = new LogBuffer(capacity);
        buffer.insert(initial.map((r) => rec(BASE + r.dt * 1000, r.status)));
        const index = new MatchIndex(columnTest(pattern('^5'), buffer.columns));
        const scan = new MatchScan(buffer, index, start === null ? null : BASE + start * 1000, 3);
        buffer.onEvicted((slot, t) => index.remove(buffer.columns.seq(slot), t));
        buffer.onAdded((slots) => index.add(slots, buffer.columns));
        const check = () => {
          const want = buffer.toArray().flatMap((e, i) => (test5xx(e) ? [buffer.seqAt(i)] : []));
          const all = seqs(index);
          // nothing the buffer does not hold, in the buffer's order
          let w = 0;
          for (const e of all) {
            while (w < want.length && want[w] !== e) w++;
            assert.ok(w < want.length, 'every match held is a true match, in order');
          }
          const { from, to } = scan.region();
          if (from < to) {
            const part = seqs(index, from, to);
            const at = want.indexOf(part[0]!);
            assert.deepEqual(part, want.slice(at, at + part.length), 'the final part has no gaps');
          }
          return want;
        };
        for (const o of ops) {
          if (o.kind === 'newer') scan.newer(o.n);
          else if (o.kind === 'older') scan.older(o.n);
          else if (o.kind === 'fill') scan.fill(BASE + o.at * 1000, o.dir, o.want, 1000);
          else buffer.insert(o.batch.map((r) => rec(BASE + r.dt * 1000, r.status)));
          check();
        }
        scan.finish();
        assert.equal(scan.done, true);
        const want = check();
        assert.deepEqual(seqs(index), want);
        assert.deepEqual(scan.region(), { from: 0, to: index.length });
        for (let i = 0; i < index.length; i++) assert.equal(buffer.seqAt(locate(buffer, index.seq(i), index.time(i))), index.seq(i));
      },
    ),
    { numRuns: 300 },
  );
});

/** 20,000 records 10 ms apart; every 7th is a 503. */
function bigModel(): { model: LogsViewModel; all: LogEntry[]; times: number[] } {
  const model = new LogsViewModel(20_000);
  const all: LogEntry[] = [];
  const times: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t = BASE + i * 10;
    all.push(rec(t, i % 7 === 3 ? 503 : 200));
    times.push(t);
  }
  model.load(all, times);
  return { model, all, times };
}

test('view model: a new pattern over a big buffer counts in slices; the window around the record on screen is right at once, n finds the true next match before the count ends', async () => {
  const { model, all, times } = bigModel();
  const truth = all.filter((e) => e.statusCode === 503);
  const at = 12_345;
  model.setMode('filter');
  model.setPattern(pattern('^503$'), times[at]!);
  assert.equal(model.counting, true, 'not scanned at once');
  let progress = 0;
  model.onScanProgress = () => progress++;
  const anchor = truth[Math.floor(at / 7)]!;
  const anchorAt = model.buffer.lowerBound(times[all.indexOf(anchor)]!);
  const anchorTime = model.buffer.time(anchorAt);
  assert.equal(model.buffer.get(anchorAt)!.requestId, anchor.requestId);
  const w = model.window({
    following: false,
    anchor: { seq: model.buffer.seqAt(anchorAt), time: anchorTime },
    anchorRow: 5,
    fallback: 0,
    height: 20,
    lines: () => 1,
  });
  assert.equal(model.counting, true);
  assert.equal(w.rows.length, 20, 'the screen is full while counting');
  const shown = w.rows.map((r) => r.entry!.requestId);
  const truthIds = truth.map((e) => e.requestId);
  const first = truthIds.indexOf(shown[0]!);
  assert.deepEqual(shown, truthIds.slice(first, first + 20), 'consecutive true matches');
  assert.equal(w.rows[5]!.entry!.requestId, anchor.requestId, 'the record on screen stays in its row');

  // n from the last row shown, and N from the first: the true neighbours, scanned on demand
  const next = model.nextMatch(w.rows[19]!.pos, 1);
  assert.equal(model.entryAt(next)!.requestId, truthIds[first + 20]);
  const prev = model.nextMatch(model.positionOf(w.rows[0]!.seq, times[truthIds.indexOf(shown[0]!) * 7 + 3]!), -1);
  assert.equal(model.entryAt(prev)!.requestId, truthIds[first - 1]);

  // highlight mode: every record is a row; n goes to the next 503 by buffer position
  model.setMode('highlight');
  assert.equal(model.counting, true);
  assert.equal(model.nextMatch(100, 1), 101 + ((3 - (101 % 7) + 7) % 7));
  assert.equal(model.nextMatch(19_998, 1), -1);
  model.setMode('filter');

  await until('the count to end', () => !model.counting, 10_000, 5);
  assert.ok(progress > 1, 'progress was reported slice by slice');
  assert.equal(model.matches, truth.length);
  assert.equal(model.total, truth.length);
  for (const p of [0, 1, 777, truth.length - 1]) assert.deepEqual(model.entryAt(p), truth[p]);
});

test('view model: records arriving and evicted while counting are neither lost nor doubled; a pattern changed mid-count starts over', async () => {
  const { model, all } = bigModel();
  model.setMode('filter');
  model.setPattern(pattern('^503$'), null);
  model.window({ following: true, anchor: null, anchorRow: 0, fallback: 0, height: 10, lines: () => 1 });
  // a new pattern before the first is done: the first one's scan stops
  model.setPattern(pattern('^5'), Date.parse(all[5000]!.timestamp));
  const fresh: LogEntry[] = [];
  const freshTimes: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const t = BASE + 200_000 + i * 10;
    fresh.push(rec(t, i % 5 === 0 ? 500 : 200));
    freshTimes.push(t);
  }
  for (let k = 0; k < 3000; k += 250) {
    model.load(fresh.slice(k, k + 250), freshTimes.slice(k, k + 250));
    await new Promise((r) => setImmediate(r));
  }
  await until('the count to end', () => !model.counting, 10_000, 5);
  const want = model.buffer.toArray().filter((e) => e.statusCode >= 500);
  assert.equal(model.buffer.length, 20_000);
  assert.equal(model.matches, want.length);
  assert.deepEqual(
    Array.from({ length: model.total }, (_, i) => model.entryAt(i)),
    want,
  );
  assert.equal(new Set(want.map((e) => e.requestId)).size, want.length, 'no record twice');
});
