import { createWorld } from '../src/emulator/world';
import { pageRecords, toLogEntry } from '../src/emulator/logging/records';
import { TrafficStore } from '../src/emulator/logging/traffic';
const start = Date.now();
let now = start;
const world = createWorld({ seed: 1, logRate: 1000, now: () => now });
const zone = world.pullZones.find((z) => z.trafficWeight === 1)!;
const store = new TrafficStore(world);
const to = now, from = now - 3 * 3600_000;
const out: string[] = [];
for (let k = 0; k < 30; k++) {
  now += 300;
  const t0 = performance.now();
  const { page } = pageRecords(store, zone, { from, to, now, includeShield: false, order: 'desc', offset: k * 9999, limit: 10000 });
  const t1 = performance.now();
  const json = JSON.stringify({ data: page.map(toLogEntry) });
  const t2 = performance.now();
  out.push(`${k}:${(t1 - t0).toFixed(0)}+${(t2 - t1).toFixed(0)}(${store.cachedRecordCount})`);
}
console.log(out.join(' '));
