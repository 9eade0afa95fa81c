import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogEntry } from '../../src/api/logs/entry';
import { AlertSet, replayAlerts, type AlertEvent } from '../../src/log-records/alert-eval';
import { parseAlertRule, type AlertRule } from '../../src/log-records/alert-rule';
import { SlidingCount } from '../../src/log-records/alert-window';
import { logEntry } from '../helpers/log-entry';

const T0 = Date.UTC(2026, 7, 8, 12, 0, 0);

function entry(statusCode: number, cacheStatus = 'HIT'): LogEntry {
  return logEntry({
    timestamp: '',
    cacheStatus,
    statusCode,
    bytesSent: 1,
    countryCode: 'DE',
    edgeLocation: 'WA',
    scheme: 'https',
    host: 'a.example',
    path: '/',
  });
}

function rule(text: string): AlertRule {
  const p = parseAlertRule(text);
  assert.ok(p.ok);
  return p.rule;
}

/** An alert set on a clock the test moves by hand. */
function harness(...rules: string[]) {
  let now = T0;
  const set = new AlertSet(() => now);
  for (const r of rules) set.add(rule(r));
  const events: AlertEvent[] = [];
  return {
    set,
    events,
    /** Records with these status codes, spread evenly over [at, at + spanMs). */
    feed(at: number, codes: number[], spanMs = 1000) {
      set.records(
        codes.map((c) => entry(c)),
        codes.map((_, i) => at + Math.floor((i * spanMs) / codes.length)),
      );
    },
    /** Moves the clock to `t`, evaluating once a second on the way (as the screen's frames do). */
    to(t: number) {
      while (now < t) {
        now = Math.min(t, now + 1000);
        events.push(...set.evaluate());
      }
    },
    get now() {
      return now;
    },
  };
}

test('sliding count: O(1) adds by record time, the window moves with the clock, late records count once reached', () => {
  const w = new SlidingCount(10_000);
  assert.equal(w.bucketMs, 1000);
  w.add(T0 + 500);
  w.add(T0 + 9_500);
  assert.equal(w.advance(T0 + 10_000), 2);
  w.add(T0 + 12_000); // ahead of the window: waits
  assert.equal(w.count, 2);
  assert.equal(w.advance(T0 + 11_000), 1, 'the record at +0.5 s left the window');
  assert.equal(w.advance(T0 + 13_000), 2, 'the one at +12 s is in');
  w.add(T0 - 60_000); // far older than the window: not counted
  assert.equal(w.count, 2);
  assert.equal(w.advance(T0 + 100_000), 0, 'a long jump empties it');
  w.add(T0 + 99_000);
  assert.equal(w.count, 1);
  w.clear();
  assert.equal(w.advance(T0 + 100_000), 0);
});

test('fires when crossed, stays while over, and clears one window after going back under with no records at all', () => {
  const h = harness('status=5xx rate>2/s over 10s');
  // 3 errors a second for 15 s (plus successes that do not count)
  for (let s = 0; s < 15; s++) h.feed(T0 + s * 1000, [500, 502, 503, 200, 200]);
  h.to(T0 + 5000);
  assert.equal(h.events.length, 0, '15 errors in the first 5 s: under 20 in 10 s');
  h.to(T0 + 8000);
  assert.equal(h.events.length, 1);
  const fired = h.events[0]!;
  assert.equal(fired.kind, 'fired');
  assert.equal(fired.at, T0 + 7000, 'the first evaluation with 21 errors in the window');
  assert.equal(fired.count, 21);
  assert.equal(fired.observed, '2.1/s');
  h.to(T0 + 15_000);
  assert.equal(h.events.length, 1, 'no second firing while it stays over');
  assert.equal(h.set.status()[0]!.firing, true);
  // the records stop at +15 s; the clock alone moves the window
  h.to(T0 + 25_000);
  assert.equal(h.events.length, 1, 'under since +19 s: not a whole window yet');
  h.to(T0 + 30_000);
  assert.equal(h.events.length, 2);
  const cleared = h.events[1]!;
  assert.equal(cleared.kind, 'cleared');
  assert.equal(cleared.count, 0, 'the window is empty');
  assert.equal(cleared.at, T0 + 29_000, 'under the threshold from +19 s on, for 10 s');
  assert.equal(cleared.durationMs, 22_000, 'from firing to clearing');
  assert.deepEqual(h.set.status()[0]!.lastCleared, { at: T0 + 29_000, durationMs: 22_000 });
});

