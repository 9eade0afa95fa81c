import { buildKeymap, CORE_ACTIONS, type ActionDef, type BuiltKeymap } from '../keys/keymap';
import type { ScreenDef } from '../screens/screen-def';
import { SCREENS } from './screens';

/** Core actions plus every screen's own actions (their context is the screen id, or a panel of it: `id:panel`). */
export function allActions(registry: readonly ScreenDef[] = SCREENS): ActionDef[] {
  const screenActions = registry.flatMap((s) => (s.actions ?? []).map((a) => ({ ...a, context: a.context.startsWith(`${s.id}:`) ? a.context : s.id })));
  return [...CORE_ACTIONS, ...screenActions];
}

/** The console's keymap: defaults, every screen's actions, and the config file's `keys:`. */
export function appKeymap(overrides: Record<string, string[]>, registry: readonly ScreenDef[] = SCREENS): BuiltKeymap {
  return buildKeymap(allActions(registry), overrides);
}
