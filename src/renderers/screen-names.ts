/**
 * Each screen's palette names besides its id (`:vl` opens videos): data only, kept with the
 * renderers the screens and `burrow get` share, so `burrow get`
 * accepts the same names (`get videos`) without loading a screen.
 */
export const SCREEN_ALIASES = {
  home: ['screens'],
  shield: ['zones', 'waf'],
  containers: ['mc', 'apps'],
  videos: ['libraries', 'vl'],
  lb: ['loadbalancers'],
  logs: [],
  sql: [],
  databases: ['db'],
} as const satisfies Record<string, readonly string[]>;

export type ScreenId = keyof typeof SCREEN_ALIASES;