test('hysteresis: a count that dips under and back over does not clear or fire again', () => {
  const h = harness('count>=10 over 10s');
  for (let s = 0; s < 10; s++) h.feed(T0 + s * 1000, [200, 200]); // 2/s: 20 in the window
  h.to(T0 + 10_000);
  assert.deepEqual(
    h.events.map((e) => e.kind),
    ['fired'],
  );
  // 5 s of nothing (the count falls under 10), then traffic again
  h.to(T0 + 16_000);
  for (let s = 16; s < 30; s++) h.feed(T0 + s * 1000, [200, 200]);
  h.to(T0 + 30_000);
  assert.deepEqual(
    h.events.map((e) => e.kind),
    ['fired'],
    'back over before a whole window under: still the one firing',
  );
});

test('several rules at once, each on its own records and window', () => {
  const h = harness('status=5xx count>5 over 10s', 'status=2xx rate>=1/s over 5s', 'cache=MISS count>0 over 10s');
  for (let s = 0; s < 10; s++) h.feed(T0 + s * 1000, [200, 500]);
  h.to(T0 + 10_000);
  const kinds = h.events.map((e) => `${e.kind}:${e.rule.text}`);
  assert.deepEqual(kinds, ['fired:status=2xx rate>=1/s over 5s', 'fired:status=5xx count>5 over 10s']);
  const st = h.set.status();
  assert.deepEqual(
    st.map((s) => s.firing),
    [true, true, false],
    'no MISS record: the third never fires',
  );
  assert.deepEqual(
    st.map((s) => s.count),
    [10, 5, 0],
  );
  h.set.remove(0);
  assert.deepEqual(
    h.set.rules.map((r) => r.text),
    ['status=2xx rate>=1/s over 5s', 'cache=MISS count>0 over 10s'],
  );
});

test('nothing is evaluated while the window end is unknown (a backfill), and the clock never goes back', () => {
  let end: number | null = null;
  const set = new AlertSet(() => end);
  set.add(rule('count>0 over 10s'));
  set.records([entry(200)], [T0]);
  assert.deepEqual(set.evaluate(), []);
  assert.equal(set.status()[0]!.count, null);
  end = T0 + 1000;
  assert.equal(set.evaluate()[0]!.kind, 'fired');
  end = T0 - 50_000;
  assert.deepEqual(set.evaluate(), []);
  assert.equal(set.status()[0]!.firing, true);
});

test('resetCounts: the records are forgotten, a firing rule stays firing until it clears', () => {
  const h = harness('count>3 over 10s');
  h.feed(T0, [200, 200, 200, 200, 200]);
  h.to(T0 + 2000);
  assert.equal(h.events.length, 1);
  h.set.resetCounts();
  h.to(T0 + 3000);
  assert.equal(h.set.status()[0]!.count, 0);
  assert.equal(h.set.status()[0]!.firing, true);
  h.to(T0 + 13_000);
  assert.equal(h.events.at(-1)!.kind, 'cleared');
});

test('replay over finished records finds every firing and clearing at its time', () => {
  const entries: LogEntry[] = [];
  const times: number[] = [];
  // quiet (1 error every 10 s), a burst of 5 errors a second from +60 s to +80 s, quiet again
  for (let ms = 0; ms < 180_000; ms += 200) {
    const burst = ms >= 60_000 && ms < 80_000;
    if (burst || ms % 10_000 === 0) {
      entries.push(entry(503));
      times.push(T0 + ms);
    }
  }
  const events = replayAlerts([rule('status=5xx rate>2/s over 10s')], entries, times, T0 + 180_000);
  assert.deepEqual(
    events.map((e) => e.kind),
    ['fired', 'cleared'],
  );
  assert.ok(events[0]!.at > T0 + 60_000 && events[0]!.at <= T0 + 66_000, `fired at +${events[0]!.at - T0}`);
  assert.ok(events[1]!.at >= T0 + 80_000 + 10_000, `cleared at +${events[1]!.at - T0}`);
  assert.ok(events[1]!.at <= T0 + 80_000 + 20_000);
});
