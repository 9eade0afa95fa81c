import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, settingsFromConfig } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { SCREENS } from '../../src/app/screens';
import { createApi } from '../../src/api/index';

// The shell when the platform goes away, and keys from the config file, rendered in this process
// (was a pty test) with settings read by the real config loader.

/** Rows of the home screen's table: every screen but home itself. */
const HOME_ROWS = SCREENS.length - 1;

/** A TCP forwarder in front of the emulator that can be switched off (connection refused) and on. */
class Switch {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: number) {}

  async on(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async off(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('the platform goes away: the screen keeps the last limits and shows the error, then recovers', async () => {
  const emu = await useEmulator();
  const gate = new Switch(Number(new URL(emu.info.baseUrl).port));
  await gate.on();
  after(() => gate.off());
  const api = createApi({ baseUrl: `http://127.0.0.1:${gate.port}`, loggingUrl: emu.info.loggingUrl, apiKey: emu.info.accessKey });
  after(() => api.close());
  const app = renderConsole(api, { cols: 80, rows: 24, settings: await settingsFromConfig('refreshSeconds: 1\n') });
  await app.waitFor('Screens');
  await runCommand(app, 'mc');
  const limitsLine = (await app.waitFor(/applications\s+\S+ (\d+ \/ \d+)/)).match(/applications\s+\S+ (\d+ \/ \d+)/)![1]!;

  await gate.off();
  const failing = await app.waitFor('refresh failed, showing the last data', 15_000);
  assert.ok(failing.includes(limitsLine), 'the last limits are still on screen');
  assert.match(failing, /connection refused/, 'the error says what happened');
  assert.match(failing, /✖ GET \/mc\/limits: connection refused/, 'the status bar shows the request error');

  await gate.on();
  const back = await app.waitForGone('refresh failed', 15_000);
  assert.doesNotMatch(back, /✖/, 'the status bar error is gone after the next success');
  assert.match(back, /refreshed [0-2]s ago/);

  // p pauses live refresh (shown in the status bar), r refreshes at once
  await app.press('screen.pause');
  await app.waitFor(/paused · refreshed/);
  await app.press('screen.pause');
  await app.waitForGone('paused');
  await app.press('app.quit');
  await app.exited;
});

test('keys from the config file: an override works, a bad entry is a warning, not a crash', async () => {
  const emu = await useEmulator();
  // J is no other action's key, so the override moves nothing and only the two bad entries warn.
  const settings = await settingsFromConfig(['keys:', '  nav.down: ["J"]', '  no.such.action: ["x"]', '  nav.up: ["k", "hyper-k"]', ''].join('\n'));
  const app = renderConsole(apiFor(emu), { cols: 80, rows: 24, settings });
  await app.waitFor(`1 of ${HOME_ROWS}`);
  await app.waitFor(/2 warnings \(all in \? help\): keys: unknown action "no\.such\.action"/);
  await app.press('J');
  await app.waitFor(`2 of ${HOME_ROWS}`);
  // j is no longer a key for anything: k from row 2 lands on row 1 only if j moved nothing
  await app.press('j');
  await app.press('k');
  await app.waitFor(`1 of ${HOME_ROWS}`);
  await app.press('app.help');
  const help = await app.waitFor('Tables');
  assert.match(help, /^\s+J\s+move down$/m, 'help shows the overridden key');
  assert.match(help, /^Warnings$/m);
  assert.match(help, /"hyper-k" for nav\.up is not a key name/);
  await app.press('help.close');
  await app.press('app.quit');
  await app.exited;
});
