import React from 'react';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { PolledListView, usePolledList } from '../polled-list';
import { useActions } from '../../keys/input-hooks';
import { createDatabasesStore, TOKEN_EXPIRIES, type DatabaseRow } from '../../state/databases-store';
import { databasesActions } from './actions';
import { TokensPane } from './TokensPane';
import { createSqlStore } from '../../state/sql/store';
import { useDomainStore, useSelect, useUiStore } from '../../state/store-hooks';
import { databaseColumns } from './databases-view';
import { formatDateText } from '../../text/time-format';
import { serverRecord } from '../server-record';
import { SCREEN_ALIASES } from '../../renderers/screen-names';

/** The account's databases: name, regions, size, rows read and written over 30 days. */
export function DatabasesScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createDatabasesStore);
  const rows = useSelect(store, (s) => s.rows);
  const openError = useSelect(store, (s) => s.openError);
  const sql = useDomainStore(createSqlStore);
  const ui = useUiStore();
  // enter: :sql on this database with a token made for the session (left to expire, said there)
  const open = (row: DatabaseRow): void => {
    void (async () => {
      const made = await store.getState().sessionToken(row.db);
      if (!made) return;
      if ((await sql.getState().switchDatabase(row.db.url, made.token)) === 'transaction') {
        store.getState().setOpenError('the SQL shell has a transaction open: end it (COMMIT or ROLLBACK) before opening another database');
        return;
      }
      // the message is about the shell opened: set once it is the screen shown
      ui.getState().navigate('sql');
      ui.getState().setStatus(
        `${row.db.name}: ${made.access} session token, expires ${made.expiresAt ? formatDateText(made.expiresAt, 'dateTime') : 'never'}; left to expire (revoking would revoke every token of the database)`,
        'info',
        15_000,
      );
    })();
  };
  usePolledList(store);
  const tokensFor = useSelect(store, (s) => s.tokensFor);
  const inPane = () => store.getState().tokensFor !== null;
  useActions({
    'databases.tokens': () => store.getState().openTokens(),
    'databases.createToken': () => (inPane() ? void store.getState().createToken('full-access') : false),
    'databases.createReadOnlyToken': () => (inPane() ? void store.getState().createToken('read-only') : false),
    'databases.expiry': () => (inPane() ? store.getState().cycleExpiry() : false),
    'databases.invalidate': () => {
      const st = store.getState();
      if (st.tokensFor === null) return false;
      const db = st.rows.find((r) => r.db.id === st.tokensFor)?.db;
      const known = st.made[st.tokensFor]?.length ?? 0;
      ui.getState().ask({
        kind: 'mutation',
        title: `Invalidate every token of ${db?.name ?? st.tokensFor}?`,
        detail: 'The platform cannot revoke one token: this invalidates all of them, including ones made elsewhere (apps using them fail at once).',
        lines: [{ kind: 'changed', path: `${db?.name ?? st.tokensFor} tokens`, before: `valid (${known} made here, others unknown)`, after: 'all invalid' }],
        yesLabel: 'invalidate',
        onYes: () => store.getState().invalidateTokens(),
      });
      return true;
    },
    'app.back': () => {
      if (!inPane()) return false;
      store.getState().closeTokens();
      return true;
    },
  });
  if (tokensFor !== null) {
    const row = rows.find((r) => r.db.id === tokensFor);
    return <TokensPane store={store} name={row?.db.name ?? tokensFor} expiryLabel={TOKEN_EXPIRIES} width={width} height={height} />;
  }
  return (
    <PolledListView
      store={store}
      id="databases"
      title="Databases"
      noun={['database', 'databases']}
      hint="usage over the last 30 days · enter: SQL shell on it"
      none="no databases"
      errors={[openError]}
      columns={databaseColumns}
      width={width}
      height={height}
      onOpen={open}
      onSelect={(r) => store.getState().select(r?.db.id ?? null)}
      record={(r) => {
        const db = serverRecord(`database ${r.db.name}`, r.db);
        const usage = r.usage ? serverRecord('usage', r.usage).value : null;
        return { title: `${db.title} · the database and its usage over 30 days`, value: { database: db.value, usage } };
      }}
    />
  );
}

export const databasesScreen: ScreenDef = {
  id: 'databases',
  title: 'databases',
  aliases: [...SCREEN_ALIASES.databases],
  summary: 'databases: regions, size, rows read and written; open one in :sql; tokens',
  actions: databasesActions,
  component: DatabasesScreen,
};
