import type { OptionSpec } from './types';

/** The options every command takes (cli.ts parses them; shell completion lists them). */
export const GLOBAL_OPTIONS: OptionSpec = {
  profile: { type: 'string' },
  'base-url': { type: 'string' },
  'logging-url': { type: 'string' },
  'api-key': { type: 'string' },
  'read-only': { type: 'boolean' },
  'no-color': { type: 'boolean' },
  demo: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  debug: { type: 'boolean' },
  'debug-sql': { type: 'boolean' },
  'show-secrets': { type: 'boolean' },
  utc: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
};

/** Global options that take a value (the word after them is not a command). */
export const VALUE_FLAGS = new Set(
  Object.entries(GLOBAL_OPTIONS).flatMap(([name, spec]) => (spec.type === 'string' ? [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])] : [])),
);
