import type { ParseArgsConfig } from 'node:util';
import type { Settings } from '../config/settings';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

export interface CommandContext {
  /** Positionals after the command name. */
  args: string[];
  values: OptionValues;
  /** Resolved global settings (flags, env, profile). */
  settings: Settings;
  io: Io;
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

/** A user mistake on the command line: printed as a message with exit code 2. */
export class UsageError extends Error {}
