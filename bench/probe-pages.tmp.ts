import { startEmulatorChild } from './lib/emulator-child';
import { createApi } from '../src/api/index';
const emu = await startEmulatorChild(['--seed', '1', '--log-rate', '1000']);
const api = createApi({ baseUrl: emu.info.baseUrl, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
const zone = emu.info.pullZoneIds[0]!;
const now = Date.now();
const from = now - 3 * 3600_000;
// raw fetch timing (server + transfer), then client read
for (let k = 0; k < 4; k++) {
  const url = `${emu.info.loggingUrl}/v2/pullzones/${zone}/logs?from=${new Date(from).toISOString()}&to=${new Date(now).toISOString()}&order=desc&offset=${k * 10000}&limit=10000`;
  const t0 = performance.now();
  const r = await fetch(url, { headers: { AccessKey: emu.info.accessKey } });
  const buf = Buffer.from(await r.arrayBuffer());
  const t1 = performance.now();
  console.log('raw', r.status, buf.length, (t1 - t0).toFixed(0), 'ms');
}
for (let k = 0; k < 4; k++) {
  const t0 = performance.now();
  const p = await api.logs.query(zone, { from: new Date(from), to: new Date(now), order: 'desc', offset: 40000 + k * 10000, limit: 10000 });
  console.log('api', p.entries.length, (performance.now() - t0).toFixed(0), 'ms');
}
// 3 concurrent
const t0 = performance.now();
await Promise.all([0, 1, 2].map((k) => api.logs.query(zone, { from: new Date(from), to: new Date(now), order: 'desc', offset: 100000 + k * 10000, limit: 10000 })));
console.log('3 concurrent', (performance.now() - t0).toFixed(0), 'ms');
await api.close();
await emu.stop();
