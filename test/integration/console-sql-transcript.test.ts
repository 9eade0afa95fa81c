import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { until } from '../helpers/wait';
import { DatabaseSession } from '../../src/api/database/index';
import { resolveSettings } from '../../src/config/settings';

// The SQL shell at a small terminal, rendered in this process (was a pty test on `burrow sql`,
// the same screen as :sql): multi-line output keeps every line reachable. What ctrl-c and ctrl-d
// do to the standalone program stays in test/e2e/sql-repl-transcript.

const emu = await useEmulator();
const db = new DatabaseSession({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
after(() => db.close());

const FOOTER = /lines (\d+)–(\d+) of (\d+)/;

/** Presses a key and waits for the browse footer to show another first line. */
async function nextPage(app: InProcessConsole, key: string, first: string): Promise<string> {
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

  const app = renderConsole(apiFor(emu), { cols: 100, rows: 24, settings: resolveSettings({}, envFor(emu), {}) });
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
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
    screen = await nextPage(app, 'nav.pageDown', first!);
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
  app.unmount();
});
