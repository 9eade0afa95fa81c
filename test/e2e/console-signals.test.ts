import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { runCommand, startBurrow } from '../helpers/pty';

// An SSH disconnect (SIGHUP) while the SQL shell or the live log tail is busy: the terminal is
// restored (alternate screen left, cursor shown, raw mode off) and burrow exits 129.

const RESTORED_AT_END = /\x1b\[\?1049l(\x1b\[\?25h)+$/;
const emu = await useEmulator({ logRate: 3, ingestDelayMs: 300 });

test('SIGHUP on the SQL shell with a transaction open restores the terminal', async () => {
  const app = startBurrow([], { env: envFor(emu, { BURROW_SQL_KEEPALIVE_MS: '300' }) });
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor('burrow-demo>');
  await app.type("BEGIN; INSERT INTO products (sku, name, price) VALUES ('SKU-HUP', 'hup', 1);\r");
  await app.waitFor(/TX open|transaction/i);
  app.kill('SIGHUP');
  const exit = await app.exited;
  assert.equal(exit.exitCode, 129);
  assert.match(app.rawOutput(), RESTORED_AT_END);
});

test('SIGHUP while following logs restores the terminal', async () => {
  const app = startBurrow([], { env: envFor(emu) });
  await app.waitFor('Screens');
  await runCommand(app, `logs ${emu.info.pullZoneIds[0]}`);
  await app.waitFor(/● following/);
  await app.waitFor(/\d\d:\d\d:\d\d\.\d{3} \d{3} /);
  app.kill('SIGHUP');
  const exit = await app.exited;
  assert.equal(exit.exitCode, 129);
  assert.match(app.rawOutput(), RESTORED_AT_END);
});

test('SIGHUP on the standalone SQL shell (burrow sql) restores the terminal', async () => {
  const app = startBurrow(['sql'], { env: envFor(emu) });
  await app.waitFor('burrow-demo>');
  await app.type('SELECT 1;\r');
  await app.waitFor(/\(1 row/);
  app.kill('SIGHUP');
  const exit = await app.exited;
  assert.equal(exit.exitCode, 129);
  assert.match(app.rawOutput(), RESTORED_AT_END);
});
