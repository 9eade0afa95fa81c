import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { envFor, useEmulator } from '../helpers/emulator';

// `get -o csv|json|ndjson` are for programs: raw numbers, bytes as integers, full ISO UTC times.
// `-o table` is for people: the screen's cells (1.5 GiB, 12,345, a day in the display zone).

const emu = await useEmulator();
const home = mkdtempSync(path.join(os.tmpdir(), 'burrow-raw-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, TZ: 'Asia/Kolkata', ...envFor(emu) };
const burrow = async (...args: string[]) => {
  const r = await runBurrow(['get', ...args], { env, timeoutMs: 20_000 });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
};

interface Library {
  Id: number;
  VideoCount: number;
  StorageUsage: number;
  TrafficUsage: number;
  DateCreated: string;
}

/** Simple CSV (no quoted commas in these columns) as header -> value maps. */
function csvRecords(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trimEnd().split('\n');
  const headers = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [headers[i]!, v.replace(/^"|"$/g, '')])));
}

test('get video-libraries -o csv writes counts and bytes as integers and the creation time as full ISO UTC', async () => {
  const libs = JSON.parse(await burrow('video-libraries', '-o', 'json')) as Library[];
  const rows = csvRecords(await burrow('video-libraries', '-o', 'csv'));
  assert.equal(rows.length, libs.length);
  const big = libs.findIndex((l) => l.StorageUsage > 1024 ** 3 && l.VideoCount >= 1000);
  assert.ok(big >= 0, 'a library with GiB of storage and thousands of videos');
  const row = rows[big]!;
  const lib = libs[big]!;
  assert.equal(row.ID, String(lib.Id));
  assert.equal(row.STORAGE, String(lib.StorageUsage));
  assert.equal(row.TRAFFIC, String(lib.TrafficUsage));
  assert.equal(row.VIDEOS, String(lib.VideoCount));
  assert.equal(row.CREATED, new Date(lib.DateCreated).toISOString());
});

test('get video-libraries -o ndjson writes the records with raw values too', async () => {
  const lines = (await burrow('video-libraries', '-o', 'ndjson'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Library);
  assert.ok(lines.length > 0);
  for (const l of lines) {
    assert.equal(typeof l.StorageUsage, 'number');
    assert.match(l.DateCreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  }
});

test("get video-libraries -o table keeps the screen's cells: bytes in units, counts with separators", async () => {
  const libs = JSON.parse(await burrow('video-libraries', '-o', 'json')) as Library[];
  const table = await burrow('video-libraries');
  const big = libs.find((l) => l.StorageUsage > 1024 ** 3 && l.VideoCount >= 1000)!;
  const line = table.split('\n').find((l) => new RegExp(`\\s${big.Id}\\s`).test(l))!;
  assert.match(line, /\d+(\.\d)? (GiB|TiB)/);
  assert.match(line, /\d,\d{3}/);
  assert.doesNotMatch(line, new RegExp(String(big.StorageUsage)));
});

test('get limits -o csv leaves an unlimited maximum empty, as the JSON has it null', async () => {
  const rows = csvRecords(await burrow('limits', '-o', 'csv'));
  const limits = JSON.parse(await burrow('limits', '-o', 'json')) as Record<string, number | null>;
  const apps = rows.find((r) => r.LIMIT === 'applications')!;
  assert.equal(apps.MAX, limits.maxNumberOfApplications === null ? '' : String(limits.maxNumberOfApplications));
  assert.ok(rows.every((r) => r.MAX !== 'unlimited'));
});
