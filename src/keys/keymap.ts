import { describeValidKeyNames, isValidKeyName } from './key-event';

/**
 * The keymap is data. Help, key hints, the README table and dispatch are all generated from it.
 *
 * Contexts say where an action can fire:
 *   always   - everywhere, even inside overlays (ctrl-c)
 *   global   - on any screen when no overlay or text field has the keyboard
 *   screen   - generic screen actions a screen may handle (refresh, pause)
 *   list     - a table has the keyboard (navigation, filter, sort, open)
 *   palette, filter, help, record, confirm - the overlay or field of that name
 *   <screen id> - actions one screen registers (see ScreenDef.actions)
 *   <screen id>:<panel> - a panel of that screen that can have the keys (the logs screen's
 *            timeline): its actions come first on that screen and shadow the screen's own keys
 *            on purpose; their handlers pass a key on (return false) while the panel does not
 *            have the focus
 */
export interface ActionDef {
  id: string;
  keys: string[];
  description: string;
  context: string;
  /** Changes something on the platform: hidden and refused in read-only mode. */
  mutates?: boolean;
  /** Short label for the key hints line; no label = not shown there. */
  hint?: string;
  /**
   * How much the hint matters (default 0): the hint line shows higher ones first, so at any
   * width the keys a person needs most (/, ?, q) are the ones that fit.
   */
  priority?: number;
}

export interface Keymap {
  actions: ActionDef[];
  byId: Map<string, ActionDef>;
}

/** Declares actions, keeping their ids as literal types so they can join ActionId. */
export function defineActions<const Id extends string>(actions: readonly (ActionDef & { id: Id })[]): (ActionDef & { id: Id })[] {
  return [...actions];
}

export const CORE_ACTIONS = defineActions([
  { id: 'app.palette', keys: [':'], description: 'open the command palette', context: 'global', hint: 'command', priority: 60 },
  { id: 'app.help', keys: ['?'], description: 'show the keys for this screen', context: 'global', hint: 'help', priority: 70 },
  { id: 'app.back', keys: ['esc'], description: 'back: clear the filter, close, or go to the previous screen', context: 'global', hint: 'back', priority: 50 },
  { id: 'app.quit', keys: ['q'], description: 'quit (asks first only when something is pending)', context: 'global', hint: 'quit', priority: 70 },
  { id: 'app.redraw', keys: ['ctrl-l'], description: 'redraw the whole screen', context: 'global' },
  { id: 'app.interrupt', keys: ['ctrl-c'], description: 'quit from anywhere; twice to skip the question', context: 'always' },

  { id: 'screen.refresh', keys: ['r'], description: 'refresh now', context: 'screen', hint: 'refresh', priority: 10 },
  { id: 'screen.pause', keys: ['p'], description: 'pause or resume live refresh', context: 'screen', hint: 'pause', priority: 10 },

  { id: 'nav.down', keys: ['j', 'down'], description: 'move down', context: 'list' },
  { id: 'nav.up', keys: ['k', 'up'], description: 'move up', context: 'list' },
  { id: 'nav.top', keys: ['g', 'home'], description: 'go to the first row', context: 'list' },
  { id: 'nav.bottom', keys: ['G', 'end'], description: 'go to the last row', context: 'list' },
  { id: 'nav.pageDown', keys: ['pgdn', 'ctrl-f'], description: 'one page down', context: 'list' },
  { id: 'nav.pageUp', keys: ['pgup', 'ctrl-b'], description: 'one page up', context: 'list' },
  { id: 'list.open', keys: ['enter'], description: 'open the selected row', context: 'list', hint: 'open', priority: 75 },
  { id: 'list.filter', keys: ['/'], description: 'filter the rows of this table', context: 'list', hint: 'filter', priority: 90 },
  { id: 'list.sort', keys: ['s'], description: 'sort by the next column', context: 'list' },
  { id: 'list.sortReverse', keys: ['S'], description: 'reverse the sort order', context: 'list' },
  {
    id: 'list.raw',
    keys: ['d'],
    description: 'the selected row as the server sent it: pretty JSON, secrets masked',
    context: 'list',
    hint: 'raw',
    priority: 20,
  },
  { id: 'list.wide', keys: ['w'], description: 'wide mode on or off: no cell cut, scroll sideways with ← →', context: 'list', hint: 'wide', priority: 20 },
  { id: 'list.left', keys: ['left'], description: 'wide mode: one column to the left', context: 'list' },
  { id: 'list.right', keys: ['right'], description: 'wide mode: one column to the right', context: 'list' },
  { id: 'list.pageLeft', keys: ['shift-left'], description: 'wide mode: one screen to the left', context: 'list' },
  { id: 'list.pageRight', keys: ['shift-right'], description: 'wide mode: one screen to the right', context: 'list' },
  { id: 'list.firstColumn', keys: ['0'], description: 'wide mode: back to the first column', context: 'list' },
  { id: 'list.lastColumn', keys: ['$'], description: 'wide mode: to the last column', context: 'list' },

  { id: 'palette.run', keys: ['enter'], description: 'run the command', context: 'palette', hint: 'run', priority: 90 },
  { id: 'palette.complete', keys: ['tab'], description: 'complete the command', context: 'palette', hint: 'complete' },
  { id: 'palette.next', keys: ['down', 'ctrl-n'], description: 'next suggestion', context: 'palette', hint: 'choose' },
  { id: 'palette.prev', keys: ['up', 'ctrl-p'], description: 'previous suggestion', context: 'palette' },
  { id: 'palette.close', keys: ['esc'], description: 'close the palette', context: 'palette', hint: 'close', priority: 85 },

  { id: 'filter.apply', keys: ['enter'], description: 'keep the filter and return to the table', context: 'filter', hint: 'keep', priority: 90 },
  { id: 'filter.cancel', keys: ['esc'], description: 'clear the filter', context: 'filter', hint: 'clear', priority: 85 },

  // a prompt or form field (a pattern, a time, a file name, a rule): enter applies it, esc cancels it
  { id: 'prompt.apply', keys: ['enter'], description: 'apply what was typed (run the prompt)', context: 'prompt', hint: 'apply', priority: 90 },
  { id: 'prompt.cancel', keys: ['esc'], description: 'cancel the prompt', context: 'prompt', hint: 'cancel', priority: 85 },

  { id: 'help.close', keys: ['esc', '?', 'q'], description: 'close the help', context: 'help', hint: 'close', priority: 90 },

  { id: 'record.copy', keys: ['y'], description: 'copy the JSON shown (OSC 52)', context: 'record', hint: 'copy' },
  { id: 'record.close', keys: ['esc', 'q'], description: 'close the raw record', context: 'record', hint: 'close', priority: 90 },

  { id: 'confirm.yes', keys: ['y'], description: 'confirm', context: 'confirm', hint: 'yes', priority: 90 },
  { id: 'confirm.no', keys: ['n', 'esc'], description: 'cancel', context: 'confirm', hint: 'cancel', priority: 85 },
]);

