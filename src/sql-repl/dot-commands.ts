import { isOutputMode, OUTPUT_MODES, type OutputMode } from './output-modes';

/** Dot-commands: a line that starts with `.` when the input is empty, run at once (no `;`). */
export type DotCommand =
  | { name: 'help' }
  | { name: 'tables'; pattern: string | null }
  | { name: 'schema'; pattern: string | null }
  | { name: 'indexes'; pattern: string | null }
  | { name: 'describe'; table: string }
  | { name: 'mode'; mode: OutputMode | null }
  | { name: 'timer'; on: boolean | null }
  | { name: 'read'; file: string }
  | { name: 'dump'; pattern: string | null }
  | { name: 'output'; file: string | null }
  | { name: 'expanded'; on: boolean | null }
  | { name: 'edit' }
  | { name: 'quit' };

export type DotName = DotCommand['name'];

export interface DotSpec {
  name: DotName;
  usage: string;
  summary: string;
}

export const DOT_COMMANDS: readonly DotSpec[] = [
  { name: 'help', usage: '.help', summary: 'the commands and keys' },
  { name: 'tables', usage: '.tables [PATTERN]', summary: 'tables and views (a LIKE pattern)' },
  { name: 'schema', usage: '.schema [TABLE]', summary: 'CREATE statements, all or of one table' },
  { name: 'indexes', usage: '.indexes [TABLE]', summary: 'indexes, all or of one table' },
  { name: 'describe', usage: '.describe TABLE', summary: 'columns: name, type, not null, default, key' },
  { name: 'mode', usage: '.mode [MODE]', summary: `results as ${OUTPUT_MODES.join(' ')}` },
  { name: 'timer', usage: '.timer on|off', summary: 'show how long each statement took' },
  { name: 'read', usage: '.read FILE', summary: 'run the SQL in FILE' },
  { name: 'dump', usage: '.dump [TABLE]', summary: 'the database (or a table) as SQL' },
  { name: 'output', usage: '.output [FILE]', summary: 'results to FILE; alone: to the screen' },
  {
    name: 'expanded',
    usage: '.x [on|off]',
    summary: 'expanded records (one line per column), on or off for the next queries; alone: toggles (x on a result: that one)',
  },
  { name: 'edit', usage: '.edit', summary: 'the last input in $VISUAL/$EDITOR, back into the input when saved (ctrl-x ctrl-e: the input typed)' },
  { name: 'quit', usage: '.quit', summary: 'leave (also .exit, ctrl-d on an empty line)' },
];

const ALIASES: Record<string, DotName> = { exit: 'quit', q: 'quit', x: 'expanded', e: 'edit' };

export type DotParse = { ok: true; command: DotCommand } | { ok: false; message: string };

/** Splits arguments like sqlite3: whitespace separates, '...' and "..." quote. */
export function splitArgs(text: string): { args: string[]; error: string | null } {
  const args: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const q = text[i];
    if (q === '"' || q === "'") {
      const end = text.indexOf(q, i + 1);
      if (end < 0) return { args, error: `an argument starting with ${q} has no closing ${q}` };
      args.push(text.slice(i + 1, end));
      i = end + 1;
    } else {
      const start = i;
      while (i < text.length && !/\s/.test(text[i]!)) i++;
      args.push(text.slice(start, i));
    }
  }
  return { args, error: null };
}

/** The command a (possibly abbreviated) name means: exact, alias, or a unique prefix. */
export function resolveDotName(word: string): { name: DotName } | { error: string } {
  const w = word.toLowerCase();
  const exact = DOT_COMMANDS.find((c) => c.name === w);
  if (exact) return { name: exact.name };
  if (ALIASES[w]) return { name: ALIASES[w]! };
  const matches = DOT_COMMANDS.filter((c) => c.name.startsWith(w));
  if (matches.length === 1) return { name: matches[0]!.name };
  if (matches.length > 1) return { error: `.${word} is ambiguous: ${matches.map((c) => `.${c.name}`).join(', ')}` };
  return { error: `unknown command .${word}: type .help for the list (${DOT_COMMANDS.map((c) => `.${c.name}`).join(' ')})` };
}

export function parseDotCommand(line: string): DotParse {
  const text = line.trim();
  if (!text.startsWith('.')) return { ok: false, message: 'a dot-command starts with "."' };
  const m = /^\.(\S*)\s*(.*)$/s.exec(text)!;
  const word = m[1]!;
  if (word === '') return { ok: false, message: 'a dot-command needs a name after "." (type .help)' };
  const resolved = resolveDotName(word);
  if ('error' in resolved) return { ok: false, message: resolved.error };
  const name = resolved.name;
  const spec = DOT_COMMANDS.find((c) => c.name === name)!;
  const { args, error } = splitArgs(m[2]!);
  if (error) return { ok: false, message: `${error} (usage: ${spec.usage})` };
  const usage = (why: string): DotParse => ({ ok: false, message: `${why} (usage: ${spec.usage})` });
  const atMost = (n: number): DotParse | null => (args.length > n ? usage(`too many arguments to .${name}`) : null);
  switch (name) {
    case 'help':
    case 'quit':
      return atMost(0) ?? { ok: true, command: { name } };
    case 'tables':
    case 'schema':
    case 'indexes':
    case 'dump':
      return atMost(1) ?? { ok: true, command: { name, pattern: args[0] ?? null } };
    case 'describe':
      if (args.length === 0) return usage('.describe needs a table name');
      return atMost(1) ?? { ok: true, command: { name, table: args[0]! } };
    case 'mode': {
      const bad = atMost(1);
      if (bad) return bad;
      if (args.length === 0) return { ok: true, command: { name, mode: null } };
      const mode = args[0]!.toLowerCase();
      if (!isOutputMode(mode)) return { ok: false, message: `unknown mode "${args[0]}": use ${OUTPUT_MODES.join(', ')}` };
      return { ok: true, command: { name, mode } };
    }
    case 'edit':
      return atMost(0) ?? { ok: true, command: { name } };
    case 'expanded':
    case 'timer': {
      const bad = atMost(1);
      if (bad) return bad;
      if (args.length === 0) return { ok: true, command: { name, on: null } };
      const v = args[0]!.toLowerCase();
      if (['on', '1', 'yes', 'true'].includes(v)) return { ok: true, command: { name, on: true } };
      if (['off', '0', 'no', 'false'].includes(v)) return { ok: true, command: { name, on: false } };
      return usage(`.${name === 'timer' ? 'timer' : 'x'} takes on or off, not "${args[0]}"`);
    }
    case 'read':
      if (args.length === 0) return usage('.read needs a file name');
      return atMost(1) ?? { ok: true, command: { name, file: args[0]! } };
    case 'output': {
      const bad = atMost(1);
      if (bad) return bad;
      const file = args[0] ?? null;
      return { ok: true, command: { name, file: file === null || file === 'stdout' ? null : file } };
    }
  }
}

/** True when the input is a dot-command: one line whose first character is `.`. */
export function isDotCommandInput(text: string): boolean {
  return /^\s*\./.test(text) && !text.trim().includes('\n');
}
