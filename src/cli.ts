import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFile } from './config/config-file';
import { redact } from './config/redact';
import { resolveSettings, SettingsError, type GlobalFlags, type OutputFormat } from './config/settings';
import { ApiError } from './api/errors';
import { type Command, type Io, type OptionSpec, UsageError } from './commands/types';
import { commands, CONSOLE_OPTIONS, type CommandEntry } from './commands/registry';
import { terminalSafeLines } from './text/terminal-safe';
import { argsErrorMessage } from './commands/arg-errors';
import { GLOBAL_OPTIONS, VALUE_FLAGS } from './commands/global-options';
import { setDisplayZone } from './text/time-format';
import { isNotInThisBundle } from './runtime/bundle';
import { didYouMean } from './text/did-you-mean';
import { commandIo } from './runtime/terminal-output';
import { installInputAck } from './runtime/io';

export const VERSION = process.env.BURROW_BUILD_VERSION ?? '0.0.0-dev';

export function globalHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `burrow ${VERSION}: a terminal console for the edge platform.

Usage: burrow [COMMAND] [OPTIONS]

With no command, opens the interactive console. With no API key configured it starts the
built-in emulator and opens the console on it. The console brings back the logs screens of the
last run (filters, / pattern, alert rules, marks); --fresh starts it clean.

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Global options:
  --profile NAME      use a profile from the config file (also BURROW_PROFILE)
  --base-url URL      management API (default https://api.bunny.net; env BURROW_BASE_URL)
  --logging-url URL   logging API (default https://logging.bunnycdn.com; env BURROW_LOGGING_URL)
  --api-key KEY       API key (prefer BURROW_API_KEY: a key on the command line is visible to others)
  --read-only         hide and refuse every mutating action
  --demo              use the built-in emulator even when credentials are configured
  -o, --output FMT    table | json | csv | ndjson (non-interactive commands)
  --show-secrets      print API keys and tokens unmasked (non-interactive commands)
  --no-color          no colours (also NO_COLOR)
  --utc               show times in UTC instead of the local time zone (also BURROW_UTC=1, or
                      utc: true in the config file); JSON and NDJSON are always ISO UTC
  --debug             log requests with credentials redacted (SQL string and blob literals too):
                      to stderr; the console appends them to $XDG_STATE_HOME/burrow/debug.log
                      (else ~/.local/state/burrow/debug.log)
  --debug-sql         as --debug, with SQL literals and arguments as sent
  -h, --help          help; burrow COMMAND --help for a command
  -v, --version       print the version

Run burrow COMMAND --help for the options of one command.`;
}

/** The one line a command's help gives the global options (the full list is `burrow --help`). */
export const GLOBAL_OPTIONS_POINTER = 'Global options (--profile, --demo, -o, --read-only, --utc, --no-color, --debug, ...): see burrow --help.';

/**
 * The command is the first argument that is neither an option nor an option's value
 * (bin/run-bundle.cjs's cacheKind picks the bundle by the same rule).
 */
/** The console's options that take a value (`burrow --store-url URL`: URL is not a command). */
const CONSOLE_VALUE_FLAGS = new Set(Object.entries(CONSOLE_OPTIONS).flatMap(([name, spec]) => (spec.type === 'string' ? [`--${name}`] : [])));

export function findCommand(argv: string[]): { command: CommandEntry; index: number } {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (VALUE_FLAGS.has(a) || CONSOLE_VALUE_FLAGS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-')) continue;
    const command = commands.find((c) => c.name === a);
    if (!command) {
      const names = commands.filter((c) => c.name !== 'tui').map((c) => c.name);
      const guess = didYouMean(a, names);
      throw new UsageError(`unknown command "${a}"${guess ? `: did you mean ${guess}?` : ''} (commands: ${names.join(', ')})`);
    }
    return { command, index: i };
  }
  return { command: commands.find((c) => c.name === 'tui')!, index: -1 };
}

/** A global boolean flag, unless the command gives it its own meaning after its name. */
function globalFlag(argv: string[], index: number, command: Command, name: string, values: Record<string, unknown>): boolean | undefined {
  if (index < 0 || !command.ownFlagsAfterName?.includes(name)) return values[name] as boolean | undefined;
  return argv.slice(0, index).includes(`--${name}`) || undefined;
}