type CoreActionId = (typeof CORE_ACTIONS)[number]['id'];

/**
 * Every declared action id. The core ids are here; each screen's actions module adds its own by
 * declaration merging (see src/screens/shield/actions.ts), so a handler for an action nobody
 * declared is a compile error.
 */
export interface ActionIds extends Record<CoreActionId, true> {}

export type ActionId = keyof ActionIds & string;

/** Contexts of the shell itself; every other context is a screen id. */
export const CORE_CONTEXTS = ['always', 'global', 'screen', 'list', 'palette', 'filter', 'prompt', 'help', 'record', 'confirm'] as const;

/** A panel context (`<screen id>:<panel>`). */
export function isPanelContext(context: string): boolean {
  return context.includes(':');
}

/** The panel contexts of a screen in a keymap (most recently declared last). */
export function panelContexts(keymap: Keymap, screenId: string): string[] {
  return [...new Set(keymap.actions.map((a) => a.context).filter((c) => c.startsWith(`${screenId}:`)))];
}

function screenContexts(actions: readonly ActionDef[]): string[] {
  return [...new Set(actions.map((a) => a.context))].filter((c) => !(CORE_CONTEXTS as readonly string[]).includes(c) && !isPanelContext(c));
}

/** A panel's keys conflict only among themselves and with the keys that work everywhere. */
function panelChains(actions: readonly ActionDef[]): string[][] {
  return [...new Set(actions.map((a) => a.context))].filter(isPanelContext).map((c) => [c, 'always']);
}

/** Which contexts can fire at once, most specific first, for each kind of input layer. */
export function contextChain(layer: 'screen' | 'palette' | 'filter' | 'prompt' | 'help' | 'record' | 'confirm' | 'text', screenId?: string): string[] {
  switch (layer) {
    case 'screen':
      return [...(screenId ? [screenId] : []), 'screen', 'list', 'global', 'always'];
    case 'help':
      return ['help', 'list', 'always'];
    case 'record':
      return ['record', 'list', 'always'];
    default:
      return [layer, 'always'];
  }
}

