import React from 'react';
import { Text } from 'ink';
import type { Settings } from '../config/settings';
import { redact } from '../config/redact';
import { configFileWarnings } from '../config/config-file';
import type { Io } from '../runtime/io';
import { connectInteractive, type PlatformConnection } from '../runtime/connect';
import { DomainStores } from '../state/domain-stores';
import { createUiStore } from '../state/ui-store';
import type { ConnectionInfo } from '../state/store-hooks';
import { App } from './App';
import { appKeymap } from './app-keymap';
import { HOME_SCREEN, SCREENS } from './screens';
import { fullScreen, hostOf } from './full-screen';
import { keepStylesWithoutColour } from './styles-without-colour';
import { terminalSafe } from '../text/terminal-safe';
import { markStartupDone } from './startup-done';
import { nativeBusy, stopLogsEngines } from '../state/sql/logs-backend';
import { stopStoreQueries } from '../state/sql/store-backend';
import { LogsSessions, sessionPath } from '../state/logs/session-file';
import { rememberOpenLogs, reopenLogs } from './logs-session-start';

/**
 * The interactive console. Connects (starting the emulator child when there are no
 * credentials), enters the alternate screen, renders the app, and on every way out (quit,
 * crash, SIGINT, SIGTERM, SIGHUP) restores the terminal and stops the emulator child.
 */
export async function runConsole(settings: Settings, io: Io, options: { fresh?: boolean } = {}): Promise<number> {
  let platform: PlatformConnection | null = null;
  keepStylesWithoutColour(settings.color, io.env);
  const screen = fullScreen(
    io,
    async () => {
      // a ClickHouse query of :sql store still running is stopped on the server, not left to run
      await Promise.all([platform?.close().catch(() => {}), stopStoreQueries(1500)]);
      return null;
    },
    { stop: stopLogsEngines, busy: nativeBusy },
  );
  try {
    if (settings.target === 'emulator') {
      const why = settings.apiKey ? '--demo' : 'no API key configured';
      io.stderr.write(`burrow: ${why}, starting the built-in emulator…\n`);
    }
    try {
      platform = await connectInteractive(settings, io);
    } catch (error) {
      io.stderr.write(`burrow: could not start the console: ${terminalSafe(redact((error as Error).message))}\n`);
      return 1;
    }
    if (screen.finishing) return 1;

    const { keymap, warnings } = appKeymap(settings.keys);
    const ui = createUiStore({ readOnly: settings.readOnly, readOnlySource: settings.readOnlySource, home: HOME_SCREEN, onQuit: () => screen.quit() });
    const sessions = new LogsSessions(sessionPath(settings.profileName, settings.target === 'emulator', io.env), options.fresh === true);
    ui.getState().setWarnings([...configFileWarnings(io.env), ...settings.warnings, ...warnings, ...(sessions.warning ? [sessions.warning] : [])]);
    reopenLogs(ui, sessions);
    // the database this console talks to (the emulator child's when burrow started one)
    const consoleSettings = { ...settings, databaseUrl: platform.databaseUrl, databaseToken: platform.databaseToken };
    const stores = new DomainStores({ api: platform.api, settings: consoleSettings, ui, now: Date.now, sessions });
    const info: ConnectionInfo = {
      profileName: settings.profileName,
      emulator: platform.emulator !== null,
      endpoint: hostOf(platform.api.connection.baseUrl),
      readOnly: settings.readOnly,
      color: settings.color,
    };

    // Test hook (only with BURROW_TEST=1): crash on purpose to prove the terminal is restored.
    const crash = io.env.BURROW_TEST === '1' ? io.env.BURROW_CRASH : undefined;
    if (crash === 'async')
      setTimeout(() => {
        throw new Error('deliberate crash (BURROW_CRASH=async)');
      }, 500);
    const root = crash === 'render' ? <CrashAfterFirstFrame /> : <App stores={stores} info={info} keymap={keymap} registry={SCREENS} />;
    // a second is well past the first complete frame, and before a person's first key
    setTimeout(markStartupDone, 1000).unref();
    const code = await screen.run(root);
    if (code === 0) rememberOpenLogs(ui, sessions);
    return code;
  } finally {
    screen.dispose();
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
