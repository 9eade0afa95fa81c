import React from 'react';
import { createApi } from '../api/index';
import { configFileWarnings } from '../config/config-file';
import { App } from './App';
import { appKeymap } from './app-keymap';
import { fullScreen, hostOf } from './full-screen';
import { keepStylesWithoutColour } from './styles-without-colour';
import type { Io } from '../runtime/io';
import type { Settings } from '../config/settings';
import type { ConnectionInfo } from '../state/store-hooks';
import { DomainStores } from '../state/domain-stores';
import { createSqlStoreWith } from '../state/sql/store';
import { createUiStore } from '../state/ui-store';
import type { OutputMode } from '../sql-repl/output-modes';
import { sqlScreen } from '../screens/sql/index';
import { SqlStoreContext } from '../screens/sql/SqlScreen';
import { LogPageReader } from '../log-engine/index';

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

/**
 * `burrow sql` at a terminal: the console's SQL screen alone, full screen. The same App, keys,
 * confirmations and store as `:sql`; .quit, ctrl-d on an empty line or q in the results quit.
 * The terminal is restored however it ends; an open transaction is rolled back and said so.
 */
export async function runSqlRepl(settings: Settings, io: Io, target: ReplTarget): Promise<number> {
  const { keymap, warnings } = appKeymap(settings.keys, [sqlScreen]);
  const api = createApi(
    {
      baseUrl: target.management?.baseUrl ?? settings.baseUrl,
      loggingUrl: target.management?.loggingUrl ?? settings.loggingUrl,
      apiKey: target.management?.apiKey ?? '',
    },
    { pageReader: new LogPageReader() },
  );
  let disposeStore: () => Promise<{ rolledBack: boolean }> = async () => ({ rolledBack: false });
  keepStylesWithoutColour(settings.color, io.env);
  const screen = fullScreen(io, async () => {
    const closed = await disposeStore().catch(() => ({ rolledBack: false }));
    await api.close().catch(() => {});
    await target.stop().catch(() => {});
    return closed.rolledBack ? 'burrow: the open transaction was rolled back (it was not committed before leaving)\n' : null;
  });
  try {
    const ui = createUiStore({ readOnly: settings.readOnly, readOnlySource: settings.readOnlySource, home: sqlScreen.id, onQuit: () => screen.quit() });
    ui.getState().setWarnings([...configFileWarnings(io.env), ...settings.warnings, ...warnings]);
    const consoleSettings: Settings = { ...settings, databaseUrl: target.url, databaseToken: target.token };
    const stores = new DomainStores({ api, settings: consoleSettings, ui, now: Date.now });
    const store = createSqlStoreWith(stores.deps, { standalone: true, emulator: target.emulator, lookupName: target.management !== null, env: io.env });
    if (target.mode) store.setState({ mode: target.mode });
    disposeStore = () => store.getState().dispose();

    const info: ConnectionInfo = {
      profileName: settings.profileName,
      emulator: target.emulator,
      endpoint: hostOf(target.url),
      readOnly: settings.readOnly,
      color: settings.color,
    };
    return await screen.run(
      <SqlStoreContext.Provider value={store}>
        <App stores={stores} info={info} keymap={keymap} registry={[sqlScreen]} />
      </SqlStoreContext.Provider>,
    );
  } finally {
    screen.dispose();
  }
}
