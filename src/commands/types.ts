import type { ParseArgsConfig } from 'node:util';
import type { Settings } from '../config/settings';
import type { Io } from '../runtime/io';

// Io and UsageError live in runtime/ (the console's entry points use them too); commands get
// them here with the rest of their contract.
export type { Io } from '../runtime/io';
export { UsageError } from '../runtime/io';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandContext {
  /** Positionals after the command name. */
  args: string[];
  values: OptionValues;
  /** Resolved global settings (flags, env, profile). */
  settings: Settings;
  /**
   * Where the command writes: at a terminal every write goes through the sanitiser
   * (runtime/terminal-output.ts), whatever the format; in a file or a pipe the bytes are exact.
   */
  io: Io;
  /**
   * The process's raw streams, only for a full-screen console (the console, the SQL shell): Ink
   * draws with escapes of its own and sanitises every line it draws. Nothing else writes here.
   */
  screenIo: Io;
  /** The commands `burrow --help` lists (given by the CLI: a command that lists commands imports no registry that loads it). */
  commands: readonly CommandEntry[];
}

/** A command as `burrow --help` lists it, and how to load it. */
export interface CommandEntry {
  name: string;
  /** One line for `burrow --help` (the loaded command's summary must be the same). */
  summary: string;
  load(): Promise<Command>;
}

export interface Command {
  name: string;
  /** One line for `burrow --help`. */
  summary: string;
  /** Usage text for `burrow NAME --help`. */
  usage: string;
  options: OptionSpec;
  /** Output formats this command accepts with -o (first is the default). */
  outputs?: readonly ('table' | 'json' | 'csv' | 'ndjson' | 'text')[];
  /**
   * Global boolean flags that mean something of this command's own when written after its name
   * (`db tokens create --read-only` asks for a read-only token; `--read-only db ...` is the mode).
   */
  ownFlagsAfterName?: readonly string[];
  run(ctx: CommandContext): Promise<number>;
}
