import type { OptionSpec } from './types';

/** The console's own options (it is the default command: `burrow --help` must not load it). */
export const CONSOLE_OPTIONS: OptionSpec = { fresh: { type: 'boolean' }, 'store-url': { type: 'string' } };
