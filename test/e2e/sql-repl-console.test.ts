import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { type ExitInfo, type PtySession, runCommand, startBurrow } from '../helpers/pty';
import { DatabaseSession } from '../../src/api/database/index';

// `:sql` inside the console (npm run build first).

function exited(app: PtySession): Promise<ExitInfo> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running; the screen is:\n${app.screenText()}`)), 8000);
  });
  return Promise.race([app.exited, late]).finally(() => clearTimeout(timer));
}

async function openSql(app: PtySession): Promise<void> {
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
}

test(":sql on the console's own emulator: Ctrl-C cancels a long query and the shell stays; leaving asks about the open transaction", async () => {
  // no credentials: the console starts the emulator as a child process, so a query that keeps
  // the database busy cannot freeze this test
  const app = startBurrow([], { cols: 100, rows: 30 });
  await openSql(app);
  assert.match(app.lines()[0]!, /EMULATOR.* sql$/, 'breadcrumbs end in sql');

  await app.type('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) AS n FROM c;\r');
  await app.waitFor(/running \d+\.\d s… ctrl-c cancels/);
  await app.press('ctrl-c');
  await app.waitFor(/^cancelled$/m);
  await app.waitForGone(/running \d/);
  await app.type('SELECT 6 * 7 AS answer;\r');
  const after = await app.waitFor(/\|\s+42\s+\|/, 20_000);
  assert.doesNotMatch(after, /\|\s+20000000\s+\|/, 'the cancelled query shows no result');
  assert.match(after, /^cancelled\n\nburrow-demo> SELECT 6 \* 7/m, 'cancelled, then the next input ran');

  // the transaction outlives a visit elsewhere; esc from the results asks before leaving
  await app.type('CREATE TABLE repl_console (a); BEGIN; INSERT INTO repl_console VALUES (1);\r');
  await app.waitFor(/TX open/);
  await app.press('esc');
  await app.waitFor(/rows 1–1 of 1|lines/);
  await app.press('esc');
  await app.waitFor('c commit · r roll back · s stay');
  await app.press('r');
  await app.waitFor(/Screens/);
  assert.match(app.lines()[0]!, /home$/, 'back on the home screen after the rollback');
  await runCommand(app, 'sql');
  await app.waitFor(/^rolled back$/m);
  assert.match(app.screenText(), /\|\s+42\s+\|/, 'the transcript is kept between visits');
  await app.type('SELECT count(*) AS left_over FROM repl_console;\r');
  await app.waitFor(/left_over[\s\S]*\|\s+0\s+\|/);

  // quitting with a transaction open asks too; commit, then the console quits
  await app.type('BEGIN; INSERT INTO repl_console VALUES (2);\r');
  await app.waitFor(/TX open/);
  await app.press('esc');
  await app.press('q');
  await app.waitFor('c commit · r roll back · s stay');
  await app.press('c');
  assert.equal((await exited(app)).exitCode, 0);
});

test(':sql against a configured database: multi-line input, completion, history, READ-ONLY badge', async () => {
  const emu = await useEmulator();
  const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  const products = (await db.execute('SELECT count(*) FROM products')).rows[0]![0];
  await db.close();
  const app = startBurrow([], { env: envFor(emu), cols: 100, rows: 30 });
  await openSql(app);
  await app.type('SELECT count(*)\r');
  await app.waitFor(/^\s+\.\.\.>\s*$/m);
  await app.type('FROM prod');
  await app.press('tab');
  await app.waitFor(/^\s+\.\.\.> FROM products\s*$/m);
  await app.type(' WHERE sto');
  await app.press('tab');
  await app.waitFor(/^\s+\.\.\.> FROM products WHERE stock\s*$/m);
  await app.type(' >= 0;\r');
  await app.waitFor(new RegExp(`\\|\\s+${products}\\s+\\|`));
  await app.press('up');
  await app.waitFor(/^burrow-demo> SELECT count\(\*\)\s*$/m);
  await app.waitFor(/^\s+\.\.\.> FROM products WHERE stock >= 0;\s*$/m);
  await app.press('ctrl-c');
  await app.press('esc');
  await app.press('esc');
  await app.waitFor(/Screens/);
  await app.press('q');
  assert.equal((await exited(app)).exitCode, 0);

  const ro = startBurrow([], { env: envFor(emu, { SERVICE_DATABASE_AUTH_TOKEN: emu.info.readOnlyDatabaseToken }), cols: 100, rows: 30 });
  await openSql(ro);
  assert.match(ro.lines()[1]!, /burrow-demo\s+READ-ONLY/);
  await ro.type('DELETE FROM products WHERE id = 1;\r');
  await ro.waitFor(/BLOCKED/);
  await ro.waitFor(/this database token is read-only: SELECT and other reads work/);
  ro.kill();
});