export async function runCli(argv: string[], io: Io): Promise<number> {
  try {
    const { command: entry, index } = findCommand(argv);
    const rest = index >= 0 ? [...argv.slice(0, index), ...argv.slice(index + 1)] : argv;
    // the console is loaded only after --version and --help are ruled out
    if (index < 0) {
      const values = parseCommandLine(rest, CONSOLE_OPTIONS, null).values;
      if (values.version || values.help) return printVersionOrHelp(values, null, io);
    }
    const command = await entry.load();
    const parsed = parseCommandLine(rest, command.options, index >= 0 ? command.name : null);
    const values = parsed.values as Record<string, string | boolean | undefined>;
    if (values.version || values.help) return printVersionOrHelp(values, index >= 0 ? command.usage : null, io);
    const output = values.output as string | undefined;
    if (output !== undefined) {
      const allowed = command.outputs ?? [];
      if (!allowed.includes(output as OutputFormat)) {
        throw new UsageError(
          allowed.length ? `-o ${output} is not available for ${command.name}: use ${allowed.join(', ')}` : `${command.name} does not take -o`,
        );
      }
    }
    const flags: GlobalFlags = {
      profile: values.profile as string | undefined,
      baseUrl: values['base-url'] as string | undefined,
      loggingUrl: values['logging-url'] as string | undefined,
      apiKey: values['api-key'] as string | undefined,
      readOnly: globalFlag(argv, index, command, 'read-only', values),
      noColor: values['no-color'] as boolean | undefined,
      demo: values.demo as boolean | undefined,
      output: output as OutputFormat | undefined,
      debug: values.debug as boolean | undefined,
      debugSql: values['debug-sql'] as boolean | undefined,
      showSecrets: values['show-secrets'] as boolean | undefined,
      utc: values.utc as boolean | undefined,
    };
    const file = await loadConfigFile(io.env);
    const settings = resolveSettings(flags, io.env, file.config);
    setDisplayZone(settings.utc ? 'utc' : 'local');
    for (const w of [...file.warnings, ...settings.warnings]) io.stderr.write(`warning: ${terminalSafeLines(w)}\n`);
    return await command.run({ args: parsed.positionals, values, settings, io: commandIo(io), screenIo: io, commands });
  } catch (error) {
    if (isNotInThisBundle(error)) throw error;
    if (error instanceof UsageError || error instanceof SettingsError || error instanceof ConfigError) {
      io.stderr.write(`burrow: ${terminalSafeLines(redact(error.message))}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      io.stderr.write(`burrow: ${terminalSafeLines(error.message)}\n`);
      return 1;
    }
    io.stderr.write(`burrow: unexpected error: ${terminalSafeLines(redact((error as Error)?.stack ?? String(error)))}\n`);
    return 70;
  }
}

function parseCommandLine(args: string[], options: OptionSpec, commandName: string | null) {
  const all = { ...GLOBAL_OPTIONS, ...options };
  try {
    return parseArgs({ args: withDashValues(args, all), options: all, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(argsErrorMessage(error, commandName));
  }
}

/**
 * `--from -10m` as `--from=-10m`: parseArgs refuses a value that starts with a dash as ambiguous,
 * and no option's name starts with a digit, so a dash and a digit after an option that takes a
 * value can only be that value.
 */
function withDashValues(args: string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    if (a === '--') return [...out, ...args.slice(i)];
    if (a.startsWith('--') && !a.includes('=') && options[a.slice(2)]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** `--version`, or the help of one command (its usage) or of burrow (usage null). */
function printVersionOrHelp(values: Record<string, unknown>, usage: string | null, io: Io): number {
  if (values.version) {
    io.stdout.write(`burrow ${VERSION}\n`);
    return 0;
  }
  io.stdout.write((usage === null ? globalHelp() : `${usage}\n\n${GLOBAL_OPTIONS_POINTER}`) + '\n');
  return 0;
}

/**
 * Entry point used by bin/run-bundle.cjs. 'other-bundle': this lean bundle does not hold the
 * command asked for (the launcher then runs the full one).
 */
export async function main(argv: string[]): Promise<'other-bundle' | undefined> {
  // A closed pipe (burrow ... | head) ends the process quietly instead of throwing EPIPE.
  const quietOnClosedPipe = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  };
  process.stdout.on('error', quietOnClosedPipe);
  try {
    // process.stdin is made on first use (a file or /dev/null as stdin costs Node's file streams)
    const io: Io = {
      stdout: process.stdout,
      stderr: process.stderr,
      get stdin() {
        installInputAck(process.stdin, process.stdout, process.env);
        return process.stdin;
      },
      env: process.env,
    };
    process.exitCode = await runCli(argv, io);
  } catch (error) {
    if (!isNotInThisBundle(error)) throw error;
    process.stdout.off('error', quietOnClosedPipe);
    return 'other-bundle';
  }
  return undefined;
}
