import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'undici';
import { BURROW_BIN } from '../helpers/pty';

// `burrow emulator --clock-start`: the emulator's time starts there, so its log records carry it.
test("--clock-start pins the emulator's clock: the records it serves are from that time", async () => {
  const child = spawn(process.execPath, [BURROW_BIN, 'emulator', '--seed', '4', '--clock-start', '2026-03-02T10:00:00Z'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  try {
    const info = await new Promise<{ loggingUrl: string; accessKey: string; pullZoneIds: number[] }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
      });
      child.on('exit', (code) => reject(new Error(`emulator exited ${code}`)));
    });
    const res = await request(`${info.loggingUrl}/v2/pullzones/${info.pullZoneIds[0]}/logs?limit=5`, { headers: { AccessKey: info.accessKey } });
    const body = (await res.body.json()) as { data: { timestamp: string }[]; query: { to: string } };
    assert.equal(res.statusCode, 200);
    assert.match(body.query.to, /^2026-03-02T10:00:/, 'the server\'s "now" is the pinned time');
    assert.ok(body.data.length === 5 && body.data.every((r) => r.timestamp.startsWith('2026-03-02T')), JSON.stringify(body.data.map((r) => r.timestamp)));
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
  }
});
