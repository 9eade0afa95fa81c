import { defineActions } from '../../keys/keymap';

export const databasesActions = defineActions([
  { id: 'databases.tokens', keys: ['t'], description: "the selected database's tokens: make one, invalidate all", context: 'databases', hint: 'tokens' },
  {
    id: 'databases.createToken',
    keys: ['c'],
    description: 'tokens pane: make a full-access token with the chosen expiry',
    context: 'databases',
    mutates: true,
  },
  { id: 'databases.createReadOnlyToken', keys: ['o'], description: 'tokens pane: make a read-only token with the chosen expiry', context: 'databases' },
  { id: 'databases.expiry', keys: ['e'], description: 'tokens pane: the next token expires in 1 day, 30 days, 1 year or never', context: 'databases' },
  {
    id: 'databases.invalidate',
    keys: ['x'],
    description: 'tokens pane: invalidate EVERY token of the database (asks first)',
    context: 'databases',
    mutates: true,
  },
]);

declare module '../../keys/keymap' {
  interface ActionIds extends Record<(typeof databasesActions)[number]['id'], true> {}
}
