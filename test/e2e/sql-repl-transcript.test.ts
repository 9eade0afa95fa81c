import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow, type ExitInfo } from '../helpers/pty';
import { until } from '../helpers/wait';
import { DatabaseSession } from '../../src/api/database/index';

// `burrow sql` at a terminal (npm run build first): ctrl-c never leaves the program (ctrl-d does,
// asking about an open transaction). Its transcript and browse mode are tested in process:
// test/integration/console-sql-transcript.

const emu = await useEmulator();
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-transcript-'));
after(() => fs.rmSync(state, { recursive: true, force: true }));
const env = envFor(emu, { BURROW_TEST: '1', XDG_STATE_HOME: state });
const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => db.close());

test('ctrl-c never leaves the shell: empty input, open transaction, the leave question; ctrl-d asks and rolls back', async () => {
  await db.execute('CREATE TABLE IF NOT EXISTS repl_ctrlc (v TEXT)');
  const app = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  let exit: ExitInfo | null = null;
  void app.exited.then((info) => (exit = info));
  const gone = () => exit !== null;
  await app.waitFor(/^burrow-demo> /m);
  await app.press('ctrl-c');
  await app.waitFor(/ctrl-c does not leave the SQL shell: ctrl-d on an empty input or \.quit does/);
  await app.type("BEGIN; INSERT INTO repl_ctrlc VALUES ('dropped');\r");
  await app.waitFor(/TX open/);
  await app.press('ctrl-c');
  await app.press('ctrl-c');
  // still here, still in the transaction: ctrl-c asked nothing and quit nothing
  await app.type('SELECT count(*) AS held FROM repl_ctrlc;\r');
  await app.waitFor(/held[\s\S]*\|\s+1\s+\|/);
  assert.equal(gone(), false, 'the shell is still running');
  assert.doesNotMatch(app.screenText(), /c commit · r roll back · s stay/);
  // ctrl-d asks; ctrl-c on the question stays
  await app.press('ctrl-d');
  await app.waitFor('c commit · r roll back · s stay');
  await app.press('ctrl-c');
  await app.waitFor(/^stayed: the transaction is still open$/m);
  assert.match(app.screenText(), /TX open/);
  await app.press('ctrl-d');
  await app.waitFor('c commit · r roll back · s stay');
  await app.press('r');
  // a wait that ends with the exit (a race against a wait that never succeeds kept the file
  // running until that wait timed out: most of a minute on a busy machine)
  const info = await until('the exit after ctrl-d and r', () => exit, 8000).catch((error: Error) => {
    throw new Error(`${error.message}; the screen is:\n${app.screenText()}`);
  });
  assert.equal(info.exitCode, 0);
  assert.equal((await db.execute("SELECT count(*) FROM repl_ctrlc WHERE v = 'dropped'")).rows[0]![0], 0n);
});