export interface BuiltKeymap {
  keymap: Keymap;
  warnings: string[];
}

function makeKeymap(actions: ActionDef[]): Keymap {
  return { actions, byId: new Map(actions.map((a) => [a.id, a])) };
}

/** Every context that may be active together with `context` in some layer. */
function chainsWith(context: string, screenIds: string[], panels: string[][]): string[][] {
  const chains = [
    ...panels,
    contextChain('screen'),
    ...screenIds.map((id) => contextChain('screen', id)),
    contextChain('palette'),
    contextChain('filter'),
    contextChain('help'),
    contextChain('record'),
    contextChain('confirm'),
  ];
  return chains.filter((c) => c.includes(context));
}

/**
 * Builds the keymap from the defaults plus the user's `keys:` overrides. Problems never throw:
 * they come back as warnings for the status bar, and the bad entry is ignored.
 * When an override takes a key another action in the same context already has, the override
 * wins and the other action loses that key (with a warning).
 */
export function buildKeymap(defaults: ActionDef[], overrides: Record<string, string[]> = {}): BuiltKeymap {
  const warnings: string[] = [];
  const actions = defaults.map((a) => ({ ...a, keys: [...a.keys] }));
  const byId = new Map(actions.map((a) => [a.id, a]));
  const overridden = new Set<string>();
  for (const [id, keys] of Object.entries(overrides)) {
    const action = byId.get(id);
    if (!action) {
      const near = [...byId.keys()].filter((k) => k.split('.')[0] === id.split('.')[0]);
      warnings.push(`keys: unknown action "${id}"${near.length ? ` (did you mean ${near.slice(0, 4).join(', ')}?)` : ''}; ignored`);
      continue;
    }
    const good = keys.filter((k) => isValidKeyName(k));
    for (const bad of keys.filter((k) => !isValidKeyName(k))) {
      warnings.push(`keys: "${bad}" for ${id} is not a key name (use ${describeValidKeyNames()}); ignored`);
    }
    if (good.length === 0) continue;
    action.keys = [...new Set(good)];
    overridden.add(id);
  }
  const screenIds = screenContexts(actions);
  const panels = panelChains(actions);
  // Same key twice where both can fire: the override keeps it, the other loses it.
  for (const winner of actions.filter((a) => overridden.has(a.id))) {
    const chains = chainsWith(winner.context, screenIds, panels);
    for (const other of actions) {
      if (other === winner) continue;
      const together = chains.some((c) => c.includes(other.context));
      if (!together) continue;
      for (const key of winner.keys) {
        if (!other.keys.includes(key)) continue;
        if (other.context === winner.context || !overridden.has(other.id)) {
          other.keys = other.keys.filter((k) => k !== key);
          warnings.push(`keys: "${key}" is now ${winner.id}, so ${other.id} no longer has it${other.keys.length === 0 ? ' (it has no key left)' : ''}`);
        }
      }
    }
  }
  return { keymap: makeKeymap(actions), warnings };
}

/** Key conflicts in a keymap: two actions that can fire together sharing a key. */
export function findConflicts(keymap: Keymap): string[] {
  const screenIds = screenContexts(keymap.actions);
  const chains = [
    ...panelChains(keymap.actions),
    contextChain('screen'),
    ...screenIds.map((id) => contextChain('screen', id)),
    contextChain('palette'),
    contextChain('filter'),
    contextChain('help'),
    contextChain('record'),
    contextChain('confirm'),
  ];
  const found = new Set<string>();
  for (const chain of chains) {
    const seen = new Map<string, ActionDef>();
    for (const context of chain) {
      for (const a of keymap.actions.filter((x) => x.context === context)) {
        for (const key of a.keys) {
          const first = seen.get(key);
          if (first && first.id !== a.id) {
            found.add(`"${key}": ${first.id} (${first.context}) and ${a.id} (${a.context})`);
          } else if (!first) seen.set(key, a);
        }
      }
    }
  }
  return [...found];
}

/**
 * The action a key fires in a chain of contexts: the first context (most specific) that binds
 * the key to an action that is handled right now.
 */
export function resolveAction(keymap: Keymap, chain: string[], key: string, handled: (id: string) => boolean): ActionDef[] {
  const out: ActionDef[] = [];
  for (const context of chain) {
    for (const a of keymap.actions) {
      if (a.context === context && a.keys.includes(key) && handled(a.id)) out.push(a);
    }
  }
  return out;
}

export function keysOf(keymap: Keymap, id: string): string[] {
  return keymap.byId.get(id)?.keys ?? [];
}
