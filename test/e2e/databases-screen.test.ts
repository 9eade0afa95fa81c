import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '@libsql/client';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { runCommand, startBurrow } from '../helpers/pty';

test(':db lists the account\'s databases with regions, size and the rows they served; enter opens :sql on one', async () => {
  const emu = await useEmulator();
  const dbs = await apiFor(emu).databases.list();
  // some reads and writes on the primary database, so its usage is not zero
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  await client.execute('SELECT id FROM customers ORDER BY id LIMIT 25');
  await client.batch(['CREATE TABLE screen_t (x)', 'INSERT INTO screen_t VALUES (1), (2)'], 'write');
  client.close();

  const app = startBurrow([], { env: envFor(emu), cols: 140, rows: 24 });
  await app.waitFor('Screens');
  await runCommand(app, 'db');
  const screen = await app.waitFor(`${dbs.length} databases`);
  for (const db of dbs) assert.ok(screen.split('\n').some((l) => l.startsWith(db.name) && l.includes(db.id)), `${db.name} is listed`);
  const demo = screen.split('\n').find((l) => l.startsWith('burrow-demo'))!;
  assert.match(demo, /\sDE \+ NY, SG, UK\s/);
  assert.match(demo, /\s\d+(\.\d)? [KM]?B\s+1024\.0 MB\s+25\s+2\s+db_/, 'size, maximum, 25 rows read and 2 written');

  // enter on another database: the SQL shell opens on it with a token made for the session
  await app.press('down');
  await app.press('down');
  await app.press('enter');
  const sql = await app.waitFor(/^inventory-eu>/m);
  assert.match(sql, /full-access session token, expires 20\d\d-/);
  await app.type('SELECT count(*) AS n FROM warehouses;\r');
  await app.waitFor(/\|\s+n\s+\|/);
  // ctrl-c never leaves the SQL shell: ctrl-d does, then ctrl-c quits
  await app.press('ctrl-d');
  await app.waitForGone(/^inventory-eu>/m);
  await app.press('ctrl-c');
  await app.press('ctrl-c');
  await app.exited;
});

test(':db t: tokens made with an expiry and read-only; x invalidates every token after a diff', async () => {
  const emu = await useEmulator();
  const app = startBurrow([], { env: envFor(emu), cols: 120, rows: 30 });
  await app.waitFor('Screens');
  await runCommand(app, 'db');
  await app.waitFor(/\d+ databases/);
  // burrow-demo is the first row, selected
  await app.press('t');
  await app.waitFor('Tokens of burrow-demo');
  await app.waitFor('no tokens made here yet');
  await app.press('e');
  await app.waitFor('e expiry: 1 year');
  await app.press('o');
  let screen = await app.waitFor('new read-only token (shown once, copy it now):');
  const year = new Date().getUTCFullYear() + 1;
  assert.match(screen, new RegExp(`^read-only\\s+expires ${year}-`, 'm'), 'listed with its expiry a year away');
  await app.press('e');
  await app.waitFor('e expiry: never');
  await app.press('c');
  screen = await app.waitFor('new full-access token (shown once, copy it now):');
  assert.match(screen, /^full-access\s+expires never$/m);

  // the ready line's token works until every token is invalidated
  const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  assert.equal((await client.execute('SELECT 1 AS one')).rows[0]!.one, 1);
  await app.press('x');
  screen = await app.waitFor('Invalidate every token of burrow-demo?');
  assert.match(screen, /burrow-demo tokens/);
  assert.match(screen, /valid \(2 made here, others unknown\)/);
  await app.press('y');
  await app.waitFor('no tokens made here yet');
  await assert.rejects(client.execute('SELECT 1'), /401|JWT/);
  client.close();
  await app.press('esc');
  await app.waitFor(/\d+ databases/);
  await app.press('q');
  await app.exited;
});
