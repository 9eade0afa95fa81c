import { startEmulator } from '../src/emulator/server';
import { runInPty } from './lib/pty-screen';
import fs from 'node:fs';
const emu = await startEmulator({ port: 0, logRate: 1 });
const env = { BURROW_API_KEY: emu.info.accessKey, BURROW_BASE_URL: emu.info.baseUrl, BURROW_LOGGING_URL: emu.info.loggingUrl, XDG_CACHE_HOME: '/tmp/cc-t', TLOG: '/tmp/TC.log', NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '' };
for (let i = 0; i < 4; i++) {
  fs.rmSync('/tmp/TC.log', { force: true });
  const t0 = performance.now();
  const run = runInPty(process.execPath, ['bin/burrow.js'], env, 120, 40);
  const at = await run.waitFor(/Screens[\s\S]*q quit/);
  await new Promise((r) => setTimeout(r, 1500));
  run.pty.write('q');
  await new Promise((r) => run.pty.onExit(() => r(undefined)));
  console.log('frame', (at - t0).toFixed(0), fs.readFileSync('/tmp/TC.log', 'utf8').replace(/\n/g, ' | '));
}
await emu.close();
