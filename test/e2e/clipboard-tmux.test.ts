import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from '../helpers/wait';

/**
 * A real tmux server (private socket, no config file: tmux's defaults) runs a program that
 * copies through src/clipboard the way the console does; what tmux did with it is read back
 * from tmux's paste buffers.
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const osc52Module = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/clipboard/osc52.ts');
const tmuxModule = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/clipboard/tmux.ts');

function withTmux(run: (tmux: (...args: string[]) => string, copy: (text: string) => string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-tmux-'));
    const socket = path.join(dir, 'sock');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color' };
    const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
    tmux('new-session', '-d', '-x', '80', '-y', '24', 'sleep 600');
    let n = 0;
    /** Copies `text` from a program in a new tmux window; returns the status line it printed. */
    const copy = (text: string) => {
      n += 1;
      const out = path.join(dir, `status-${n}`);
      const script = `
        import { clipboardWrite, copyStatus } from ${JSON.stringify(osc52Module)};
        import { readTmuxOptions } from ${JSON.stringify(tmuxModule)};
        import fs from 'node:fs';
        const r = clipboardWrite(${JSON.stringify(text)}, process.env, readTmuxOptions(process.env));
        if (r.ok) process.stdout.write(r.sequence);
        fs.writeFileSync(${JSON.stringify(out)}, copyStatus('the text', r).text);
        setTimeout(() => {}, 60_000);`;
      tmux('new-window', '-d', `${process.execPath} --import tsx --input-type=module -e ${shellQuote(script)}`);
      return out;
    };
    try {
      await run(tmux, copy);
    } finally {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const buffers = (tmux: (...args: string[]) => string) => {
  try {
    return tmux('list-buffers', '-F', '#{buffer_sample}');
  } catch {
    return '';
  }
};

test(
  'inside tmux with set-clipboard on, the copy reaches tmux (a plain OSC 52, not a passthrough tmux drops)',
  { skip: !hasTmux && 'tmux is not installed' },
  withTmux(async (tmux, copy) => {
    tmux('set-option', '-s', 'set-clipboard', 'on');
    const status = copy('copied-through-tmux');
    const said = await until('the status line', () => fs.existsSync(status) && fs.readFileSync(status, 'utf8'), 20_000);
    await until('tmux to hold the copy', () => buffers(tmux).includes('copied-through-tmux'), 20_000);
    assert.equal(said, 'copied the text (OSC 52 via tmux set-clipboard)');
  }),
);

test(
  'under tmux defaults (set-clipboard external, no passthrough) nothing is claimed: the status says how to enable it',
  { skip: !hasTmux && 'tmux is not installed' },
  withTmux(async (tmux, copy) => {
    const status = copy('never-arrives');
    const said = await until('the status line', () => fs.existsSync(status) && fs.readFileSync(status, 'utf8'), 20_000);
    assert.equal(said, 'not copied: tmux drops OSC 52; set -s set-clipboard on');
    assert.equal(buffers(tmux).includes('never-arrives'), false);
  }),
);

test(
  'with allow-passthrough on but set-clipboard external, the wrapped sequence is used',
  { skip: !hasTmux && 'tmux is not installed' },
  withTmux(async (tmux, copy) => {
    tmux('set-option', '-g', 'allow-passthrough', 'on');
    const status = copy('x');
    const said = await until('the status line', () => fs.existsSync(status) && fs.readFileSync(status, 'utf8'), 20_000);
    assert.equal(said, 'copied the text (OSC 52 via tmux passthrough)');
  }),
);
