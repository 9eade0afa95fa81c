import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogEntry } from '../../src/api/logs/entry';
import { compilePattern } from '../../src/log-records/filter';
import { LogsViewModel } from '../../src/state/logs/view-model';
import { liveStatusParts, titleParts, v1StatusParts, type StatusInput } from '../../src/screens/logs/status-view';
import { statsLines } from '../../src/screens/logs/stats-view';
import type { LiveStatus } from '../../src/state/logs/store';
import { logEntry } from '../helpers/log-entry';

const BASE = Date.UTC(2026, 7, 8, 12, 0, 0);
function records(n: number): { entries: LogEntry[]; times: number[] } {
  const entries: LogEntry[] = [];
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = BASE + i * 10;
    times.push(t);
    entries.push(
      logEntry({
        timestamp: new Date(t).toISOString(),
        requestId: i.toString(16).padStart(32, '0'),
        cacheStatus: i % 3 ? 'HIT' : 'MISS',
        statusCode: i % 50 === 0 ? 503 : 200,
        remoteIp: '10.0.0.1',
        countryCode: 'DE',
        edgeLocation: 'DE',
        scheme: 'https',
        host: 'a.example',
        path: `/p/${i}`,
        userAgent: 'ua',
      }),
    );
  }
  return { entries, times };
}

/** Records read from the buffer while computing one window. */
function readsFor(n: number, setup: (m: LogsViewModel) => void, following: boolean): { reads: number; rows: number } {
  const model = new LogsViewModel(200_000);
  const { entries, times } = records(n);
  model.load(entries, times);
  setup(model);
  let reads = 0;
  const buffer = model.buffer;
  const build = buffer.columns.entry.bind(buffer.columns);
  buffer.columns.entry = (slot: number) => {
    reads++;
    return build(slot);
  };
  const anchorAt = Math.floor(n / 2);
  const w = model.window({
    following,
    anchor: following ? null : { seq: model.buffer.seqAt(model.buffer.lowerBound(times[anchorAt]!)), time: times[anchorAt]! },
    anchorRow: 5,
    fallback: 0,
    height: 20,
    lines: () => 1,
  });
  return { reads, rows: w.rows.length };
}

test('a window reads the same number of records from the buffer with 100 or 100,000 held (following, paused, filtered)', () => {
  const pattern = (source: string, mode: 'filter' | 'highlight') => (m: LogsViewModel) => {
    const p = compilePattern(source);
    assert.ok(p.ok);
    m.setPattern(p);
    m.setMode(mode);
    // the window once the pattern's count is done (while counting, the screen's matches are found first: logs-match-scan)
    m.finishScan();
  };
  const cases: [string, (m: LogsViewModel) => void][] = [
    ['all records', () => {}],
    ['filter /MISS/ (a third match)', pattern('MISS', 'filter')],
    ['highlight /^503$/', pattern('^503$', 'highlight')],
  ];
  for (const [name, setup] of cases) {
    for (const following of [true, false]) {
      const small = readsFor(100, setup, following);
      const big = readsFor(100_000, setup, following);
      assert.equal(small.rows, 20, `${name}: a full window of 20 rows`);
      assert.equal(big.rows, 20);
      assert.equal(big.reads, small.reads, `${name}, ${following ? 'following' : 'paused'}: ${small.reads} reads at 100 records, ${big.reads} at 100,000`);
      assert.ok(big.reads <= 3 * 20 + 10, `${name}: about one read per visible row (${big.reads})`);
    }
  }
});

const live = (over: Partial<LiveStatus> = {}): LiveStatus => ({
  state: 'following',
  error: null,
  errorStatus: null,
  coveredTo: 1_000_000,
  newest: 999_000,
  recheckMs: 120_000,
  ingestLagMs: 2000,
  intervalMs: 1000,
  backoffUntil: null,
  requests: 10,
  late: 0,
  backfillTruncated: false,
  backfill: null,
  buffered: 12_345,
  dropped: 0,
  oldest: 500_000,
  duplicates: 0,
  budgetUsed: 4,
  budgetLimit: 25,
  budgetWaiting: 0,
  rateLimited: 0,
  ...over,
});
const input = (over: Partial<StatusInput> = {}): StatusInput => ({
  following: true,
  newWhilePaused: 0,
  newMatchesWhilePaused: 0,
  filtering: false,
  live: live(),
  windowKey: '15m',
  ...over,
});
const text = (parts: { text: string }[]) => parts.map((p) => p.text).join(' · ');

test('status line: following, lag, re-check window, budget, buffered and dropped', () => {
  assert.equal(text(liveStatusParts(input(), 1_003_000)), '● following · lag 3s · re-checking last 120 s · budget 4/25 · 12,345 buffered · 0 dropped');
  assert.equal(text(liveStatusParts(input({ compact: true }), 1_003_000)), '● following · lag 3s · re-check 120s · budget 4/25 · 12,345 buf · 0 dropped');
  const dropped = liveStatusParts(input({ live: live({ dropped: 7, backfillTruncated: true }) }), 1_000_000);
  assert.match(text(dropped), /7 dropped, oldest held 00:08:20 · backfill capped at the buffer size$/);
  assert.equal(
    dropped.find((p) => p.text === '7 dropped, oldest held 00:08:20')!.tone,
    'warn',
    'the oldest time still held is shown once records were dropped',
  );
});

