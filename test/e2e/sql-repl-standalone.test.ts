import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow, type ExitInfo, type PtySession } from '../helpers/pty';
import { DatabaseSession } from '../../src/api/database/index';
import { until } from '../helpers/wait';

// `burrow sql` at a terminal (npm run build first) against an in-process emulator whose streams
// expire after 1 s idle; BURROW_SQL_KEEPALIVE_MS (read only with BURROW_TEST=1) makes the
// shell's keep-alive fit under it, so the idle limit is quick to cross.

const emu = await useEmulator({ streamIdleMs: 1000 });
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-repl-'));
after(() => fs.rmSync(state, { recursive: true, force: true }));
const env = envFor(emu, { BURROW_TEST: '1', BURROW_SQL_KEEPALIVE_MS: '300', XDG_STATE_HOME: state });
/** The exit, or a failure with the screen if the program is still running after 8 s. */
function exited(app: PtySession): Promise<ExitInfo> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running; the screen is:\n${app.screenText()}`)), 8000);
  });
  return Promise.race([app.exited, late]).finally(() => clearTimeout(timer));
}

const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => db.close());
const scalar = async (sql: string) => (await db.execute(sql)).rows[0]![0];

test('multi-line input runs only when complete; history with up and Ctrl-R, kept for the next run', async () => {
  const customers = await scalar('SELECT count(*) FROM customers');
  const app = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  await app.waitFor('.help lists the commands');
  await app.waitFor(/^burrow-demo> /m);

  await app.type('SELECT count(*) AS n\r');
  await app.waitFor(/^\s+\.\.\.>\s*$/m);
  await app.type("FROM customers WHERE name <> 'x;\r");
  // the ; inside the quotes does not end it
  // a third continuation prompt under the second line: the input was read and is still open
  await app.waitFor(/\.\.\.> FROM customers WHERE name <> 'x;\n\s+\.\.\.>\s*$/m);
  assert.doesNotMatch(app.screenText(), /1 row/, 'nothing ran yet');
  await app.type("y';\r");
  const ran = await app.waitFor(/\(1 row/);
  assert.match(ran, new RegExp(`\\|\\s+${customers}\\s+\\|`), 'the count from the database');

  await app.type('SELECT 7 * 6 AS answer; SELECT 1 AS one;\r');
  const two = await app.waitFor(/\|\s+1\s+\|/);
  assert.match(two, /\|\s+42\s+\|/, 'each statement of the line shows its own result');

  // up brings back the last input; ctrl-r finds an older one
  await app.press('up');
  await app.waitFor(/^burrow-demo> SELECT 7 \* 6 AS answer; SELECT 1 AS one;/m);
  await app.press('ctrl-u');
  await app.press('ctrl-r');
  await app.type('custo');
  await app.waitFor(/\(reverse-i-search\)'custo': SELECT count\(\*\) AS n FROM customers WHERE name <> 'x; y';/);
  await app.press('enter');
  // enter runs the found entry again: its echo and result come after the last ones
  await app.waitFor(
    new RegExp(`SELECT 1 AS one;[\\s\\S]*burrow-demo> SELECT count\\(\\*\\) AS n\\n\\s+\\.\\.\\.> FROM customers[\\s\\S]*\\|\\s+${customers}\\s+\\|`),
  );

  await app.type('.quit\r');
  assert.equal((await exited(app)).exitCode, 0);

  const again = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  await again.waitFor(/^burrow-demo> /m);
  await again.press('up');
  await again.waitFor(/^burrow-demo> \.quit/m);
  await again.press('up');
  await again.waitFor(/^burrow-demo> SELECT count\(\*\) AS n$/m);
  await again.waitFor(/^\s+\.\.\.> FROM customers WHERE name <> 'x;$/m);
  const files = fs.readdirSync(path.join(state, 'burrow', 'sql-history'));
  assert.equal(files.length, 1, `one history file for this database (${files.join(', ')})`);
  const file = path.join(state, 'burrow', 'sql-history', files[0]!);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.ok(!fs.readFileSync(file, 'utf8').includes(emu.info.databaseToken), 'the token is never stored');
  await again.press('ctrl-c'); // clears the whole input
  await again.waitFor(/^burrow-demo>\s*$/m);
  await again.press('ctrl-d');
  assert.equal((await exited(again)).exitCode, 0, 'ctrl-d on an empty line quits');
});

test('Tab completes a table and a column from the live schema', async () => {
  const app = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  await app.waitFor(/^burrow-demo> /m);
  // the schema is read in the background at start, on the shell's one stream: a statement
  // answered after it means the schema is in
  await app.type('SELECT 1 AS ready;\r');
  await app.waitFor(/\(1 row/);
  await app.type('SELECT * FROM inv');
  await app.press('tab');
  await app.waitFor(/^burrow-demo> SELECT \* FROM invoices\s*$/m);
  await app.type(' WHERE pai');
  await app.press('tab');
  await app.waitFor(/^burrow-demo> SELECT \* FROM invoices WHERE paid_at\s*$/m);
  await app.type(' IS NULL AND numb');
  await app.press('tab');
  await app.waitFor(/^burrow-demo> SELECT \* FROM invoices WHERE paid_at IS NULL AND number\s*$/m);
  // several candidates: the shared prefix, and the list under the prompt
  await app.press('ctrl-u');
  await app.type('SELECT * FROM cust');
  await app.press('tab');
  await app.waitFor(/^customer_totals  customers$/m);
  await app.waitFor(/^burrow-demo> SELECT \* FROM customer\s*$/m);
  app.kill();
});

test('BEGIN, INSERT, a pause past the idle limit, COMMIT: the row is kept; the prompt shows the transaction', async () => {
  await db.execute('CREATE TABLE IF NOT EXISTS repl_e2e_tx (v TEXT)');
  const app = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  await app.waitFor(/^burrow-demo> /m);
  await app.type('BEGIN;\r');
  await app.waitFor(/TX open \d+s/);
  await app.waitFor(/^burrow-demo\*>\s*$/m);
  await app.type("INSERT INTO repl_e2e_tx VALUES ('kept');\r");
  await app.waitFor(/1 row affected · last insert rowid \d+/);
  // a stream used after the shell's and then left alone: once the server has expired it and every
  // other idle one, the shell's has been idle past the limit too, but for its keep-alive
  const from = emu.databaseStreams().expired;
  const other = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken, keepAliveMs: 0 });
  await other.execute('SELECT 1');
  await until("every stream but the shell's expired", () => emu.databaseStreams().expired > from && emu.databaseStreams().open === 1);
  await other.close().catch(() => undefined);
  await app.waitFor(/TX open [1-9]s/);
  assert.equal(await scalar("SELECT count(*) FROM repl_e2e_tx WHERE v = 'kept'"), 0n, 'not visible outside the transaction yet');
  await app.type('COMMIT;\r');
  await app.waitForGone(/TX open/);
  await app.waitFor(/^burrow-demo>\s*$/m);
  assert.doesNotMatch(app.screenText(), /rolled back/);
  assert.equal(await scalar("SELECT count(*) FROM repl_e2e_tx WHERE v = 'kept'"), 1n, 'the commit persisted the row');

  // leaving with an open transaction asks
  await app.type("BEGIN; INSERT INTO repl_e2e_tx VALUES ('dropped');\r");
  await app.waitFor(/TX open/);
  await app.type('.quit\r');
  await app.waitFor('A transaction is open');
  await app.waitFor('c commit · r roll back · s stay');
  await app.press('s');
  await app.waitForGone('c commit');
  await app.type('.quit\r');
  await app.waitFor('c commit');
  await app.press('r');
  assert.equal((await exited(app)).exitCode, 0);
  assert.equal(await scalar("SELECT count(*) FROM repl_e2e_tx WHERE v = 'dropped'"), 0n);
});

test('DELETE without WHERE asks to confirm; .mode csv; esc pages through a long result', async () => {
  await db.execute('CREATE TABLE IF NOT EXISTS repl_e2e_del (x)');
  await db.execute('INSERT INTO repl_e2e_del VALUES (1), (2)');
  const app = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  await app.waitFor(/^burrow-demo> /m);
  await app.type('DELETE FROM repl_e2e_del;\r');
  await app.waitFor('DELETE without WHERE deletes every row of repl_e2e_del');
  await app.press('n');
  await app.waitFor('not run (the input is back in the editor)');
  await app.waitFor(/^burrow-demo> DELETE FROM repl_e2e_del;/m);
  assert.equal(await scalar('SELECT count(*) FROM repl_e2e_del'), 2n);
  await app.press('ctrl-u');

  await app.type('.mode csv\r');
  await app.waitFor('mode csv');
  await app.type('SELECT id, email FROM customers ORDER BY id LIMIT 2;\r');
  const first = (await db.execute('SELECT id, email FROM customers ORDER BY id LIMIT 2')).rows;
  const csv = await app.waitFor(/^id,email$/m);
  for (const [id, email] of first) assert.match(csv, new RegExp(`^${id},${String(email).replace(/\./g, '\\.')}$`, 'm'));

  await app.type('.mode box\r');
  const last = await scalar('SELECT max(id) FROM customers');
  await app.type('SELECT id, name FROM customers ORDER BY id;\r');
  await app.waitFor(/showing \d+ of 1,200 rows: esc to browse them all/);
  assert.doesNotMatch(app.screenText(), new RegExp(`│\\s+${last} │`), 'the last row is not drawn in the transcript');
  await app.press('esc');
  await app.waitFor(/rows 1–\d+ of 1,200/);
  await app.press('G');
  const bottom = await app.waitFor(/rows \d+–1200 of 1,200/);
  assert.match(bottom, new RegExp(`│\\s+${last} │`), 'G shows the last row');
  assert.match(bottom, /│ id\s+│ name/, 'the header stays in view');
  await app.press('i');
  await app.waitFor(/^burrow-demo>\s*$/m);

  // wider than the screen: cut in the transcript, scrolled sideways by column in the results
  await app.type("SELECT id, email, name, country, created_at, lifetime_value, 'note ' || printf('%.60c', 'x') AS notes FROM customers ORDER BY id LIMIT 3;\r");
  await app.waitFor('wider than the screen: esc, then h/l to scroll sideways');
  await app.press('esc');
  await app.waitFor(/column 1 of 7/);
  await app.press('l', 'l');
  const side = await app.waitFor(/column 3 of 7/);
  assert.match(side, /^│ name\s+│ country\s+│/m, 'the grid starts at the third column');
  assert.doesNotMatch(side, /│ email/);
  await app.press('h');
  await app.waitFor(/^│ email\s+│ name/m);
  await app.press('i');
  await app.type('.quit\r');
  assert.equal((await exited(app)).exitCode, 0);
});
