import type { ActionDef } from '../../keys/keymap';

/**
 * Keys of the containers screen (context "containers"). The generic screen keys (r refresh,
 * p pause) and the table keys come from the core keymap; add screen-only actions here.
 */
export const containersActions: ActionDef[] = [];
