import type { ScreenDef } from '../screen-def';
import { sqlActions } from './actions';
import { SqlScreen } from './SqlScreen';
import { SCREEN_ALIASES } from '../../renderers/screen-names';

export const sqlScreen: ScreenDef = {
  id: 'sql',
  title: 'sql',
  aliases: [...SCREEN_ALIASES.sql],
  summary: "SQL shell on the database; :sql logs: SQL on the logs screen's records",
  arg: {
    name: 'logs',
    validate: (value) => (value === 'logs' ? null : ":sql takes no argument, or logs (SQL on the logs screen's records)"),
  },
  actions: sqlActions,
  component: SqlScreen,
};
