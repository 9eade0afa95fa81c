import type React from 'react';
import { render, type Instance } from 'ink';
import { redact } from '../config/redact';
import type { Io } from '../runtime/io';
import { createFrameLog } from './frame-log';
import { inkStdout, maxFpsFor, TerminalGuard } from './terminal';
import { tuneHeapForResidentMemory } from './heap-tuning';
import { terminalSafeLines } from '../text/terminal-safe';
import { exitBySignal } from '../runtime/hard-exit';

const SIGNALS = { SIGINT: 2, SIGHUP: 1, SIGTERM: 15 } as const;
type Signal = keyof typeof SIGNALS;

export function crashMessage(error: unknown): string {
  return `burrow: unexpected error: ${redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Native work the process must stop before it exits (the logs engines: Node's exit waits for them). */
export interface NativeWork {
  /** Interrupts it; resolves true once nothing runs, false after `withinMs`. */
  stop(withinMs: number): Promise<boolean>;
  busy(): boolean;
}

/** How long native work gets to stop after an interrupt before the process dies by its signal. */
const NATIVE_STOP_MS = 1200;
/** Past this, a signal's exit does not wait for native work any longer (2 s promised in all). */
const SIGNAL_EXIT_MS = 1500;

export interface FullScreen {
  /** True once the run is ending (a signal or a crash came first). */
  readonly finishing: boolean;
  /** Renders `root` on the alternate screen until it exits; the exit code (0, or 70 after a crash). */
  run(root: React.ReactElement): Promise<number>;
  /** Ends the run as a normal quit. */
  quit(): void;
  /** Restores the terminal and detaches the process handlers: call it in a finally. */
  dispose(): void;
}

/**
 * The full-screen lifecycle shared by the console and `burrow sql` at a terminal. Whatever way the
 * run ends (quit, crash, SIGINT, SIGTERM, SIGHUP), the terminal is restored first (alternate
 * screen left, cursor shown, raw mode off), then any error is printed, then `finish` runs once
 * (close sessions, stop the emulator child) and the note it returns is printed.
 */
export function fullScreen(io: Io, finish: () => Promise<string | null>, native?: NativeWork): FullScreen {
  tuneHeapForResidentMemory();
  const stdout = io.stdout as unknown as NodeJS.WriteStream;
  const stdin = io.stdin as unknown as NodeJS.ReadStream;
  const stderr = io.stderr as unknown as NodeJS.WriteStream;
  const terminal = new TerminalGuard(stdout, stdin);
  let instance: Instance | null = null;
  let finishing = false;
  const tell = (text: string | null) => {
    if (!text) return;
    try {
      stderr.write(terminalSafeLines(text));
    } catch {
      // no terminal left to tell
    }
  };
  const finishOnce = () => finish().catch(() => null);

  /** process.exit, or, while native work still runs (process.exit would then never return), death by the signal. */
  const exitNow = (code: number) => {
    if (native?.busy()) exitBySignal(code);
    process.exit(code);
  };

  /**
   * Leaves the screen, stops native work, runs finish, exits. Used by signals and crashes. A
   * second signal while it runs exits at once.
   */
  const emergencyExit = (code: number, message: string | null) => {
    if (finishing) {
      if (code !== 70) exitNow(code);
      return;
    }
    finishing = true;
    try {
      instance?.unmount();
    } catch {
      // a broken render tree must not keep the terminal in raw mode
    }
    terminal.restore();
    tell(message);
    const stopped = native ? native.stop(NATIVE_STOP_MS) : Promise.resolve(true);
    const done = () => exitNow(code);
    void Promise.all([finishOnce().then(tell), stopped]).finally(done);
    setTimeout(() => {
      if (native?.busy()) exitBySignal(code);
    }, SIGNAL_EXIT_MS).unref();
    setTimeout(done, 3000).unref();
  };
  const handlers = (Object.keys(SIGNALS) as Signal[]).map((sig) => [sig, () => emergencyExit(128 + SIGNALS[sig], null)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  const onCrash = (error: unknown) => emergencyExit(70, crashMessage(error));
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  return {
    get finishing() {
      return finishing;
    },
    quit() {
      instance?.unmount();
    },
    async run(root) {
      terminal.enter();
      // BURROW_FRAME_LOG=FILE: key and frame times for the benchmarks (nothing is wrapped without it)
      const frames = createFrameLog(io.env.BURROW_FRAME_LOG);
      const running = render(root, {
        stdout: inkStdout(stdout, frames),
        stdin: frames ? frames.stdin(stdin) : stdin,
        ...(frames ? { onRender: frames.onRender } : {}),
        stderr,
        exitOnCtrlC: false,
        patchConsole: false,
        incrementalRendering: true,
        maxFps: maxFpsFor(io.env),
      });
      instance = running;
      let failure: unknown = null;
      try {
        await running.waitUntilExit();
      } catch (error) {
        failure = error;
      }
      if (finishing) return 1;
      finishing = true;
      terminal.restore();
      // a statement still running would keep the process from exiting
      if (native && !(await native.stop(NATIVE_STOP_MS))) exitBySignal(failure ? 70 : 0);
      tell(await finishOnce());
      if (failure) {
        tell(crashMessage(failure));
        return 70;
      }
      return 0;
    },
    dispose() {
      terminal.restore();
      for (const [sig, h] of handlers) process.off(sig, h);
      process.off('uncaughtException', onCrash);
      process.off('unhandledRejection', onCrash);
    },
  };
}
