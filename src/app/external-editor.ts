import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENTER_ALT_SCREEN, HIDE_CURSOR, LEAVE_ALT_SCREEN, SHOW_CURSOR } from './terminal';

export interface TerminalHandover {
  stdout: { write(chunk: string): boolean };
  stdin: { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
  /** Called once the console has the terminal back: draw the whole screen again. */
  redraw(): void;
}

function setRaw(stdin: TerminalHandover['stdin'], on: boolean): void {
  try {
    if (stdin.isTTY) stdin.setRawMode?.(on);
  } catch {
    // the terminal is gone
  }
}

/**
 * Opens `text` in $VISUAL or $EDITOR (else vi) and returns what was saved. The terminal is
 * handed over: the alternate screen left, the cursor shown, raw mode off; the console waits
 * (the editor runs synchronously, so Ink reads no key meant for it), then takes the terminal
 * back and draws the whole screen again. The file is private (0600) and removed afterwards.
 */
export function editInTerminal(text: string, extension: string, term: TerminalHandover): { text: string } | { error: string } {
  const editor = (term.env.VISUAL || term.env.EDITOR || 'vi').trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-edit-'));
  const file = path.join(dir, `input.${extension}`);
  try {
    fs.writeFileSync(file, text === '' || text.endsWith('\n') ? text : `${text}\n`, { mode: 0o600 });
    term.stdout.write(LEAVE_ALT_SCREEN + SHOW_CURSOR);
    setRaw(term.stdin, false);
    // through the shell: EDITOR may carry arguments ("code --wait", "vim -u NONE")
    const run = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'burrow-edit', file], { stdio: 'inherit', env: term.env as NodeJS.ProcessEnv });
    if (run.error) return { error: `cannot start the editor (${editor}): ${run.error.message}` };
    if (run.status !== 0) return { error: `the editor (${editor}) ended with ${run.signal ?? `status ${run.status}`}: the input is unchanged` };
    return { text: fs.readFileSync(file, 'utf8') };
  } catch (error) {
    return { error: `cannot edit in ${editor}: ${(error as Error).message}` };
  } finally {
    setRaw(term.stdin, true);
    term.stdout.write(ENTER_ALT_SCREEN + HIDE_CURSOR);
    term.redraw();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
