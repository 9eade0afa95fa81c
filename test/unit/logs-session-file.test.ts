import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogsSessions, MAX_ZONE_SETS, readSessionFile, sessionPath } from '../../src/state/logs/session-file';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-session-unit-'));
const session = (pattern: string) => ({
  filter: { status: '5xx' },
  local: { pattern, mode: 'filter' as const, context: 2 },
  alerts: ['status=5xx rate>1/s over 60s'],
  marks: [{ key: 'r1', zone: 1058, time: 1000, status: 503, path: '/x' }],
});

test("a profile's sessions per zone set: written 0600, read back, the emulator's apart", () => {
  const file = sessionPath('prod', false, { XDG_STATE_HOME: dir });
  assert.equal(file, path.join(dir, 'burrow', 'sessions', 'prod.json'));
  assert.equal(sessionPath(null, true, { XDG_STATE_HOME: dir }), path.join(dir, 'burrow', 'sessions', 'emulator.json'));
  const s = new LogsSessions(file, false);
  s.saveZoneSet('1058 1411', session('api/cart.*(DE|FR)'), 5);
  s.setOpen('1058 1411');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const again = new LogsSessions(file, false);
  assert.equal(again.warning, null);
  assert.equal(again.open, '1058 1411');
  assert.deepEqual(again.zoneSet('1058 1411'), { ...session('api/cart.*(DE|FR)'), savedAt: 5 });
  assert.equal(again.zoneSet('1058'), null);
  // --fresh: nothing is read
  assert.equal(new LogsSessions(file, true).zoneSet('1058 1411'), null);
});

test('damaged, old or odd files: a message and a clean start, never a throw', () => {
  const file = path.join(dir, 'odd.json');
  for (const [content, warning] of [
    ['{"version":1,', /damaged \(not JSON\)/],
    ['[]', /another burrow version \(no version\)/],
    ['{"version":2}', /another burrow version \(version 2\)/],
  ] as const) {
    fs.writeFileSync(file, content);
    const r = readSessionFile(file);
    assert.match(r.warning ?? '', warning);
    assert.deepEqual(r.data.zoneSets, {});
  }
  // wrong types inside are dropped field by field
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      open: 'x; rm -rf',
      zoneSets: {
        '1058': {
          local: { pattern: 5, mode: 'weird', context: -3 },
          alerts: [1, 'a'],
          marks: [{ key: 1 }, { key: 'k', zone: 1058, time: 2 }, { key: 'nozone', time: 3 }],
        },
        'not a zone': {},
      },
    }),
  );
  const r = readSessionFile(file);
  assert.equal(r.warning, null);
  assert.equal(r.data.open, null);
  assert.deepEqual(Object.keys(r.data.zoneSets), ['1058']);
  assert.deepEqual(r.data.zoneSets['1058']!.local, { pattern: null, mode: 'filter', context: 0 });
  assert.deepEqual(r.data.zoneSets['1058']!.alerts, ['a']);
  assert.deepEqual(r.data.zoneSets['1058']!.marks, [{ key: 'k', zone: 1058, time: 2, status: 0, path: '' }]);
});

test('at most MAX_ZONE_SETS zone sets are kept: the ones saved longest ago go', () => {
  const file = path.join(dir, 'many.json');
  const s = new LogsSessions(file, false);
  for (let i = 1; i <= MAX_ZONE_SETS + 3; i++) s.saveZoneSet(String(1000 + i), session(`p${i}`), i);
  const kept = Object.keys(readSessionFile(file).data.zoneSets);
  assert.equal(kept.length, MAX_ZONE_SETS);
  for (const gone of ['1001', '1002', '1003']) assert.ok(!kept.includes(gone), gone);
  assert.ok(kept.includes(String(1000 + MAX_ZONE_SETS + 3)));
});
