import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { DatabaseSession } from '../../src/api/database/index';
import { resolveSettings } from '../../src/config/settings';

// `:sql` pages through a result larger than a pipeline answer may be; rendered in this process
// (was a pty test).

const ROWS = 120_000;

test(':sql shows a SELECT of more than 10 MB and browses to its last row', async () => {
  const emu = await useEmulator();
  const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  await db.execute('CREATE TABLE big_result (id INTEGER PRIMARY KEY, pad TEXT)');
  await db.execute(
    `INSERT INTO big_result WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${ROWS}) SELECT x, printf('%.90c', 'p') FROM c`,
  );
  await assert.rejects(db.execute('SELECT * FROM big_result'), /too large|RESPONSE_TOO_LARGE/i, 'the whole answer is past the pipeline limit');
  await db.close();

  const app = renderConsole(apiFor(emu), { cols: 100, rows: 30, styles: true, settings: resolveSettings({}, envFor(emu), {}) });
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
  await app.type('SELECT * FROM big_result;\r');
  await app.waitFor(/\|\s+1\s+\| p{20}/, 30_000);
  await app.waitFor(/120,000 rows(?! so far)/, 60_000);
  await app.press('esc');
  await app.waitFor(/rows 1–\d+ of 120,000/);
  await app.press('nav.bottom');
  const end = await app.waitFor(/\|\s+120000\s+\|\s+p{20}/, 60_000);
  assert.match(end, /rows \d+–120000 of 120,000/);
  assert.doesNotMatch(end, /RESPONSE_TOO_LARGE|too large/i);
  // back to the top: the first page is read again or kept
  await app.press('nav.top');
  await app.waitFor(/rows 1–\d+ of 120,000/);
  await app.waitFor(/\|\s+1\s+\|\s+p{20}/);
  app.unmount();
});