test('status line: paused with N new (matches when filtering), 429 backoff, retrying, failure', () => {
  assert.match(text(liveStatusParts(input({ following: false, newWhilePaused: 1234 }), 1_000_000)), /^❚❚ paused · 1,234 new · /);
  assert.match(
    text(liveStatusParts(input({ following: false, newWhilePaused: 50, newMatchesWhilePaused: 3, filtering: true }), 1_000_000)),
    /^❚❚ paused · 3 new matches \(50 records\)/,
  );
  assert.match(
    text(liveStatusParts(input({ following: false, newWhilePaused: 1, newMatchesWhilePaused: 1, filtering: true }), 1_000_000)),
    /^❚❚ paused · 1 new match \(1 record\) · /,
    'one, not "1 records"',
  );
  assert.match(
    text(liveStatusParts(input({ live: live({ backoffUntil: 1_004_500, state: 'rate-limited' }) }), 1_000_000)),
    /rate limited \(429\): backing off 4s/,
  );
  assert.match(text(liveStatusParts(input({ live: live({ state: 'retrying', error: 'HTTP 503' }) }), 1_000_000)), /retrying: HTTP 503/);
  const failed = liveStatusParts(input({ live: live({ state: 'failed', error: 'logging is not enabled for pull zone 5' }) }), 1_000_000);
  assert.equal(failed[0]!.text, '✖ stopped: logging is not enabled for pull zone 5');
  assert.equal(failed[0]!.tone, 'error');
  assert.match(text(liveStatusParts(input({ live: live({ state: 'backfilling', coveredTo: null }) }), 0)), /^loading the last 15m…/);
});

test('v1 status: lines, shown, skipped with the first reason; while reading, the progress; evicted and stopped said', () => {
  const day = {
    date: '08-07-26',
    loading: false,
    error: null,
    lines: 1000,
    skipped: 2,
    problems: [{ line: 17, reason: 'truncated: 5 of 12 fields' }],
    kept: 998,
    evicted: 0,
    bytes: 300_000,
    totalBytes: 300_000,
    rate: 0,
    stopped: false,
  };
  const parts = v1StatusParts(day, true);
  assert.equal(text(parts), 'v1 day 08-07-26 (UTC) · 1,000 lines · 998 shown · 2 skipped (malformed): line 17 truncated: 5 of 12 fields · esc: back to live');
  const reading = v1StatusParts({ ...day, loading: true, bytes: 180e6, totalBytes: 440e6, rate: 210_000, skipped: 0, problems: [] }, true);
  assert.equal(
    text(reading),
    'reading v1 day 08-07-26 (UTC) · 40% · 180 MB of 440 MB · esc: stop reading (keeps what was read) · 1,000 lines (210,000/s) · 998 shown',
  );
  const stopped = v1StatusParts({ ...day, stopped: true, evicted: 5, bytes: 180e6, totalBytes: 440e6 }, true);
  assert.match(
    text(stopped),
    / · oldest 5 evicted \(buffer full: the newest kept\) · read stopped at 40% · 180 MB of 440 MB: r reads the whole day · esc: back to live$/,
  );
});

test('stats panel: beside (tall) lists entries one per line, below (compact) one line per section; always within the height', () => {
  const model = new LogsViewModel(1000);
  const { entries, times } = records(300);
  model.load(entries, times);
  const snap = model.stats.snapshot();
  const tall = statsLines(snap, 46, 40, true);
  assert.ok(tall.length <= 40);
  assert.ok(tall.some((l) => l.map((p) => p.text).join('') === 'top paths'));
  assert.ok(tall.some((l) => /^  HIT\s+200\s+66\.7%$/.test(l.map((p) => p.text).join(''))));
  const compact = statsLines(snap, 100, 9, false);
  assert.equal(compact.length, 9);
  const joined = compact.map((l) => l.map((p) => p.text).join(''));
  assert.ok(joined.includes('cache HIT 200 · MISS 100'));
  assert.ok(joined.includes('hit ratio 66.7% HIT of 300 with a cache status'));
  assert.ok(statsLines(snap, 46, 12, true).length <= 12, 'too short for tall lists: compact lines');
});

test('title: a pattern still counting says so with the matches so far; done, the count; paused with evictions says how many', () => {
  const local = {
    editing: false,
    text: { value: '', cursor: 0 },
    error: null,
    pattern: 'css',
    mode: 'filter' as const,
    context: 0,
    matches: 1234,
    counting: true,
    progress: 0.456,
  };
  const title = (l: typeof local) =>
    text(titleParts({ zoneId: 7, zoneName: 'shop', source: 'live', windowKey: '1h', serverFilter: '', local: l, wrap: false }));
  assert.match(title(local), /\/css\/ filter: counting… 45% \(1,234 so far\)/);
  assert.match(title({ ...local, counting: false }), /\/css\/ filter: 1,234 matches/);
  assert.doesNotMatch(title({ ...local, counting: false }), /counting/);
  assert.match(
    text(liveStatusParts(input({ following: false, newWhilePaused: 40, evictedWhilePaused: 2500 }), 1_000_000)),
    /paused · 40 new · 2,500 evicted \(buffer full\)/,
  );
  assert.doesNotMatch(text(liveStatusParts(input({ following: false, newWhilePaused: 40 }), 1_000_000)), /evicted/);
  assert.match(
    text(liveStatusParts(input({ following: false, newWhilePaused: 40, evictedWhilePaused: 2500, rowsEvicted: true }), 1_000_000)),
    /the rows you were reading were evicted \(buffer full\): showing the oldest held; G jumps to the newest/,
  );
});
