import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, startBurrow } from '../helpers/pty';

// The SQL shell's pgcli habits and what a failed statement leaves behind (issue 26), in
// `burrow sql` at a terminal on the emulator it starts as a child (npm run build first).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-habits-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// slow enough to type behind it, then an integer overflow once the scan is done
const SLOW_FAILURE =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT abs(-9223372036854775807 - 1 + 0 * sum(x)) AS boom FROM c;';

test('a running statement shows a timer; after it fails, the input queued behind it is skipped and said so, and the next statement typed runs alone', async () => {
  const app = startBurrow(['sql'], { env: { XDG_STATE_HOME: path.join(dir, 'state1') }, cols: 110, rows: 30 });
  await app.waitFor(/^burrow-demo> /m);
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
  app.kill();
});

test('.edit and ctrl-x ctrl-e: the input in $EDITOR (the terminal handed over and taken back), what it saves becomes the input', async () => {
  const editor = path.join(dir, 'editor.sh');
  const seen = path.join(dir, 'editor-saw-a-terminal');
  fs.writeFileSync(editor, `#!/bin/sh\n[ -t 0 ] && [ -t 1 ] && echo yes > '${seen}'\nsed -i 's/answer/edited_answer/' "$1"\n`, { mode: 0o755 });
  const app = startBurrow(['sql'], { env: { EDITOR: editor, XDG_STATE_HOME: path.join(dir, 'state2') }, cols: 100, rows: 30 });
  await app.waitFor(/^burrow-demo> /m);
  await app.type('SELECT 41 AS answer');
  await app.press('ctrl-x', 'ctrl-e');
  await app.waitFor(/^burrow-demo> SELECT 41 AS edited_answer\s*$/m);
  assert.equal(fs.readFileSync(seen, 'utf8'), 'yes\n', 'the editor had the terminal');
  const raw = app.rawOutput();
  const left = raw.lastIndexOf('\x1b[?1049l');
  assert.ok(left > 0 && raw.indexOf('\x1b[?1049h', left) > left, 'the alternate screen was left for the editor and entered again');
  await app.type(';\r');
  await app.waitFor(/\|\s+edited_answer\s+\|/);
  // .edit: the last input
  await app.type('.edit\r');
  await app.waitFor(/^burrow-demo> SELECT 41 AS edited_edited_answer;\s*$/m);
  await app.press('enter');
  await app.waitFor(/\|\s+edited_edited_answer\s+\|/);
  // the screen is whole again: the status line and the prompt
  await app.waitFor(/mode table · timer on/);
  app.kill();
});

test('.x turns expanded records on for the next queries; x on a result expands that one only', async () => {
  const app = startBurrow(['sql'], { env: { XDG_STATE_HOME: path.join(dir, 'state3') }, cols: 100, rows: 30 });
  await app.waitFor(/^burrow-demo> /m);
  await app.type('.x\r');
  await app.waitFor(/expanded records on/);
  await app.type("SELECT 1 AS alpha, 'two' AS beta;\r");
  await app.waitFor(/^alpha = 1\n\s*beta = two$/m);
  await app.type('.x\r');
  await app.waitFor(/expanded records off \(mode table\)/);
  await app.type("SELECT 3 AS gamma, 'four' AS delta;\r");
  await app.waitFor(/\|\s+gamma\s+\|\s+delta\s+\|/);
  await app.press('esc');
  await app.press('x');
  await app.waitFor(/^gamma = 3\n\s*delta = four$/m);
  await app.press('x');
  await app.waitFor(/\|\s+gamma\s+\|\s+delta\s+\|/);
  app.kill();
});

test(':sql in the console: ctrl-c on an empty input stays in the shell and says how to leave', async () => {
  const app = startBurrow([], { env: { XDG_STATE_HOME: path.join(dir, 'state4') }, cols: 100, rows: 30 });
  let gone = false;
  void app.exited.then(() => (gone = true));
  await app.waitFor('Screens');
  await runCommand(app, 'sql');
  await app.waitFor(/^burrow-demo>/m);
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
  app.kill();
});
