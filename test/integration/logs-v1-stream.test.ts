import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { useEmulator } from '../helpers/emulator';
import { HttpClient } from '../../src/api/http';
import { LogsApi, type LogEntry } from '../../src/api/logs/index';
import { LogPageReader } from '../../src/log-engine/page-reader';
import { parseV1, v1Date } from '../../src/api/logs/v1';
import { EmulatorClock } from '../../src/emulator/clock';

// A v1 day read as a stream has no whole-body cap: with the client's cap lowered far below the
// day's size, a whole-body request fails and the stream still hands over every record, in order.

const clock = new EmulatorClock(Date.parse('2026-03-02T10:00:00Z'));
const emu = await useEmulator({ seed: 3, logRate: 4, now: clock.now });
const zone = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const day = v1Date(clock.now() - 86_400_000);
const CAP = 256 * 1024;

function logsWith(reader: LogPageReader): { logs: LogsApi; http: HttpClient } {
  const http = new HttpClient({ baseUrl: emu.info.loggingUrl, auth: () => ({ AccessKey: emu.info.accessKey }), maxRetries: 0, maxResponseBytes: CAP });
  after(async () => {
    await http.close();
    await reader.close();
  });
  return { logs: new LogsApi(http, { pageReader: reader, now: emu.world.now, budgetOptions: { now: Date.now } }), http };
}

const raw = await request(`${emu.info.loggingUrl}/${day}/${zone.Id}.log?order=asc`, { headers: { AccessKey: emu.info.accessKey } });
const text = await raw.body.text();
const expected = parseV1(text, zone.Id);
const key = (e: LogEntry) => JSON.stringify(e);

test('the day is larger than the cap: a whole-body request is refused, the stream reads every record in file order', async () => {
  assert.ok(Buffer.byteLength(text) > 4 * CAP, `the day is ${Buffer.byteLength(text)} bytes`);
  assert.ok(expected.entries.length > 1000);
  // worker threads for pieces of 64 KiB and more; pieces of 128 KiB: many pieces, lines cut at their ends
  const { logs, http } = logsWith(new LogPageReader({ workerThreshold: 64 * 1024 }));
  await assert.rejects(http.request(`/${day}/${zone.Id}.log`, { expect: 'text', query: { order: 'asc' } }), /answered with a body larger than 256 KiB/);
  const got: LogEntry[] = [];
  const times: number[] = [];
  let pieces = 0;
  let lastBytes = 0;
  let total: number | null = null;
  const done = await logs.v1Stream(zone.Id, day, {
    order: 'asc',
    pieceBytes: 128 * 1024,
    onStart: (p) => {
      total = p.totalBytes;
    },
    onPiece: (piece, progress) => {
      pieces++;
      assert.ok(progress.bytes >= lastBytes, 'progress only grows');
      lastBytes = progress.bytes;
      got.push(...piece.batch.entries());
      times.push(...piece.times);
    },
  });
  assert.ok(pieces >= 4, `${pieces} pieces`);
  assert.equal(total, Buffer.byteLength(text));
  assert.equal(done.bytes, Buffer.byteLength(text));
  assert.equal(done.lines, expected.lines);
  assert.equal(got.length, expected.entries.length);
  assert.deepEqual(got.map(key), expected.entries.map(key));
  assert.deepEqual(times, expected.times);
});

test('read on the main thread (no worker thread) the same day gives the same records', async () => {
  const { logs } = logsWith(new LogPageReader({ workerThreshold: Number.POSITIVE_INFINITY }));
  const day1 = await logs.v1Day(zone.Id, day, { order: 'asc' });
  assert.deepEqual(day1.entries.map(key), expected.entries.map(key));
  assert.equal(day1.skipped, 0);
});

test('a stopped stream ends with an aborted error and hands over nothing more', async () => {
  const { logs } = logsWith(new LogPageReader({ workerThreshold: 64 * 1024 }));
  const ctl = new AbortController();
  let pieces = 0;
  await assert.rejects(
    logs.v1Stream(zone.Id, day, {
      order: 'asc',
      pieceBytes: 64 * 1024,
      signal: ctl.signal,
      onPiece: () => {
        pieces++;
        if (pieces === 2) ctl.abort();
      },
    }),
    (e: unknown) => (e as { kind?: string }).kind === 'aborted',
  );
  assert.ok(pieces >= 2 && pieces <= 4, `${pieces} pieces before the stop took hold`);
});
