import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorld } from '../../src/emulator/world';
import { generatedLogRecords } from '../../src/emulator/logging/index';

/**
 * Log records in the v2 JSON shape, as files, for the engine benchmark: pages of 10,000 records
 * exactly as the emulator's v2 route writes them (JSON.stringify of {data, pagination, query}),
 * each page repeating the last 1,000 records of the one before (10% overlap, as overlapping polls
 * give), and the same rows as NDJSON for jq. Generated once per machine into the temp directory
 * (a few seconds) and reused; BENCH_LOG_DATA_FRESH=1 regenerates.
 */
export interface LogData {
  dir: string;
  pages: string[];
  ndjson: string;
  /** Distinct records. */
  records: number;
  /** Rows in all pages (records + overlap). */
  rows: number;
  bytes: number;
}

export const PAGE_SIZE = 10_000;
export const OVERLAP = 1_000;

export function logData(records = 1_000_000): LogData {
  const dir = path.join(os.tmpdir(), `burrow-bench-logs-${records}`);
  const manifest = path.join(dir, 'manifest.json');
  if (!process.env.BENCH_LOG_DATA_FRESH && fs.existsSync(manifest)) return JSON.parse(fs.readFileSync(manifest, 'utf8')) as LogData;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const now = Date.UTC(2026, 7, 8, 14, 0, 0);
  const world = createWorld({ seed: 7, logRate: 200, now: () => now });
  const zone = world.pullZones.find((z) => z.EnableLogging && z.trafficWeight === 1)!;
  const nd = fs.openSync(path.join(dir, 'rows.ndjson'), 'w');
  const pages: string[] = [];
  let window: string[] = [];
  let offset = 0;
  let rows = 0;
  let bytes = 0;
  let taken = 0;
  const flush = (last: boolean) => {
    const body = `{"data":[${window.join(',')}],"pagination":${JSON.stringify({ offset, limit: PAGE_SIZE, returned: window.length, hasMore: !last })},"query":${JSON.stringify({ pullZoneId: zone.Id, from: new Date(now - 2 * 3_600_000).toISOString(), to: new Date(now).toISOString(), order: 'asc' })}}`;
    const file = path.join(dir, `page-${String(pages.length).padStart(4, '0')}.json`);
    fs.writeFileSync(file, body);
    fs.writeSync(nd, `${window.join('\n')}\n`);
    pages.push(file);
    rows += window.length;
    bytes += Buffer.byteLength(body);
    offset += window.length - OVERLAP;
    window = window.slice(-OVERLAP);
  };
  for (let t = now - 2 * 3_600_000; taken < records && t < now; t += 60_000) {
    for (const r of generatedLogRecords(world, zone.Id, t, t + 60_000)) {
      if (taken === records) break;
      window.push(JSON.stringify(r));
      taken++;
      if (window.length === PAGE_SIZE) flush(false);
    }
  }
  if (taken < records) throw new Error(`the generator gave only ${taken} records`);
  if (window.length > OVERLAP) flush(true);
  fs.closeSync(nd);
  const data: LogData = { dir, pages, ndjson: path.join(dir, 'rows.ndjson'), records: taken, rows, bytes };
  fs.writeFileSync(manifest, JSON.stringify(data));
  return data;
}
