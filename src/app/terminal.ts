import type { FrameLog } from './frame-log';

/** Escape sequences the console writes around Ink, and the guard that always undoes them. */
/** Alternate screen on, cursor home (the shell's cursor row must not offset the first frame). */
export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const HIDE_CURSOR = '\x1b[?25l';
export const SHOW_CURSOR = '\x1b[?25h';
/** What the terminal receives last when the console ends, however it ends. */
export const RESTORE_SEQUENCE = LEAVE_ALT_SCREEN + SHOW_CURSOR;

interface Out {
  write(chunk: string): boolean;
}

interface In {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
  pause?: () => unknown;
}

/**
 * Enters the alternate screen and hides the cursor; restore() leaves it, shows the cursor and
 * turns raw mode off. restore() is idempotent and never throws (the terminal may be gone: SIGHUP).
 */
export class TerminalGuard {
  private entered = false;

  constructor(
    private readonly out: Out,
    private readonly input: In,
  ) {}

  get active(): boolean {
    return this.entered;
  }

  enter(): void {
    if (this.entered) return;
    this.entered = true;
    this.safeWrite(ENTER_ALT_SCREEN + HIDE_CURSOR);
  }

  restore(): void {
    if (!this.entered) return;
    this.entered = false;
    try {
      if (this.input.isTTY) this.input.setRawMode?.(false);
    } catch {
      // stdin may already be closed
    }
    this.safeWrite(RESTORE_SEQUENCE);
  }

  private safeWrite(s: string): void {
    try {
      this.out.write(s);
    } catch {
      // the terminal is gone; nothing left to restore
    }
  }
}

/** Frame rate cap: lower over SSH, where every frame costs bandwidth and latency. */
export function maxFpsFor(env: Record<string, string | undefined>): number {
  return env.SSH_CONNECTION || env.SSH_TTY ? 15 : 30;
}

const CURSOR_NEXT_LINE = '\x1b[E';

/**
 * Drops the line advance that ends one of Ink's frame writes: a final "\n", or the
 * cursor-next-line Ink emits instead when the last line did not change.
 *
 * Why: Ink 6.8's incremental renderer puts the cursor back to the top of the previous frame
 * with cursorUp(visibleLines - 1), which is right only when the cursor sits ON the last line.
 * A frame shorter than the terminal (ours is rows - 1, see frameRows) is written with a trailing
 * newline, which leaves the cursor one line lower, so every frame lands one row further down and
 * unchanged lines end up out of place (ink issue #909, fixed in Ink 7, which needs Node 22).
 * Without the advance the cursor stays on the last line, where Ink's arithmetic expects it.
 */
export function trimFrameAdvance(chunk: string): string {
  if (chunk.endsWith('\n')) return chunk.slice(0, -1);
  if (chunk.endsWith(CURSOR_NEXT_LINE)) return chunk.slice(0, -CURSOR_NEXT_LINE.length);
  return chunk;
}

/**
 * The stream handed to Ink: the real stdout with trimFrameAdvance applied to every string
 * write. Everything else (size, isTTY, resize events, write barriers) is the real stream's.
 */
export function inkStdout(stdout: NodeJS.WriteStream, frames?: Pick<FrameLog, 'write'> | null): NodeJS.WriteStream {
  const trimmed = (chunk: unknown, ...rest: unknown[]): boolean => {
    const data = typeof chunk === 'string' ? trimFrameAdvance(chunk) : chunk;
    return (stdout.write as (...args: unknown[]) => boolean).call(stdout, data, ...rest);
  };
  const write = frames ? frames.write(trimmed) : trimmed;
  return new Proxy(stdout, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
