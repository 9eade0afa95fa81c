import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { maskSecret } from '../../src/config/redact';

// The raw record view (d) and wide mode (w) of the standalone SQL console (`burrow sql`), in a
// pseudo-terminal: it is its own entry point. The console's screens (videos, load balancers,
// logs) are tested in process: integration/console-raw-records-wide.test.ts.

const emu = await useEmulator();

test('SQL grid: d shows the top row as column names to values with the declared types, the password masked; w shows cells whole', async () => {
  const note = 'a note longer than the sixty cells a results column gets: ends with THE-END';
  const app = startBurrow(['sql'], { env: envFor(emu), cols: 90, rows: 24 });
  await app.waitFor(/^burrow-demo> /m);
  await app.type(`CREATE TABLE raw_accounts (id INTEGER PRIMARY KEY, name TEXT, password TEXT, note TEXT, big INTEGER);\r`);
  await app.waitFor(/^done/m);
  await app.type(`INSERT INTO raw_accounts VALUES (1, 'ann', 'hunter2-swordfish', '${note}', 9007199254740993), (2, 'bob', 'p4ssw0rd-bob', 'short', NULL);\r`);
  await app.waitFor('2 rows affected');
  await app.type('SELECT * FROM raw_accounts ORDER BY id;\r');
  await app.waitFor(/\(2 rows/);
  await app.press('esc');
  let screen = await app.waitFor(/rows 1–2 of 2/);
  assert.ok(!screen.includes('THE-END'), 'the note is cut at 60 cells');

  await app.press('list.raw');
  screen = await app.waitFor('Raw record · result row 1 of 2');
  assert.match(screen, /"values": \{/);
  assert.match(screen, /"id": 1,/);
  assert.match(screen, /"big": 9007199254740993/, 'a 64-bit integer exactly');
  assert.ok(screen.includes(`"password": "${maskSecret('hunter2-swordfish')}"`), screen);
  assert.ok(!screen.includes('hunter2'), 'the password is not on screen');
  assert.match(screen, /"declaredTypes": \{/);
  await app.press('nav.bottom');
  screen = await app.waitFor(/"note": "TEXT"/);
  assert.match(screen, /"big": "INTEGER"/);
  await app.press('record.close');
  await app.waitFor(/rows 1–2 of 2/);

  await app.press('list.wide');
  await app.waitFor(/· wide/);
  await app.press('list.right', 'list.right', 'list.right');
  screen = await app.waitFor(/column 4 of 5/);
  assert.ok(screen.includes(note), `the whole note in wide mode:\n${screen}`);
  await app.press('list.left');
  await app.waitFor(/column 3 of 5/);
  await app.press('sql.edit');
  await app.type('.quit\r');
  assert.equal((await app.exited).exitCode, 0);
});
