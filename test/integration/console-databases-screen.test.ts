import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@libsql/client';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand, tableRows } from '../helpers/pty';
import { resolveSettings } from '../../src/config/settings';
import type { RunningEmulator } from '../../src/emulator/server';

// The databases screen rendered in this process (was a pty test), with the settings the binary
// would resolve from the environment that points it at the emulator (its database included).
const settingsFor = (emu: RunningEmulator) => resolveSettings({}, envFor(emu), {});

test(":db lists the account's databases with regions, size and the rows they served; enter opens :sql on one", async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const dbs = await api.databases.list();
  // some reads and writes on the primary database, so its usage is not zero
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  await client.execute('SELECT id FROM customers ORDER BY id LIMIT 25');
  await client.batch(['CREATE TABLE screen_t (x)', 'INSERT INTO screen_t VALUES (1), (2)'], 'write');
  client.close();

  const app = renderConsole(api, { cols: 140, rows: 24, settings: settingsFor(emu) });
  await app.waitFor('Screens');
  await runCommand(app, 'db');
  const screen = await app.waitFor(`${dbs.length} databases`);
  const rows = tableRows(screen, 'NAME', ['NAME', 'REGIONS', 'SIZE', 'OF', 'READS 30D', 'WRITES 30D', 'ID']);
  for (const db of dbs)
    assert.ok(
      rows.some((r) => r.NAME === db.name && r.ID === db.id),
      `${db.name} is listed:\n${screen}`,
    );
  const demo = rows.find((r) => r.NAME === 'burrow-demo')!;
  assert.equal(demo.REGIONS, 'DE + NY, SG, UK');
  assert.match(demo.SIZE!, /^\d+(\.\d)? [KM]?B$/);
  assert.deepEqual([demo.OF, demo['READS 30D'], demo['WRITES 30D']], ['1024.0 MB', '25', '2'], 'maximum, 25 rows read and 2 written');

  // enter on another database: the SQL shell opens on it with a token made for the session
  await app.press('nav.down');
  await app.press('nav.down');
  await app.press('list.open');
  const sql = await app.waitFor(/^inventory-eu>/m);
  assert.match(sql, /full-access session token, expires 20\d\d-/);
  await app.type('SELECT count(*) AS n FROM warehouses;\r');
  await app.waitFor(/\|\s+n\s+\|/);
  // ctrl-c never leaves the SQL shell: ctrl-d does, then ctrl-c quits
  await app.press('ctrl-d');
  await app.waitForGone(/^inventory-eu>/m);
  await app.press('app.interrupt');
  await app.press('app.interrupt');
  await app.exited;
});

test(':db t: tokens made with an expiry and read-only; x invalidates every token after a diff', async () => {
  const emu = await useEmulator();
  const app = renderConsole(apiFor(emu), { cols: 120, rows: 30, settings: settingsFor(emu) });
  await app.waitFor('Screens');
  await runCommand(app, 'db');
  await app.waitFor(/\d+ databases/);
  // burrow-demo is the first row, selected
  await app.press('databases.tokens');
  await app.waitFor('Tokens of burrow-demo');
  await app.waitFor('no tokens made here yet');
  await app.press('databases.expiry');
  await app.waitFor('e expiry: 1 year');
  await app.press('databases.createReadOnlyToken');
  let screen = await app.waitFor('new read-only token (shown once, copy it now):');
  const year = new Date().getUTCFullYear() + 1;
  assert.match(screen, new RegExp(`^read-only\\s+expires ${year}-`, 'm'), 'listed with its expiry a year away');
  await app.press('databases.expiry');
  await app.waitFor('e expiry: never');
  await app.press('databases.createToken');
  screen = await app.waitFor('new full-access token (shown once, copy it now):');
  assert.match(screen, /^full-access\s+expires never$/m);

  // the ready line's token works until every token is invalidated
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  assert.equal((await client.execute('SELECT 1 AS one')).rows[0]!.one, 1);
  await app.press('databases.invalidate');
  screen = await app.waitFor('Invalidate every token of burrow-demo?');
  assert.match(screen, /burrow-demo tokens/);
  assert.match(screen, /valid \(2 made here, others unknown\)/);
  await app.press('confirm.yes');
  await app.waitFor('no tokens made here yet');
  await assert.rejects(client.execute('SELECT 1'), /401|JWT/);
  client.close();
  await app.press('app.back');
  await app.waitFor(/\d+ databases/);
  await app.press('app.quit');
  await app.exited;
});
