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
  /** Resolves when the program has exited (after `kill`, once it has saved what it saves on exit). */
  exited: Promise<void>;
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
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
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
        waiters.push({
          pattern,
          resolve: (t) => {
            clearTimeout(timer);
            resolve(t);
          },
        });
      });
    },
    exited,
    kill: () => {
      try {
        pty.kill('SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** From the home screen to `:logs ZONE`, until it is following (its default window backfilled). */
export async function openLogs(run: PtyRun, zoneId: number): Promise<void> {
  await run.waitFor(/Screens[\s\S]*q quit/);
  run.pty.write(':');
  await pause(200);
  run.pty.write(`logs ${zoneId}`);
  await pause(200);
  run.pty.write('\r');
  await run.waitFor(/● following/, 60_000);
}

/**
 * `:logs ZONE` with the 1 h window, until its backfill has filled the 100,000-record buffer (the
 * console benchmarks' starting point; an emulator at 40 records/s).
 */
export async function openFullLogs(run: PtyRun, zoneId: number): Promise<void> {
  await openLogs(run, zoneId);
  run.pty.write('4');
  // the new window's backfill must be seen starting: the old window's status can linger a frame
  await run.waitFor(/loading the last 1h/, 30_000);
  await run.waitFor(/● following.*(99|100),\d{3} buffered/, 120_000);
}
