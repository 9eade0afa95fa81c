import type { ScreenDef } from '../screen-def';
import { sqlActions } from './actions';
import { SqlScreen } from './SqlScreen';

export const sqlScreen: ScreenDef = {
  id: 'sql',
  title: 'sql',
  aliases: [],
  summary: 'SQL shell on the database',
  actions: sqlActions,
  component: SqlScreen,
};
