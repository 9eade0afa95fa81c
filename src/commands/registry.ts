import type { CommandEntry } from './types';

export type { CommandEntry } from './types';

/**
 * What `burrow --help` lists, and how to load each command. A command's module (and what it
 * imports: the API clients, zod, undici) is loaded only when that command runs, so `--version`
 * and `--help` cost little more than starting node.
 */
export const commands: readonly CommandEntry[] = [
  { name: 'tui', summary: 'the interactive console (the default)', load: async () => (await import('./tui')).tuiCommand },
  { name: 'get', summary: 'print a resource as a table, JSON, CSV or NDJSON', load: async () => (await import('./get')).getCommand },
  { name: 'logs', summary: 'follow or fetch CDN logs of a pull zone', load: async () => (await import('./logs')).logsCommand },
  { name: 'ship', summary: 'ship CDN logs of pull zones into ClickHouse, exactly once', load: async () => (await import('./ship')).shipCommand },
  { name: 'sql', summary: 'run SQL on the hosted database (REPL when interactive)', load: async () => (await import('./sql')).sqlCommand },
  { name: 'db', summary: 'databases and their access tokens: list, tokens create, tokens invalidate', load: async () => (await import('./db')).dbCommand },
  { name: 'shield', summary: 'shield tools: check-spec, guardian (change settings), spec upload', load: async () => (await import('./shield')).shieldCommand },
  { name: 'containers', summary: 'Magic Containers: regions APP (change region settings)', load: async () => (await import('./containers')).containersCommand },
  { name: 'emulator', summary: 'run the local platform emulator in the foreground', load: async () => (await import('./emulator')).emulatorCommand },
  {
    name: 'completion',
    summary: 'print a shell completion script: completion bash|zsh|fish',
    load: async () => (await import('./completion')).completionCommand,
  },
];

export { CONSOLE_OPTIONS } from './console-options';
