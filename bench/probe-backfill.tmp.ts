import { startEmulatorChild } from './lib/emulator-child';
import { createApi } from '../src/api/index';
import type { LogEntry } from '../src/api/logs/entry';
import type { FollowSink } from '../src/api/logs/follow';
class CountingSink implements FollowSink {
  private readonly ids = new Set<string>();
  version = 0; dropped = 0; duplicates = 0; readonly capacity = 50_000_000; readonly evictedUpTo = Number.NEGATIVE_INFINITY;
  get length() { return this.ids.size; }
  has(key: string) { return this.ids.has(key); }
  insert(batch: readonly LogEntry[], times: ArrayLike<number>, added: LogEntry[], addedTimes: number[]): number {
    let n = 0;
    for (let i = 0; i < batch.length; i++) { const id = batch[i]!.requestId!; if (this.ids.has(id)) { this.duplicates++; continue; } this.ids.add(id); added.push(batch[i]!); addedTimes.push(times[i]!); n++; }
    if (n) this.version++;
    return n;
  }
}
const emu = await startEmulatorChild(['--seed', '1', '--log-rate', '1000']);
const api = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
const zone = emu.info.pullZoneIds[0]!;
const T0 = performance.now();
const ms = () => (performance.now() - T0).toFixed(0);
const orig = api.logs.query.bind(api.logs);
let n = 0;
(api.logs as any).query = async (z: number, q: any, o: any) => {
  const k = n++;
  console.log(ms(), 'ask', k, q.offset, q.limit);
  const p = await orig(z, q, o);
  console.log(ms(), 'got', k, p.entries.length);
  return p;
};
const origAcq = api.logs.budget.acquire.bind(api.logs.budget);
(api.logs.budget as any).acquire = async (key: string, s: any) => { const d = await origAcq(key, s); console.log(ms(), 'granted'); return d; };
const pr = api.logs.pages as any; const origRead = pr.read.bind(pr);
pr.read = async (b: any) => { const t0 = performance.now(); const r = await origRead(b); console.log(ms(), 'decoded in', (performance.now()-t0).toFixed(0)); return r; };
const engine = api.logs.follow({ zones: [zone], sinceMs: 3 * 3_600_000, buffer: new CountingSink() });
engine.start();
await new Promise((r) => setTimeout(r, Number(process.env.SECS ?? 15) * 1000));
const p = engine.status().zones[0]!.backfill;
console.log('records', p?.records, 'pages', p?.pages);
await engine.stop(); await api.close(); await emu.stop();
