import { defineActions } from '../../keys/keymap';

/**
 * Keys of the containers screen (context "containers"). The generic screen keys (r refresh,
 * p pause) and the table keys come from the core keymap (d raw record and w wide mode too, so
 * save is c and deleting a node selector D). Editing keys are `mutates`: hidden and refused in
 * read-only mode.
 */
export const containersActions = defineActions([
  {
    id: 'containers.save',
    keys: ['c'],
    description: 'save the region settings: check them, show the diff, then PUT',
    context: 'containers',
    hint: 'save',
    mutates: true,
  },
  {
    id: 'containers.toggleAllowed',
    keys: ['space'],
    description: 'allow or disallow the selected region',
    context: 'containers',
    hint: 'allow',
    mutates: true,
  },
  { id: 'containers.toggleRequired', keys: ['x'], description: 'require the selected region, or not', context: 'containers', hint: 'require', mutates: true },
  { id: 'containers.maxUp', keys: ['+', '='], description: 'one more max allowed region', context: 'containers', hint: 'max', mutates: true },
  { id: 'containers.maxDown', keys: ['-'], description: 'one less max allowed region', context: 'containers', mutates: true },
  { id: 'containers.focus', keys: ['tab'], description: 'switch between the regions and the node selectors', context: 'containers', hint: 'selectors' },
  { id: 'containers.addSelector', keys: ['n'], description: 'add a node selector (key, then value)', context: 'containers', hint: 'add', mutates: true },
  { id: 'containers.editSelector', keys: ['e'], description: 'edit the selected node selector', context: 'containers', mutates: true },
  { id: 'containers.deleteSelector', keys: ['D'], description: 'delete the selected node selector', context: 'containers', mutates: true },
  {
    id: 'containers.details',
    keys: ['i'],
    description: 'what the app runs: templates, env, instances by region, volumes (read-only)',
    context: 'containers',
    hint: 'details',
  },
  { id: 'containers.undo', keys: ['u'], description: 'throw the region settings changes away', context: 'containers', mutates: true },
]);

declare module '../../keys/keymap' {
  interface ActionIds extends Record<(typeof containersActions)[number]['id'], true> {}
}
