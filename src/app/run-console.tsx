import React from 'react';
import { render, Text, type Instance } from 'ink';
import type { Settings } from '../config/settings';
import { redact } from '../config/redact';
import type { Io } from '../commands/types';
import { connectInteractive, type Session } from '../commands/connect';
import { SessionStores } from '../state/session';
import { createUiStore } from '../state/ui-store';
import type { SessionInfo } from '../state/react';
import { App } from './App';
import { appKeymap } from './app-keymap';
import { HOME_SCREEN, SCREENS } from './screens';
import { inkStdout, maxFpsFor, TerminalGuard } from './terminal';
import { createFrameLog } from './frame-log';

const SIGNALS = { SIGINT: 2, SIGHUP: 1, SIGTERM: 15 } as const;
type Signal = keyof typeof SIGNALS;

/**
 * The interactive console. Connects (starting the emulator child when there are no
 * credentials), enters the alternate screen, renders the app, and on every way out (quit,
 * crash, SIGINT, SIGTERM, SIGHUP) restores the terminal and stops the emulator child.
 */
export async function runConsole(settings: Settings, io: Io): Promise<number> {
  const stdout = io.stdout as unknown as NodeJS.WriteStream;
  const stdin = io.stdin as unknown as NodeJS.ReadStream;
  const stderr = io.stderr as unknown as NodeJS.WriteStream;
  const terminal = new TerminalGuard(stdout, stdin);
  let session: Session | null = null;
  let instance: Instance | null = null;
  let finishing = false;

  /** Leaves the screen, stops the child, exits. Used by signals and crashes. */
  const emergencyExit = (code: number, message: string | null) => {
    if (finishing) return;
    finishing = true;
    try {
      instance?.unmount();
    } catch {
      // a broken render tree must not keep the terminal in raw mode
    }
    terminal.restore();
    if (message) {
      try {
        stderr.write(message);
      } catch {
        // no terminal left to tell
      }
    }
    const done = () => process.exit(code);
    const closing = session ? session.close().catch(() => {}) : Promise.resolve();
    void closing.then(done);
    setTimeout(done, 3000).unref();
  };

  const onSignal = (signal: Signal) => () => emergencyExit(128 + SIGNALS[signal], null);
  const handlers = (Object.keys(SIGNALS) as Signal[]).map((sig) => [sig, onSignal(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  const onCrash = (error: unknown) =>
    emergencyExit(70, `burrow: unexpected error: ${redact(error instanceof Error ? error.stack ?? error.message : String(error))}\n`);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const detach = () => {
    for (const [sig, h] of handlers) process.off(sig, h);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  };

  try {
    if (settings.target === 'emulator') {
      const why = settings.apiKey ? '--demo' : 'no API key configured';
      io.stderr.write(`burrow: ${why}, starting the built-in emulator…\n`);
    }
    try {
      session = await connectInteractive(settings, io);
    } catch (error) {
      io.stderr.write(`burrow: could not start the console: ${redact((error as Error).message)}\n`);
      return 1;
    }
    if (finishing) return 1;

    const { keymap, warnings } = appKeymap(settings.keys);
    let quit = () => {};
    const ui = createUiStore({ readOnly: settings.readOnly, home: HOME_SCREEN, onQuit: () => quit() });
    ui.getState().setWarnings([...settings.warnings, ...warnings]);
    // the database the session talks to (the emulator child's when burrow started one)
    const sessionSettings = { ...settings, databaseUrl: session.databaseUrl, databaseToken: session.databaseToken };
    const stores = new SessionStores({ api: session.api, settings: sessionSettings, ui, now: Date.now });
    const info: SessionInfo = {
      profileName: settings.profileName,
      emulator: session.emulator !== null,
      endpoint: hostOf(session.api.connection.baseUrl),
      readOnly: settings.readOnly,
      color: settings.color,
    };

    // Test hook (only with BURROW_TEST=1): crash on purpose to prove the terminal is restored.
    const crash = io.env.BURROW_TEST === '1' ? io.env.BURROW_CRASH : undefined;
    if (crash === 'async') setTimeout(() => { throw new Error('deliberate crash (BURROW_CRASH=async)'); }, 500);
    const root = crash === 'render' ? <CrashAfterFirstFrame /> : <App stores={stores} info={info} keymap={keymap} registry={SCREENS} />;

    terminal.enter();
    // BURROW_FRAME_LOG=FILE: key and frame times for the benchmarks (nothing is wrapped without it)
    const frames = createFrameLog(io.env.BURROW_FRAME_LOG);
    instance = render(root, {
      stdout: inkStdout(stdout, frames),
      stdin: frames ? frames.stdin(stdin) : stdin,
      ...(frames ? { onRender: frames.onRender } : {}),
      stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: true,
      maxFps: maxFpsFor(io.env),
    });
    const running = instance;
    quit = () => running.unmount();
    let failure: unknown = null;
    try {
      await running.waitUntilExit();
    } catch (error) {
      failure = error;
    }
    if (finishing) return 1;
    finishing = true;
    terminal.restore();
    await session.close().catch(() => {});
    if (failure) {
      io.stderr.write(`burrow: unexpected error: ${redact(failure instanceof Error ? failure.stack ?? failure.message : String(failure))}\n`);
      return 70;
    }
    return 0;
  } finally {
    terminal.restore();
    detach();
  }
}

function CrashAfterFirstFrame(): React.JSX.Element {
  const [n, setN] = React.useState(0);
  React.useEffect(() => {
    const t = setTimeout(() => setN(1), 300);
    return () => clearTimeout(t);
  }, []);
  if (n > 0) throw new Error('deliberate render crash (BURROW_CRASH=render)');
  return <Text>about to crash</Text>;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
