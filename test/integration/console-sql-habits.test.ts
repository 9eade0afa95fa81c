import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole, useEmulatorChild, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { createApi, type Api } from '../../src/api/index';
import { resolveSettings, type Settings } from '../../src/config/settings';

// The SQL shell's pgcli habits and what a failed statement leaves behind (issue 26), rendered in
// this process (was a pty test on `burrow sql`, the same screen as :sql). $EDITOR, which takes
// the terminal, stays in test/e2e/sql-shell-habits.

// slow enough to type behind it, then an integer overflow once the scan is done
const SLOW_FAILURE =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT abs(-9223372036854775807 - 1 + 0 * sum(x)) AS boom FROM c;';

const emu = await useEmulator();

async function openSql(api: Api, settings: Settings): Promise<InProcessConsole> {
  // drawn as at a colour terminal (without colours a selected row is marked with >)
  const app = renderConsole(api, { cols: 110, rows: 30, styles: true, settings });
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
  return app;
}

test('a running statement shows a timer; after it fails, the input queued behind it is skipped and said so, and the next statement typed runs alone', async () => {
  // the emulator in a child process: the scan keeps its database busy, which would stall this one
  const child = await useEmulatorChild();
  const api = createApi({ baseUrl: child.baseUrl, loggingUrl: child.loggingUrl, apiKey: child.accessKey });
  after(() => api.close());
  const app = await openSql(api, { ...resolveSettings({}, {}, {}), databaseUrl: child.databaseUrl, databaseToken: child.databaseToken });
  await app.type(`${SLOW_FAILURE}\r`);
  const first = await app.waitFor(/running (\d+\.\d) s: WITH RECURSIVE/);
  assert.match(first, /^[◐◓◑◒] running \d+\.\d s: WITH RECURSIVE c\(x\).* · ctrl-c cancels$/m, 'the line just above the prompt');
  await app.type("SELECT 'queued one' AS q;\r");
  const screen = await app.waitFor(/^1 queued input skipped: the one before failed \(↑ recalls it\)$/m, 20_000);
  assert.match(screen, /integer overflow/);
  assert.doesNotMatch(screen, /\|\s+queued one\s+\|/, 'the queued input did not run');
  // the prompt is empty: nothing of the failed statement is in front of what is typed next
  await app.waitFor(/^burrow-demo>\s*$/m);
  await app.type('SELECT 6 * 7 AS answer;\r');
  const done = await app.waitFor(/answer[\s\S]*\|\s+42\s+\|/);
  assert.doesNotMatch(done.split('burrow-demo> SELECT 6 * 7')[1] ?? '', /error/, 'the statement ran alone');
  app.unmount();
});

test('.x turns expanded records on for the next queries; x on a result expands that one only', async () => {
  const app = await openSql(apiFor(emu), resolveSettings({}, envFor(emu), {}));
  await app.type('.x\r');
  await app.waitFor(/expanded records on/);
  await app.type("SELECT 1 AS alpha, 'two' AS beta;\r");
  await app.waitFor(/^alpha = 1\n\s*beta = two$/m);
  await app.type('.x\r');
  await app.waitFor(/expanded records off \(mode table\)/);
  await app.type("SELECT 3 AS gamma, 'four' AS delta;\r");
  await app.waitFor(/\|\s+gamma\s+\|\s+delta\s+\|/);
  await app.press('esc');
  await app.press('sql.expanded');
  await app.waitFor(/^gamma = 3\n\s*delta = four$/m);
  await app.press('sql.expanded');
  await app.waitFor(/\|\s+gamma\s+\|\s+delta\s+\|/);
  app.unmount();
});

test(':sql in the console: ctrl-c on an empty input stays in the shell and says how to leave', async () => {
  const app = await openSql(apiFor(emu), resolveSettings({}, envFor(emu), {}));
  let gone = false;
  void app.exited.then(() => (gone = true));
  await app.type('SELECT 1');
  await app.press('ctrl-c');
  await app.waitFor(/^burrow-demo>\s*$/m);
  await app.press('ctrl-c');
  await app.waitFor(/ctrl-c does not leave the SQL shell: ctrl-d on an empty input or \.quit does/);
  await app.press('ctrl-c');
  await app.type('SELECT 5 AS still_here;\r');
  await app.waitFor(/\|\s+still_here\s+\|/);
  assert.equal(gone, false);
  // :sql logs with no logs screen open says why its table is empty
  await app.press('ctrl-d');
  await app.waitFor('Screens');
  await runCommand(app, 'sql logs');
  await app.waitFor('no logs screen open: the table logs is empty (open :logs ZONE first)', 20_000);
  app.unmount();
});
