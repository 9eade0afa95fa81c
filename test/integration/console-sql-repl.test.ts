import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator, apiFor } from '../helpers/emulator';
import { renderConsole, useEmulatorChild, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { until } from '../helpers/wait';
import { DatabaseSession } from '../../src/api/database/index';
import { createApi } from '../../src/api/index';
import { resolveSettings } from '../../src/config/settings';

// `:sql` inside the console, rendered in this process (was a pty test; npm run build first: the
// first test's emulator is the built binary's, in a child process).

/** Resolves once the console has quit, or fails with the frame after a deadline that scales. */
async function quits(app: InProcessConsole): Promise<void> {
  let gone = false;
  void app.exited.then(() => (gone = true));
  await until('the console to quit', () => gone, 8000).catch((error: Error) => {
    throw new Error(`${error.message}; the frame is:\n${app.frame()}`);
  });
}

async function openSql(app: InProcessConsole): Promise<void> {
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
}

test(":sql on the console's own emulator: Ctrl-C cancels a long query and the shell stays; leaving asks about the open transaction", async () => {
  // the emulator in a child process, as the console starts it without credentials: a query that
  // keeps its database busy cannot freeze this test
  const emu = await useEmulatorChild();
  const api = createApi({ baseUrl: emu.baseUrl, loggingUrl: emu.loggingUrl, apiKey: emu.accessKey });
  after(() => api.close());
  const settings = { ...resolveSettings({}, {}, {}), databaseUrl: emu.databaseUrl, databaseToken: emu.databaseToken };
  assert.equal(settings.target, 'emulator');
  const app = renderConsole(api, { cols: 100, rows: 30, settings });
  await openSql(app);
  assert.match(app.lines()[0]!, /EMULATOR.* sql$/, 'breadcrumbs end in sql');

  await app.type('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000000) SELECT count(*) AS n FROM c;\r');
  await app.waitFor(/running \d+\.\d s… ctrl-c cancels/);
  await app.press('ctrl-c');
  await app.waitFor(/^cancelled$/m);
  await app.waitForGone(/running \d/);
  await app.type('SELECT 6 * 7 AS answer;\r');
  const answered = await app.waitFor(/\|\s+42\s+\|/, 20_000);
  assert.doesNotMatch(answered, /\|\s+20000000\s+\|/, 'the cancelled query shows no result');
  assert.match(answered, /^cancelled\n\nburrow-demo> SELECT 6 \* 7/m, 'cancelled, then the next input ran');

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
  await quits(app);
});

test(':sql against a configured database: multi-line input, completion, history, READ-ONLY badge', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
  const products = (await db.execute('SELECT count(*) FROM products')).rows[0]![0];
  await db.close();
  const app = renderConsole(api, { cols: 100, rows: 30, settings: resolveSettings({}, envFor(emu), {}) });
  await openSql(app);
  await app.type('SELECT count(*)\r');
  await app.waitFor(/^\s+\.\.\.>\s*$/m);
  await app.type('FROM prod');
  await app.press('sql.complete');
  await app.waitFor(/^\s+\.\.\.> FROM products\s*$/m);
  await app.type(' WHERE sto');
  await app.press('sql.complete');
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
  await quits(app);

  // drawn as at a colour terminal: the badge is a coloured word (without colours it is [READ-ONLY])
  const ro = renderConsole(api, {
    cols: 100,
    rows: 30,
    styles: true,
    settings: resolveSettings({}, envFor(emu, { SERVICE_DATABASE_AUTH_TOKEN: emu.info.readOnlyDatabaseToken }), {}),
  });
  await openSql(ro);
  assert.match(ro.lines()[1]!, /burrow-demo\s+READ-ONLY/);
  await ro.type('DELETE FROM products WHERE id = 1;\r');
  await ro.waitFor(/BLOCKED/);
  await ro.waitFor(/this database token is read-only: SELECT and other reads work/);
  ro.unmount();
});
