import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorld } from '../../src/emulator/world';
import { generatedLogRecords } from '../../src/emulator/logging/index';
import { formatV1Line, v1Date } from '../../src/api/logs/v1';
import type { LogEntry } from '../../src/api/logs/entry';

/**
 * A v1 day file of RECORDS lines for the v1 benchmark, made once per machine in the temp
 * directory (BENCH_V1_FRESH=1 makes it again): the busiest emulated zone's records (200/s for
 * 20 minutes, about 250,000 distinct ones) spread over the day, repeated with new request ids
 * and times until the day has RECORDS lines, in time order, as the v1 route writes them.
 */
export interface V1Day {
  file: string;
  zoneId: number;
  /** MM-dd-yy. */
  date: string;
  dayStart: number;
  records: number;
  bytes: number;
}

export const DAY_START = Date.UTC(2026, 7, 7);

export function v1Day(records: number): V1Day {
  const dir = path.join(os.tmpdir(), `burrow-bench-v1-${records}`);
  const manifest = path.join(dir, 'manifest.json');
  if (!process.env.BENCH_V1_FRESH && fs.existsSync(manifest)) return JSON.parse(fs.readFileSync(manifest, 'utf8')) as V1Day;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const now = DAY_START + 86_400_000;
  const world = createWorld({ seed: 7, logRate: 200, now: () => now });
  const zone = world.pullZones.find((z) => z.EnableLogging && z.trafficWeight === 1)!;
  const base = generatedLogRecords(world, zone.Id, now - 20 * 60_000, now) as unknown as LogEntry[];
  const file = path.join(dir, 'day.log');
  const fd = fs.openSync(file, 'w');
  const step = 86_400_000 / records;
  let batch: string[] = [];
  let bytes = 0;
  for (let i = 0; i < records; i++) {
    const b = base[i % base.length]!;
    const e: LogEntry = {
      ...b,
      pullZoneId: zone.Id,
      timestamp: new Date(DAY_START + Math.floor(i * step)).toISOString(),
      requestId: `${(b.requestId ?? '0'.repeat(32)).slice(0, 24)}${i.toString(16).padStart(8, '0')}`,
    };
    batch.push(formatV1Line(e));
    if (batch.length === 10_000 || i === records - 1) {
      const text = `${batch.join('\n')}\n`;
      bytes += Buffer.byteLength(text);
      fs.writeSync(fd, text);
      batch = [];
    }
  }
  fs.closeSync(fd);
  const day: V1Day = { file, zoneId: zone.Id, date: v1Date(DAY_START), dayStart: DAY_START, records, bytes };
  fs.writeFileSync(manifest, JSON.stringify(day));
  return day;
}
