import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBurrow } from '../helpers/pty';

// `burrow sql` at a terminal on the emulator it starts as a child (npm run build first): $EDITOR
// gets the terminal and gives it back. The shell's other habits are tested in process:
// test/integration/console-sql-habits.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-sql-habits-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

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
