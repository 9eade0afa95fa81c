import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envFor, useEmulator } from '../helpers/emulator';
import { startBurrow, type PtySession } from '../helpers/pty';
import { until } from '../helpers/wait';
import { DatabaseSession } from '../../src/api/database/index';

// `burrow sql` at a small terminal (npm run build first): multi-line output keeps every line
// reachable, and ctrl-c never leaves the shell (ctrl-d does, asking about an open transaction).

const emu = await useEmulator();
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-transcript-'));
after(() => fs.rmSync(state, { recursive: true, force: true }));
const env = envFor(emu, { BURROW_TEST: '1', XDG_STATE_HOME: state });
const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => db.close());

const FOOTER = /lines (\d+)–(\d+) of (\d+)/;

/** Presses a key and waits for the browse footer to show another first line (frames are drawn top-down). */
async function nextPage(app: PtySession, key: string, first: string): Promise<string> {
  await app.press(key);
  return until(`the page after ${key}`, () => {
    const now = app.screenText();
    const m = FOOTER.exec(now);
    return m && m[1] !== first ? now : null;
  });
}

test('.dump products: every line of the CREATE TABLE and every INSERT is reachable, in the transcript and in browse mode', async () => {
  const create = String((await db.execute("SELECT sql FROM sqlite_schema WHERE name = 'products'")).rows[0]![0]);
  const ids = (await db.execute('SELECT id FROM products ORDER BY id')).rows.map((r) => Number(r[0]));
  const createLines = create.split('\n').map((l) => l.trim());
  assert.ok(createLines.length > 3 && ids.length > 10, 'a multi-line CREATE TABLE and more rows than the screen has');

  const app = startBurrow(['sql'], { env, cols: 100, rows: 24 });
  await app.waitFor(/^burrow-demo> /m);
  await app.type('.dump products\r');
  const shown = await app.waitFor(/… \d+ more lines: esc to browse them all/);
  // what the transcript shows is a whole prefix of the dump: nothing in it is skipped
  const previewLines = shown.split('\n').map((l) => l.trim());
  const from = previewLines.indexOf('CREATE TABLE products (');
  assert.ok(from > 0, shown);
  for (let k = 0; k < createLines.length && from + k < previewLines.length && !previewLines[from + k]!.startsWith('…'); k++) {
    assert.equal(previewLines[from + k], k === createLines.length - 1 ? `${createLines[k]};` : createLines[k], `CREATE TABLE line ${k + 1}`);
  }
  const more = Number(/… (\d+) more lines/.exec(shown)![1]);

  // browse mode: page down to the end, collecting every line seen
  await app.press('esc');
  let screen = await app.waitFor(FOOTER);
  const seen = new Set<string>();
  const total = Number(FOOTER.exec(screen)![3]);
  for (let pages = 0; ; pages++) {
    for (const l of screen.split('\n')) seen.add(l.trim());
    const [, first, last] = FOOTER.exec(screen)!;
    if (Number(last) >= total) break;
    assert.ok(pages < 20, 'the end is reached');
    screen = await nextPage(app, 'pgdn', first!);
  }
  for (const line of createLines.slice(0, -1)) assert.ok(seen.has(line), `"${line}" reachable in browse mode`);
  for (const id of ids)
    assert.ok(
      [...seen].some((l) => l.startsWith(`INSERT INTO products VALUES(${id},`)),
      `row ${id} reachable`,
    );
  assert.ok(seen.has('COMMIT;'));
  // the transcript's note and browse mode count the same lines
  assert.equal(total, 2 + createLines.length + ids.length + 1, 'PRAGMA, BEGIN, the CREATE TABLE lines, the INSERTs, COMMIT');
  assert.ok(more > 0 && more < total);
  app.kill();
});

test('ctrl-c never leaves the shell: empty input, open transaction, the leave question; ctrl-d asks and rolls back', async () => {
  await db.execute('CREATE TABLE IF NOT EXISTS repl_ctrlc (v TEXT)');
  const app = startBurrow(['sql'], { env, cols: 100, rows: 30 });
  let gone = false;
  void app.exited.then(() => (gone = true));
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
  assert.equal(gone, false, 'the shell is still running');
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
  const exit = await Promise.race([app.exited, until('the exit', () => false, 8000).catch(() => null)]);
  assert.ok(exit, `still running after ctrl-d and r; the screen is:\n${app.screenText()}`);
  assert.equal(exit.exitCode, 0);
  assert.equal((await db.execute("SELECT count(*) FROM repl_ctrlc WHERE v = 'dropped'")).rows[0]![0], 0n);
});
