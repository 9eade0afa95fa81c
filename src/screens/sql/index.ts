import type { ScreenDef } from '../screen-def';
import { sqlActions } from './actions';
import { SqlScreen } from './SqlScreen';
import { SCREEN_ALIASES } from '../../renderers/screen-names';

export const sqlScreen: ScreenDef = {
  id: 'sql',
  title: 'sql',
  aliases: [...SCREEN_ALIASES.sql],
  summary: "SQL shell on the database; :sql logs: SQL on the logs screen's records; :sql store: on the log store (ClickHouse)",
  arg: {
    name: 'logs|store',
    validate: (value) =>
      value === 'logs' || value === 'store'
        ? null
        : ":sql takes no argument, logs (SQL on the logs screen's records) or store (SQL on the log store, ClickHouse)",
  },
  actions: sqlActions,
  component: SqlScreen,
};
