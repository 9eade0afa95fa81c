// Writes the busiest emulated zone's records as v2 page bodies (exactly as the emulator's route
// writes them: JSON.stringify of {data, pagination, query}) to stdout, each with its byte length in
// front (4 bytes, big-endian), oldest first, 10,000 records a page:
//   node --import tsx bench/log-pages-child.ts RECORDS
// The generator runs here, so its heap is not the measured process's (bench/log-store-run.ts).
import { createWorld } from '../src/emulator/world';
import { generatedLogRecords } from '../src/emulator/logging/index';

const RECORDS = Number(process.argv[2] ?? 2_000_000);
const PAGE = 10_000;
const now = Date.UTC(2026, 7, 8, 14, 0, 0);
const world = createWorld({ seed: 7, logRate: Math.ceil(RECORDS / 7000), now: () => now });
const zone = world.pullZones.find((z) => z.EnableLogging && z.trafficWeight === 1)!;
const query = JSON.stringify({ pullZoneId: zone.Id, from: new Date(now - 2 * 3_600_000).toISOString(), to: new Date(now).toISOString(), order: 'asc' });

const write = (body: string) =>
  new Promise<void>((resolve) => {
    const bytes = Buffer.from(body);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(bytes.length);
    process.stdout.write(head);
    if (process.stdout.write(bytes)) resolve();
    else process.stdout.once('drain', resolve);
  });

let window: string[] = [];
let offset = 0;
let taken = 0;
for (let t = now - 2 * 3_600_000; taken < RECORDS && t < now; t += 60_000) {
  for (const r of generatedLogRecords(world, zone.Id, t, t + 60_000)) {
    if (taken === RECORDS) break;
    window.push(JSON.stringify(r));
    taken++;
    if (window.length === PAGE || taken === RECORDS) {
      const last = taken === RECORDS;
      await write(
        `{"data":[${window.join(',')}],"pagination":${JSON.stringify({ offset, limit: PAGE, returned: window.length, hasMore: !last })},"query":${query}}`,
      );
      offset += window.length;
      window = [];
    }
  }
}
if (taken < RECORDS) throw new Error(`the generator gave only ${taken} records`);
process.stdout.end();
