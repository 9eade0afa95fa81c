import { test } from 'node:test';
import assert from 'node:assert/strict';

// The local zone is New York (UTC-5 in winter, UTC-4 in summer): local and UTC differ, and it
// has daylight-saving changes. Set before any Date is made; each test file is its own process.
process.env.TZ = 'America/New_York';

const { parseTimeInput } = await import('../../src/text/time-parse');
const { formatTime, formatDateText, instantOf, zoneLabel, isoWidth } = await import('../../src/text/time-format');

const NOW = Date.parse('2026-11-24T19:30:00Z'); // 14:30 in New York
const at = (text: string, zone: 'local' | 'utc' = 'local', now = NOW) => {
  const r = parseTimeInput(text, now, zone);
  if (!r.ok) throw new Error(`not parsed: ${r.message}`);
  return new Date(r.ms).toISOString();
};
const refused = (text: string, zone: 'local' | 'utc' = 'local', now = NOW) => {
  const r = parseTimeInput(text, now, zone);
  assert.equal(r.ok, false, `${text} should be refused`);
  return r.ok ? '' : r.message;
};

test('time of day: local or UTC, today when it has passed, else yesterday', () => {
  assert.equal(at('14:05'), '2026-11-24T19:05:00.000Z');
  assert.equal(at('14:05', 'utc'), '2026-11-24T14:05:00.000Z');
  assert.equal(at('14:05:30'), '2026-11-24T19:05:30.000Z');
  assert.equal(at('9:05:30.25'), '2026-11-24T14:05:30.250Z');
  // 15:00 local is still to come at 14:30: yesterday's
  assert.equal(at('15:00'), '2026-11-23T20:00:00.000Z');
  // in UTC it is 19:30: 15:00 UTC was today
  assert.equal(at('15:00', 'utc'), '2026-11-24T15:00:00.000Z');
});

test('dates with and without a time, with a zone or an offset', () => {
  assert.equal(at('2026-11-24 14:05'), '2026-11-24T19:05:00.000Z');
  assert.equal(at('2026-11-24T14:05:30Z'), '2026-11-24T14:05:30.000Z');
  assert.equal(at('2026-11-24T14:05:30Z', 'utc'), '2026-11-24T14:05:30.000Z');
  assert.equal(at('2026-11-24T14:05:30+01:00'), '2026-11-24T13:05:30.000Z');
  assert.equal(at('2026-11-24 14:05', 'utc'), '2026-11-24T14:05:00.000Z');
  assert.equal(at('2026-11-24'), '2026-11-24T05:00:00.000Z');
  // summer: New York is UTC-4
  assert.equal(at('2026-07-01 12:00'), '2026-07-01T16:00:00.000Z');
});

test('relative to now: -10m, -2h, -90s, combined', () => {
  assert.equal(at('-10m'), '2026-11-24T19:20:00.000Z');
  assert.equal(at('-2h'), '2026-11-24T17:30:00.000Z');
  assert.equal(at('-90s'), '2026-11-24T19:28:30.000Z');
  assert.equal(at('-1h30m'), '2026-11-24T18:00:00.000Z');
  assert.equal(at(' -1d '), '2026-11-23T19:30:00.000Z');
});

test('daylight saving: a skipped local time is refused, a repeated one is the earlier, a time of day on the change day is right', () => {
  // 2026-03-08 02:30 does not exist in New York (02:00 -> 03:00)
  assert.match(refused('2026-03-08 02:30'), /does not exist in UTC-0[45]:00: the clocks skipped it/);
  assert.equal(at('2026-03-08 02:30', 'utc'), '2026-03-08T02:30:00.000Z');
  // 2026-11-01 01:30 happens twice: the first (EDT, UTC-4)
  assert.equal(at('2026-11-01 01:30'), '2026-11-01T05:30:00.000Z');
  // the day after the spring change, 14:05 is 14:05 EDT (not 13:05 by counting 24-hour days)
  assert.equal(at('14:05', 'local', Date.parse('2026-03-09T12:00:00Z')), '2026-03-08T18:05:00.000Z');
  assert.equal(at('01:00', 'local', Date.parse('2026-03-08T12:00:00Z')), '2026-03-08T06:00:00.000Z');
});

test('bad input gets a message saying what is wrong and the accepted forms', () => {
  assert.match(refused('25:00'), /"25:00" has no hour 25 \(0-23\): use 14:05/);
  assert.match(refused('14:61'), /has no minute 61/);
  assert.match(refused('2026-02-30 10:00'), /has no day 30 in that month/);
  assert.match(refused('2026-13-01'), /has no month 13/);
  assert.match(refused('yesterday'), /"yesterday" is not a time: use 14:05 · 14:05:30 · 2026-11-24 14:05/);
  assert.match(refused('-0m'), /is no time before now/);
  assert.match(refused(''), /type a time/);
  assert.match(refused('2026-11-24T10:00+19:00'), /offset beyond/);
});

test('formatting: the same instant in local time and in UTC', () => {
  const t = Date.parse('2026-11-24T14:05:30.123Z');
  assert.equal(formatTime(t, 'clockMs', 'local'), '09:05:30.123');
  assert.equal(formatTime(t, 'clockMs', 'utc'), '14:05:30.123');
  assert.equal(formatTime(t, 'iso', 'local'), '2026-11-24T09:05:30.123-05:00');
  assert.equal(formatTime(t, 'iso', 'utc'), '2026-11-24T14:05:30.123Z');
  assert.equal(formatTime(t, 'iso', 'local').length, isoWidth('local'));
  assert.equal(formatTime(t, 'iso', 'utc').length, isoWidth('utc'));
  assert.equal(formatTime(Date.parse('2026-11-25T02:00:00Z'), 'day', 'local'), '2026-11-24');
  assert.equal(formatTime(Date.parse('2026-11-25T02:00:00Z'), 'day', 'utc'), '2026-11-25');
  assert.equal(formatDateText('2024-03-05T14:22:01', 'dateMinute', 'local'), '2024-03-05 09:22');
  assert.equal(formatDateText('2024-03-05T14:22:01', 'dateMinute', 'utc'), '2024-03-05 14:22');
  assert.equal(formatDateText('not a date', 'day', 'utc'), 'not a date');
  assert.equal(zoneLabel(t, 'local'), 'UTC-05:00');
  assert.equal(zoneLabel(Date.parse('2026-07-01T00:00:00Z'), 'local'), 'UTC-04:00');
  assert.equal(zoneLabel(t, 'utc'), 'UTC');
  assert.ok(Number.isNaN(instantOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0, ms: 0 }, 'local')));
});
