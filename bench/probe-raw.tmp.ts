import { startEmulatorChild } from './lib/emulator-child';
const emu = await startEmulatorChild(['--seed', '1', '--log-rate', '1000']);
const zone = emu.info.pullZoneIds[0]!;
const now = Date.now();
const from = now - 3 * 3600_000;
const times: number[] = [];
const T = performance.now();
for (let k = 0; k < 30; k++) {
  const url = `${emu.info.loggingUrl}/v2/pullzones/${zone}/logs?from=${new Date(from).toISOString()}&to=${new Date(now).toISOString()}&order=desc&offset=${k * 9999}&limit=10000`;
  const t0 = performance.now();
  const r = await fetch(url, { headers: { AccessKey: emu.info.accessKey } });
  await r.arrayBuffer();
  times.push(Math.round(performance.now() - t0));
}
console.log(times.join(' '), 'total', Math.round(performance.now() - T));
await emu.stop();
