import React from 'react';
import { render, type Instance } from 'ink';
import { createApi } from '../../api/index';
import { App } from '../../app/App';
import { appKeymap } from '../../app/app-keymap';
import { inkStdout, maxFpsFor, TerminalGuard } from '../../app/terminal';
import type { Io } from '../../commands/types';
import { redact } from '../../config/redact';
import type { Settings } from '../../config/settings';
import type { SessionInfo } from '../../state/react';
import { SessionStores } from '../../state/session';
import { createSqlStoreWith } from '../../state/sql-store';
import { createUiStore } from '../../state/ui-store';
import type { OutputMode } from '../../sql-repl/output-modes';
import { sqlScreen } from './index';
import { SqlStoreContext } from './SqlScreen';

export interface ReplTarget {
  url: string;
  token: string | null;
  /** Management API of the same platform (for the database's name), when there is a key. */
  management: { baseUrl: string; loggingUrl: string; apiKey: string } | null;
  /** The database is the built-in emulator's (started for this REPL). */
  emulator: boolean;
  mode?: OutputMode;
  /** Stops what was started for the REPL (the emulator child). */
  stop: () => Promise<void>;
}

const SIGNALS = { SIGINT: 2, SIGHUP: 1, SIGTERM: 15 } as const;
type Signal = keyof typeof SIGNALS;

/**
 * `burrow sql` at a terminal: the console's SQL screen alone, full screen. The same App, keys,
 * confirmations and store as `:sql`; .quit, ctrl-d on an empty line or q in the results quit.
 * The terminal is restored however it ends; an open transaction is rolled back and said so.
 */
export async function runSqlRepl(settings: Settings, io: Io, target: ReplTarget): Promise<number> {
  const stdout = io.stdout as unknown as NodeJS.WriteStream;
  const stdin = io.stdin as unknown as NodeJS.ReadStream;
  const stderr = io.stderr as unknown as NodeJS.WriteStream;
  const terminal = new TerminalGuard(stdout, stdin);
  let instance: Instance | null = null;
  let finishing = false;

  const { keymap, warnings } = appKeymap(settings.keys, [sqlScreen]);
  let quit = () => {};
  const ui = createUiStore({ readOnly: settings.readOnly, home: sqlScreen.id, onQuit: () => quit() });
  ui.getState().setWarnings([...settings.warnings, ...warnings]);
  const api = createApi({
    baseUrl: target.management?.baseUrl ?? settings.baseUrl,
    loggingUrl: target.management?.loggingUrl ?? settings.loggingUrl,
    apiKey: target.management?.apiKey ?? '',
  });
  const sessionSettings: Settings = { ...settings, databaseUrl: target.url, databaseToken: target.token };
  const stores = new SessionStores({ api, settings: sessionSettings, ui, now: Date.now });
  const store = createSqlStoreWith(stores.deps, { standalone: true, emulator: target.emulator, lookupName: target.management !== null, env: io.env });
  if (target.mode) store.setState({ mode: target.mode });

  const finish = async (): Promise<string | null> => {
    const closed = await store.getState().dispose();
    await api.close().catch(() => {});
    await target.stop().catch(() => {});
    return closed.rolledBack ? 'burrow: the open transaction was rolled back (it was not committed before leaving)\n' : null;
  };

  const emergencyExit = (code: number, message: string | null) => {
    if (finishing) return;
    finishing = true;
    try {
      instance?.unmount();
    } catch {
      // a broken render tree must not keep the terminal in raw mode
    }
    terminal.restore();
    const done = () => process.exit(code);
    void finish()
      .then((note) => {
        try {
          if (message) stderr.write(message);
          if (note) stderr.write(note);
        } catch {
          // no terminal left to tell
        }
      })
      .finally(done);
    setTimeout(done, 3000).unref();
  };
  const handlers = (Object.keys(SIGNALS) as Signal[]).map((sig) => [sig, () => emergencyExit(128 + SIGNALS[sig], null)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  const onCrash = (error: unknown) =>
    emergencyExit(70, `burrow: unexpected error: ${redact(error instanceof Error ? error.stack ?? error.message : String(error))}\n`);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  const info: SessionInfo = {
    profileName: settings.profileName,
    emulator: target.emulator,
    endpoint: hostOf(target.url),
    readOnly: settings.readOnly,
    color: settings.color,
  };
  try {
    terminal.enter();
    instance = render(
      <SqlStoreContext.Provider value={store}>
        <App stores={stores} info={info} keymap={keymap} registry={[sqlScreen]} />
      </SqlStoreContext.Provider>,
      {
        stdout: inkStdout(stdout),
        stdin,
        stderr,
        exitOnCtrlC: false,
        patchConsole: false,
        incrementalRendering: true,
        maxFps: maxFpsFor(io.env),
      },
    );
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
    const note = await finish();
    if (note) io.stderr.write(note);
    if (failure) {
      io.stderr.write(`burrow: unexpected error: ${redact(failure instanceof Error ? failure.stack ?? failure.message : String(failure))}\n`);
      return 70;
    }
    return 0;
  } finally {
    terminal.restore();
    for (const [sig, h] of handlers) process.off(sig, h);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
