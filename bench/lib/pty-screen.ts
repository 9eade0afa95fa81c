import { spawn as spawnPty, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';

/** A program in a pseudo-terminal with a headless xterm reading its screen (for benchmarks). */
export interface PtyRun {
  pty: IPty;
  term: xterm.Terminal;
  bytes: () => number;
  screen: () => string;
  /** Resolves with the time (performance.now) at which `pattern` first appears on screen. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<number>;
  kill: () => void;
}

export function runInPty(command: string, args: string[], env: Record<string, string>, cols = 120, rows = 40): PtyRun {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const pty = spawnPty(command, args, {
    cols,
    rows,
    name: 'xterm-256color',
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', TERM: 'xterm-256color', ...env },
  });
  let total = 0;
  const waiters: { pattern: RegExp; resolve: (t: number) => void }[] = [];
  const screen = () => {
    const buf = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < rows; i++) lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  pty.onData((d) => {
    total += Buffer.byteLength(d);
    term.write(d, () => {
      if (waiters.length === 0) return;
      const text = screen();
      const now = performance.now();
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (waiters[i]!.pattern.test(text)) {
          waiters[i]!.resolve(now);
          waiters.splice(i, 1);
        }
      }
    });
  });
  return {
    pty,
    term,
    bytes: () => total,
    screen,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        if (pattern.test(screen())) return resolve(performance.now());
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; screen:\n${screen()}`)), timeoutMs);
        waiters.push({ pattern, resolve: (t) => { clearTimeout(timer); resolve(t); } });
      });
    },
    kill: () => {
      try {
        pty.kill('SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}
