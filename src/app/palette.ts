import type { ScreenDef } from '../screens/screen-def';

/** One `:` command: a screen, or a built-in (help, quit). */
export interface PaletteCommand {
  name: string;
  aliases: string[];
  summary: string;
  arg?: ScreenDef['arg'];
  action: { kind: 'screen'; screenId: string } | { kind: 'help' } | { kind: 'quit' };
}

export function paletteCommands(registry: readonly ScreenDef[]): PaletteCommand[] {
  return [
    ...registry.map((d): PaletteCommand => ({
      name: d.id,
      aliases: d.aliases,
      summary: d.summary,
      arg: d.arg,
      action: { kind: 'screen', screenId: d.id },
    })),
    { name: 'help', aliases: ['h'], summary: 'the keys and commands', action: { kind: 'help' } },
    { name: 'q', aliases: ['quit'], summary: 'quit burrow', action: { kind: 'quit' } },
  ];
}

export interface Suggestion {
  command: PaletteCommand;
  /** The name or alias that matched what was typed. */
  matched: string;
}

function split(text: string): { word: string; rest: string | null } {
  const t = text.replace(/^\s*:?/, '');
  const m = /^(\S*)(?:\s+(.*))?$/.exec(t);
  return { word: (m?.[1] ?? '').toLowerCase(), rest: m?.[2] !== undefined ? m[2].trim() : null };
}

/**
 * Commands whose name or an alias starts with the first word typed. Once an argument is being
 * typed only the exact command remains. Exact matches first, then names before aliases.
 */
export function suggest(commands: readonly PaletteCommand[], text: string): Suggestion[] {
  const { word, rest } = split(text);
  const out: Suggestion[] = [];
  for (const c of commands) {
    const names = [c.name, ...c.aliases];
    const hit = rest !== null ? names.find((n) => n === word) : names.find((n) => n.startsWith(word));
    if (hit !== undefined) out.push({ command: c, matched: hit });
  }
  const rank = (s: Suggestion) => (s.matched === word ? 0 : s.matched === s.command.name ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b));
}

function commonPrefix(words: string[]): string {
  if (words.length === 0) return '';
  let p = words[0]!;
  for (const w of words.slice(1)) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/**
 * Tab completion. One candidate (or the one chosen with the arrows): the full name or alias
 * being typed, plus a space when it takes an argument. Several: the longest common prefix of the names that match.
 * Returns the text unchanged when there is nothing to add.
 */
export function complete(commands: readonly PaletteCommand[], text: string, selected = -1): string {
  const { word, rest } = split(text);
  if (rest !== null) return text;
  const list = suggest(commands, text);
  const chosen = selected >= 0 ? list[selected] : list.length === 1 ? list[0] : undefined;
  if (chosen) return chosen.matched + (chosen.command.arg ? ' ' : '');
  const prefix = commonPrefix(list.map((s) => s.matched));
  return prefix.length > word.length ? prefix : text;
}

export type ParseResult = { ok: true; command: PaletteCommand; arg: string | null } | { ok: false; message: string };

/**
 * What enter runs. An exact name or alias, or a prefix that only one command has.
 * Arguments are checked against the command's rule; the message says what is allowed.
 */
export function parseCommand(commands: readonly PaletteCommand[], text: string, selected = -1): ParseResult {
  const { word, rest } = split(text);
  if (word === '' && selected < 0) return { ok: false, message: 'type a command, e.g. :containers (tab completes, :help lists them)' };
  let command: PaletteCommand | undefined;
  if (selected >= 0) command = suggest(commands, text)[selected]?.command;
  command ??= commands.find((c) => c.name === word || c.aliases.includes(word));
  if (!command) {
    const list = suggest(commands, text);
    if (list.length === 1 && rest === null) command = list[0]!.command;
    else if (list.length > 1) {
      return { ok: false, message: `":${word}" could be ${list.map((s) => `:${s.matched}`).join(', ')}; type more or press tab` };
    }
  }
  if (!command) {
    const names = commands.map((c) => `:${c.name}`).join(' ');
    return { ok: false, message: `unknown command ":${word}" (commands: ${names})` };
  }
  const arg = rest === null || rest === '' ? null : rest;
  if (arg !== null && !command.arg) return { ok: false, message: `:${command.name} takes no argument (got "${arg}")` };
  if (arg === null && command.arg?.required)
    return { ok: false, message: `:${command.name} needs ${command.arg.name}, e.g. :${command.name} <${command.arg.name}>` };
  if (arg !== null && command.arg?.validate) {
    const problem = command.arg.validate(arg);
    if (problem) return { ok: false, message: `:${command.name}: ${problem}` };
  }
  return { ok: true, command, arg };
}
