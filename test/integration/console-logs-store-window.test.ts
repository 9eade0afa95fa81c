import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clickhouseSkip, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { apiFor } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { openZone, selectedLogRow } from '../helpers/logs-screen';
import { until } from '../helpers/wait';
import { storeAt } from '../helpers/ship';
import { logEntry } from '../helpers/log-entry';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server';
import { pageLines } from '../../src/log-ship/page-lines';
import type { LogEntry } from '../../src/log-fields/fields';
import type { LogStore } from '../../src/log-ship/store';

/**
 * The logs screen opens a window past the platform's 3 days from the log store (burrow ship's
 * ClickHouse): through the filter form's from/to and through `@`, into the same columnar store,
 * with the server filters asked of ClickHouse. Rendered in this process (was the pty test
 * e2e/logs-screen-store-window).
 */
const skip = clickhouseSkip();
let ch: ClickHouseServer;
let emu: RunningEmulator;
let store: LogStore;
const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-screen-store-inproc-'));
let zone: number;
const MINUTE = 60_000;
/** Two past hours the platform no longer keeps: 5 and 4 days ago, whole minutes. */
const first = Math.floor((Date.now() - 5 * 86_400_000) / MINUTE) * MINUTE;
const second = Math.floor((Date.now() - 4 * 86_400_000) / MINUTE) * MINUTE;
const stored: LogEntry[] = [];

before(async () => {
  if (skip) return;
  ch = await startClickHouse();
  emu = await startEmulator({ seed: 3, port: 0, host: '127.0.0.1', logRate: 2 });
  zone = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!.Id;
  store = storeAt(ch.storeUrl);
  await store.prepare();
  let n = 0;
  for (const [start, count] of [
    [first, 240],
    [second, 90],
  ] as const) {
    for (let i = 0; i < count; i++) {
      n++;
      stored.push(
        logEntry({
          timestamp: new Date(start + i * 1500 + 7).toISOString(),
          pullZoneId: zone,
          requestId: n.toString(16).padStart(32, 'c'),
          statusCode: i % 4 === 0 ? 503 : 200,
          cacheStatus: 'MISS',
          edgeLocation: 'DE',
          scheme: 'https',
          host: 'old.example.com',
          path: `/archive/${n}`,
          url: `https://old.example.com/archive/${n}`,
        }),
      );
    }
  }
  const body = Buffer.from(JSON.stringify({ data: stored, pagination: { offset: 0, limit: 10000, returned: stored.length, hasMore: false } }));
  await store.insert(pageLines(body, zone, store.form).bytes);
});
after(async () => {
  await store?.close();
  await ch?.close();
  await emu?.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

/** "2026-11-22 14:05" in UTC (the console runs with TZ=UTC). */
const typed = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
const inWindow = (from: number, to: number, test: (e: LogEntry) => boolean = () => true) =>
  stored.filter((e) => Date.parse(e.timestamp) >= from && Date.parse(e.timestamp) < to && test(e)).length;

test(
  'the filter form reaches past 3 days with a store: the window is read from it, filtered by ClickHouse; @ opens the hour around an old time',
  { skip },
  async () => {
    const app = renderConsole(apiFor(emu), { cols: 140, rows: 30, cwd, styles: true, env: { TZ: 'UTC' }, settings: { logStore: ch.storeUrl } });
    await openZone(app, zone, /● following/, 20_000);
    await app.press('logs.filters');
    await app.waitFor('Server filters');
    for (let i = 0; i < 9; i++) await app.press('tab');
    await app.waitFor(/› from \(time\)/);
    const to = first + 4 * MINUTE;
    await app.type(typed(first));
    await app.press('tab');
    await app.type(typed(to));
    await app.press('prompt.apply');
    let screen = await app.waitFor(/■ window from the log store \(not following\) · [\d,]+ records/, 30_000);
    const count = (s: string) => Number(/■ window from the log store \(not following\) · ([\d,]+) records/.exec(s)![1]!.replace(/,/g, ''));
    assert.equal(count(screen), inWindow(first, to), 'every stored record of the window');
    assert.match(screen, /\/archive\/\d+/, 'its rows are drawn');

    // a server filter: read again, ClickHouse filtering
    await app.press('logs.filters');
    await app.waitFor(/› status/);
    await app.type('5xx');
    await app.press('prompt.apply');
    await app.waitFor(/server: status=5xx/, 15_000);
    screen = await app.waitFor(
      new RegExp(`■ window from the log store \\(not following\\) · ${inWindow(first, to, (e) => e.statusCode >= 500)} records`),
      30_000,
    );
    assert.doesNotMatch(screen, / 200 /, 'no 200 rows');

    // @ to a time 4 days ago: not held, past the retention: the hour around it from the store
    await app.press('logs.timeJump');
    await app.waitFor(/jump to time/);
    await app.type(typed(second + 30 * 1500));
    await app.press('prompt.apply');
    const around = second + 30 * 1500;
    const held = inWindow(around - 30 * MINUTE, around + 30 * MINUTE, (e) => e.statusCode >= 500);
    await app.waitFor(new RegExp(`■ window from the log store \\(not following\\) · (?:❚❚ paused · )?${held} records`), 30_000);

    // the time asked for is selected: the first (5xx) record at or after it
    const want = new Date(second + 7).toISOString().slice(11, 23);
    await until('the record at the time asked for selected', () => selectedLogRow(app)?.TIME === want, 10_000);
    assert.equal(selectedLogRow(app)?.ST, '503', 'a record the server filter let through');

    // the same columnar store as live records: SQL (Q) counts what was read
    await app.press('logs.sql');
    await app.waitFor(/^logs>/m, 20_000);
    await app.type('SELECT count(*) AS stored_n, min(status) AS lowest FROM logs;\r');
    const answer = await app.waitFor(/\|\s+stored_n\s+\|[^\n]*\n[^\n]*\n\|\s+\d+\s+\|\s+\d+\s+\|/, 20_000);
    const [, n, lowest] = /\|\s+stored_n\s+\|[^\n]*\n[^\n]*\n\|\s+(\d+)\s+\|\s+(\d+)\s+\|/.exec(answer)!;
    assert.equal(Number(n), held);
    assert.equal(Number(lowest), 503, 'only the 5xx the server filter let through');
    app.unmount();
  },
);
