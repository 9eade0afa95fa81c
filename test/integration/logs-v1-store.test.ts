import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from '../helpers/emulator';
import { createApi } from '../../src/api/index';
import { LogsApi } from '../../src/api/logs/index';
import { parseV1, v1Date } from '../../src/api/logs/v1';
import { resolveSettings } from '../../src/config/settings';
import { textOf } from '../../src/keys/text-edit';
import { DomainStores } from '../../src/state/domain-stores';
import { createUiStore } from '../../src/state/ui-store';
import { createLogsStore, FILTER_FIELDS, type LogsStore, type V1State } from '../../src/state/logs/store';
import { EmulatorClock } from '../../src/emulator/clock';
import { until } from '../helpers/wait';
import { logEntry } from '../helpers/log-entry';
import { heldBackV1Day } from '../helpers/v1-origin';

// The logs screen's store reads a v1 day as a stream: records show while the day is read, the
// progress grows, a stop keeps what was read, and a day bigger than the buffer keeps its newest
// records (eviction as for live ones). The day comes from a logging origin of this test's own
// that sends the first part of the file and holds the rest back until told.

const clock = new EmulatorClock(Date.parse('2026-03-02T10:00:00Z'));
const emu = await useEmulator({ seed: 5, now: clock.now });
const zone = emu.world.pullZones.find((z) => z.EnableLogging)!;
const day = v1Date(clock.now() - 86_400_000);
const CAPACITY = 1000;
const LINES = 3000;
const HELD_BACK_FROM = 1200;

const entry = (i: number) =>
  logEntry({
    timestamp: new Date(clock.now() - 86_400_000 + i * 20_000).toISOString(),
    pullZoneId: zone.Id,
    requestId: (i + 1).toString(16).padStart(32, '0'),
    cacheStatus: i % 3 ? 'HIT' : 'MISS',
    statusCode: i % 10 ? 200 : 404,
    bytesSent: 500 + i,
    remoteIp: `10.1.${i % 250}.9`,
    countryCode: 'DE',
    edgeLocation: 'DE',
    scheme: 'https',
    host: 'cdn.example',
    path: `/a/${i}`,
    url: `https://cdn.example/a/${i}`,
    userAgent: 'curl/8',
  });
const origin = await heldBackV1Day({ zoneId: zone.Id, day, entries: Array.from({ length: LINES }, (_, i) => entry(i)), heldBackFrom: HELD_BACK_FROM });
const all = parseV1(origin.text, zone.Id);

function makeStore(): LogsStore {
  const base = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: origin.url, apiKey: emu.info.accessKey });
  after(() => base.close());
  const api = { ...base, logs: new LogsApi(base.logging, { now: clock.now, budgetOptions: { now: Date.now } }) };
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const settings = { ...resolveSettings({}, {}, {}), logBufferSize: CAPACITY };
  const stores = new DomainStores({ api, settings, ui, now: clock.now });
  return stores.get((deps) => createLogsStore(deps, { frameMs: 10 }));
}

async function openDay(store: LogsStore): Promise<void> {
  store.getState().openV1();
  store.getState().setPromptText(textOf(day));
  store.getState().submitPrompt();
  assert.equal(store.getState().prompt, null);
}

test('records show while the day is read; a stop keeps them; r reads the whole day, which keeps its newest records', async () => {
  const store = makeStore();
  const s = () => store.getState();
  const seen: V1State[] = [];
  store.subscribe((now, before) => {
    if (now.v1 && now.v1 !== before.v1) seen.push(now.v1);
  });
  const detach = s().attach(String(zone.Id));
  after(detach);
  s().setViewport(100, 10);
  await openDay(store);

  // the first part is in the store and on screen while the rest has not come (following: the
  // newest read is shown once the frame after the last piece is drawn; a frame before it may still
  // show an earlier piece)
  const newestRead = all.entries[HELD_BACK_FROM - 1]!.requestId;
  const reading = await until('the first part shown, the newest read at the bottom', () =>
    s().v1?.loading && s().v1!.lines === HELD_BACK_FROM && s().view.rows.length === 10 && s().view.rows.at(-1)?.entry?.requestId === newestRead ? s().v1 : null,
  );
  assert.equal(reading.bytes, origin.headBytes);
  assert.equal(reading.totalBytes, origin.totalBytes);
  assert.equal(reading.kept, CAPACITY, 'the buffer holds its capacity');
  assert.equal(reading.evicted, HELD_BACK_FROM - CAPACITY);
  assert.ok(seen.some((v) => v.loading && v.lines > 0 && v.lines < HELD_BACK_FROM) || seen.length >= 2, 'progress is published as the day is read');

  // stop: what was read stays, the rest of the day is not read
  assert.equal(s().stopV1(), true);
  const stopped = await until('stopped', () => (s().v1 && !s().v1!.loading ? s().v1 : null));
  assert.equal(stopped.stopped, true);
  assert.equal(stopped.error, null);
  assert.equal(stopped.lines, HELD_BACK_FROM);
  assert.equal(s().recordBuffer().length, CAPACITY);
  assert.equal(s().stopV1(), false, 'nothing is being read any more');
  origin.release();

  // r: the day again, whole this time
  s().pollNow();
  await until('the first part again', () => s().v1?.loading && s().v1!.lines === HELD_BACK_FROM);
  origin.release();
  const done = await until('the whole day', () => (s().v1 && !s().v1!.loading ? s().v1 : null));
  assert.equal(origin.requests(), 2);
  assert.equal(done.stopped, false);
  assert.equal(done.lines, LINES);
  assert.equal(done.bytes, origin.totalBytes);
  assert.equal(done.kept, CAPACITY);
  assert.equal(done.evicted, LINES - CAPACITY);
  const held = s()
    .recordBuffer()
    .toArray()
    .map((e) => e.requestId);
  assert.deepEqual(
    held,
    all.entries.slice(LINES - CAPACITY).map((e) => e.requestId),
    'the newest records of the day are kept',
  );

  // a server filter applies to the day as it is read again
  s().openForm();
  s().focusField(FILTER_FIELDS.findIndex((f) => f.id === 'status'));
  s().setFormText(textOf('404'));
  assert.equal(s().applyForm(), true);
  await until('read again', () => s().v1?.loading && s().v1!.lines === HELD_BACK_FROM);
  origin.release();
  const filtered = await until('filtered day', () => (s().v1 && !s().v1!.loading ? s().v1 : null));
  assert.equal(origin.requests(), 3);
  assert.equal(filtered.kept, all.entries.filter((e) => e.statusCode === 404).length);
  assert.ok(
    s()
      .recordBuffer()
      .toArray()
      .every((e) => e.statusCode === 404),
  );
});
