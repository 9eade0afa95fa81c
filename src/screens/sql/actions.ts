import { defineActions } from '../../keys/keymap';

/**
 * Keys of the SQL screen (context "sql"). While the input has the keyboard every printable key
 * types, and enter, arrows, page keys, esc and ctrl-d are the editor's (see .help); the actions
 * here are the ones a person may want to rebind.
 */
export const sqlActions = defineActions([
  { id: 'sql.complete', keys: ['tab'], description: 'complete a keyword, table or column', context: 'sql', hint: 'complete' },
  { id: 'sql.search', keys: ['ctrl-r'], description: 'search the history backwards (again: older match)', context: 'sql', hint: 'history' },
  { id: 'sql.edit', keys: ['i'], description: 'back to the SQL input (from the results)', context: 'sql', hint: 'input' },
  { id: 'sql.left', keys: ['h'], description: 'scroll the result to the left (← too)', context: 'sql' },
  { id: 'sql.right', keys: ['l'], description: 'scroll the result to the right (→ too)', context: 'sql' },
  { id: 'sql.expanded', keys: ['x'], description: 'this result as expanded records, or back (.x: the next queries)', context: 'sql', hint: 'expanded' },
  { id: 'sql.prevResult', keys: ['['], description: 'show the previous result', context: 'sql' },
  { id: 'sql.nextResult', keys: [']'], description: 'show the next result', context: 'sql' },
]);

declare module '../../keys/keymap' {
  interface ActionIds extends Record<(typeof sqlActions)[number]['id'], true> {}
}
