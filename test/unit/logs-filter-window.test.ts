import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.TZ = 'America/New_York';

const { checkWindow, describeDraft, describeWindow, emptyDraft, filterOfDraft, pinWindow, validateDraft } = await import('../../src/state/logs/filter-form');
const { setDisplayZone } = await import('../../src/text/time-format');

const NOW = Date.parse('2026-11-24T19:30:00Z'); // 14:30 in New York
const draft = (from: string, to = '', extra: Record<string, string> = {}) => ({ ...emptyDraft(), from, to, ...extra });

test('from/to: typed like @ (local time), checked against each other, the retention and now', () => {
  setDisplayZone('local');
  assert.deepEqual(checkWindow(draft('14:05', '14:20'), NOW), {
    window: { from: Date.parse('2026-11-24T19:05:00Z'), to: Date.parse('2026-11-24T19:20:00Z') },
    errors: null,
  });
  assert.deepEqual(checkWindow(draft('-2h'), NOW).window, { from: NOW - 7_200_000, to: null });
  assert.deepEqual(checkWindow(draft(''), NOW), { window: null, errors: null });

  assert.match(checkWindow(draft('14:20', '14:05'), NOW).errors?.to ?? '', /the end 2026-11-24 14:05:00 is not after the start 2026-11-24 14:20:00/);
  assert.match(checkWindow(draft('-4d'), NOW).errors?.from ?? '', /older than the 3-day retention \(the oldest is 2026-11-21 14:30:00\)/);
  assert.match(checkWindow(draft('2026-11-24 15:00'), NOW).errors?.from ?? '', /is in the future/);
  assert.match(checkWindow(draft('-1h', '2026-11-24 15:00'), NOW).errors?.to ?? '', /in the future: leave to empty to follow up to now/);
  assert.match(checkWindow(draft('', '-1h'), NOW).errors?.to ?? '', /an end needs a start/);
  assert.match(checkWindow(draft('noon'), NOW).errors?.from ?? '', /"noon" is not a time/);

  // with a log store the window may reach past the retention; without an end it ends now (read once)
  assert.deepEqual(checkWindow(draft('-4d'), NOW, true), { window: { from: NOW - 4 * 86_400_000, to: NOW }, errors: null });
  assert.deepEqual(checkWindow(draft('-5d', '-4d'), NOW, true).window, { from: NOW - 5 * 86_400_000, to: NOW - 4 * 86_400_000 });
  assert.deepEqual(checkWindow(draft('-2h'), NOW, true).window, { from: NOW - 7_200_000, to: null }, 'within the retention: followed as before');
  assert.equal(validateDraft(draft('-4d'), NOW, true), null);
  assert.ok(validateDraft(draft('-4d'), NOW)?.from);

  // together with the server filters' own checks; from/to are no server filter
  const errors = validateDraft(draft('noon', '', { status: '7xx' }), NOW);
  assert.ok(errors?.from && errors.status, JSON.stringify(errors));
  assert.equal(validateDraft(draft('-1h', '-30m', { status: '5xx' }), NOW), null);
  assert.deepEqual(filterOfDraft(draft('-1h', '-30m', { status: '5xx' })), { status: '5xx' });
  assert.equal(describeDraft(draft('-1h', '-30m', { status: '5xx' })), 'status=5xx');
});

test('an applied window is pinned to absolute times and described in the display zone', () => {
  setDisplayZone('local');
  const w = checkWindow(draft('-90m', '-30m'), NOW).window!;
  const pinned = pinWindow(draft('-90m', '-30m'), w);
  assert.equal(pinned.from, '2026-11-24 13:00:00');
  assert.equal(pinned.to, '2026-11-24 14:00:00');
  assert.deepEqual(checkWindow(pinned, NOW + 3_600_000).window, w, 'the pinned text means the same times later');
  assert.equal(describeWindow(w, NOW), 'from 2026-11-24 13:00:00 to 14:00:00 (UTC-05:00)');
  assert.equal(describeWindow({ from: w.from, to: null }, NOW), 'from 2026-11-24 13:00:00 to now (following) (UTC-05:00)');
  setDisplayZone('utc');
  assert.equal(describeWindow(w, NOW), 'from 2026-11-24 18:00:00 to 19:00:00 (UTC)');
  assert.deepEqual(checkWindow(draft('18:00', '19:00'), NOW).window, w, 'with --utc, typed times are UTC');
  assert.deepEqual(pinWindow(pinned, null), { ...pinned, from: '', to: '' });
});
