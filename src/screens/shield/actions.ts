import { defineActions } from '../../keys/keymap';

/**
 * Keys of the shield screen (context "shield"). Edits stay local until `c`, which opens the one
 * confirm path; every key that leads to a change on the platform is `mutates` (hidden and
 * refused in read-only mode). Checking a spec file against the limits is not a change.
 */
export const shieldActions = defineActions([
  { id: 'shield.nextPage', keys: [']'], description: 'next page of zones', context: 'shield', hint: 'page' },
  { id: 'shield.prevPage', keys: ['['], description: 'previous page of zones', context: 'shield' },
  { id: 'shield.toggleEnabled', keys: ['e'], description: 'API Guardian on/off (a local edit until sent)', context: 'shield', hint: 'on/off', mutates: true },
  { id: 'shield.cycleMode', keys: ['m'], description: 'next execution mode: Log, Block (local edit)', context: 'shield', hint: 'mode', mutates: true },
  {
    id: 'shield.cycleBodyLimit',
    keys: ['b'],
    description: 'next body-limit action: Block, Log, Ignore (local edit)',
    context: 'shield',
    hint: 'body',
    mutates: true,
  },
  {
    id: 'shield.cycleUnmatched',
    keys: ['u'],
    description: 'next unmatched-path action: Block, Log, Ignore (local edit)',
    context: 'shield',
    hint: 'unmatched',
    mutates: true,
  },
  {
    id: 'shield.send',
    keys: ['c'],
    description: 'review and send: the edited settings, or the checked spec (a confirm shows exactly what is sent)',
    context: 'shield',
    hint: 'send',
    mutates: true,
  },
  { id: 'shield.discard', keys: ['x'], description: 'discard the edits not sent yet', context: 'shield', hint: 'discard' },
  {
    id: 'shield.spec',
    keys: ['o'],
    description: 'check a local OpenAPI file against the plan limits (then c uploads it)',
    context: 'shield',
    hint: 'spec file',
  },
  {
    id: 'shield.forceSpec',
    keys: ['F'],
    description: 'upload the checked spec even though the local check finds it over the limits',
    context: 'shield',
    mutates: true,
  },
]);

declare module '../../keys/keymap' {
  interface ActionIds extends Record<(typeof shieldActions)[number]['id'], true> {}
}
