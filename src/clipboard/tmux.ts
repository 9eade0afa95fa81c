import { execFileSync } from 'node:child_process';
import type { TmuxClipboardOptions } from './osc52';

/** Reads tmux's own answer to "what does tmux do with a program's OSC 52?", from inside a pane. */
export function parseTmuxOptions(output: string): TmuxClipboardOptions | null {
  const m = /^([a-z]+)\|([a-z0-9]*)$/.exec(output.trim());
  if (!m) return null;
  return { setClipboard: m[1]!, allowPassthrough: !['', '0', 'off'].includes(m[2]!) };
}

/**
 * Asks the tmux server this process runs under (TMUX names its socket) for `set-clipboard` and the
 * pane's `allow-passthrough`. null when tmux cannot be asked (not installed, old, a remote tmux).
 */
export function readTmuxOptions(env: Record<string, string | undefined>): TmuxClipboardOptions | null {
  if (!env.TMUX) return null;
  try {
    const target = env.TMUX_PANE ? ['-t', env.TMUX_PANE] : [];
    const out = execFileSync('tmux', ['display-message', '-p', ...target, '#{set-clipboard}|#{allow-passthrough}'], {
      env: env as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 1000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return parseTmuxOptions(out);
  } catch {
    return null;
  }
}
