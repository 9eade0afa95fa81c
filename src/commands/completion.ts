import { GLOBAL_OPTIONS } from './global-options';
import { loadConfigFile } from '../config/config-file';
import { resources } from './get';
import { type Command, type CommandEntry, type OptionSpec, UsageError } from './types';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const USAGE = `burrow completion bash|zsh|fish
burrow completion profiles

Prints a completion script for the shell: commands, their sub-commands and flags, the resources
of burrow get, -o formats, and profile names (read from the config file each time you press tab,
by burrow completion profiles). Resource ids are not completed: each would cost a request.

  bash: echo 'source <(burrow completion bash)' >> ~/.bashrc
  zsh:  echo 'source <(burrow completion zsh)' >> ~/.zshrc
  fish: burrow completion fish > ~/.config/fish/completions/burrow.fish`;

/** Every visible command, loaded (tui is the default, not typed). */
export async function namedCommands(commands: readonly CommandEntry[]): Promise<Command[]> {
  return Promise.all(commands.filter((c) => c.name !== 'tui').map((c) => c.load()));
}

function flagsOf(options: OptionSpec): { long: string[]; short: string[]; takesValue: string[] } {
  const long: string[] = [];
  const short: string[] = [];
  const takesValue: string[] = [];
  for (const [name, spec] of Object.entries(options)) {
    long.push(`--${name}`);
    if (spec.short) short.push(`-${spec.short}`);
    if (spec.type === 'string') takesValue.push(`--${name}`, ...(spec.short ? [`-${spec.short}`] : []));
  }
  return { long, short, takesValue };
}

/**
 * The words that may follow a command, read from its usage lines ("burrow db tokens create [DB]"
 * gives db -> tokens -> create), keyed by the words so far ("db", "db tokens"). get lists resources.
 */
export function wordTree(named: readonly Command[]): Map<string, string[]> {
  const tree = new Map<string, string[]>();
  const add = (key: string, word: string) => {
    const list = tree.get(key) ?? [];
    if (!list.includes(word)) list.push(word);
    tree.set(key, list);
  };
  for (const c of named) {
    for (const line of c.usage.split('\n')) {
      const words = line.trim().split(/\s+/);
      if (words[0] !== 'burrow' || words[1] !== c.name) continue;
      let key = c.name;
      for (const w of words.slice(2)) {
        if (!/^[a-z][a-z-]*$/.test(w) || (c.name === 'get' && key === 'get')) break;
        add(key, w);
        key = `${key} ${w}`;
      }
    }
  }
  tree.set(
    'get',
    resources.map((r) => r.name),
  );
  tree.set('completion', [...SHELLS, 'profiles']);
  return tree;
}

/** The -o formats a command takes: the same table its run checks (`Command.outputs`). */
function outputsOf(c: Command): string {
  return (c.outputs ?? []).join(' ');
}

/** Before the command is known (`burrow -o json get ...`): every format some command takes. */
function allOutputs(named: readonly Command[]): string {
  return [...new Set(named.flatMap((c) => c.outputs ?? []))].join(' ');
}

function bash(named: readonly Command[]): string {
  const global = flagsOf(GLOBAL_OPTIONS);
  const tree = wordTree(named);
  const valueFlags = new Set(global.takesValue);
  for (const c of named) for (const f of flagsOf(c.options).takesValue) valueFlags.add(f);
  const flagCases = named
    .map((c) => {
      const f = flagsOf(c.options);
      return `    ${c.name}) flags="$flags ${[...f.long, ...f.short].join(' ')}" ;;`;
    })
    .join('\n');
  const wordCases = [...tree.entries()].map(([key, words]) => `    '${key}') words='${words.join(' ')}' ;;`).join('\n');
  const outputCases = named.map((c) => `        ${c.name}) outs='${outputsOf(c)}' ;;`).join('\n');
  // no variable named path: under zsh (bashcompinit) it is tied to PATH
  return `# burrow completion for bash (and zsh through bashcompinit): source <(burrow completion bash)
_burrow() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local words_so_far="" i w skip=0
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case " ${[...valueFlags].join(' ')} " in *" $w "*) skip=1; continue ;; esac
    case "$w" in -*) continue ;; esac
    words_so_far="\${words_so_far:+$words_so_far }$w"
  done
  local cmd="\${words_so_far%% *}" flags="${[...global.long, ...global.short].join(' ')}" words="" outs="${allOutputs(named)}"
  case "$prev" in
    --profile) COMPREPLY=($(compgen -W "$(burrow completion profiles 2>/dev/null)" -- "$cur")); return ;;
    -o|--output)
      case "$cmd" in
${outputCases}
      esac
      COMPREPLY=($(compgen -W "$outs" -- "$cur")); return ;;
  esac
  case "$cmd" in
${flagCases}
  esac
  if [[ -z "$words_so_far" ]]; then
    words="${named.map((c) => c.name).join(' ')}"
  else
    case "$words_so_far" in
${wordCases}
    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _burrow burrow
`;
}

function zsh(named: readonly Command[]): string {
  return `# burrow completion for zsh: source <(burrow completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(named).split('\n').slice(1).join('\n')}`;
}

function fish(named: readonly Command[]): string {
  const out = ['# burrow completion for fish: burrow completion fish > ~/.config/fish/completions/burrow.fish', 'complete -c burrow -f'];
  const names = named;
  out.push(`complete -c burrow -n '__fish_use_subcommand' -a '${names.map((c) => c.name).join(' ')}'`);
  for (const [name, spec] of Object.entries(GLOBAL_OPTIONS)) {
    const value = spec.type === 'string' ? ' -r' : '';
    if (name === 'output') {
      // each command offers the formats it takes; before the command, all of them
      out.push(`complete -c burrow -n '__fish_use_subcommand' -l ${name}${spec.short ? ` -s ${spec.short}` : ''}${value} -a '${allOutputs(named)}'`);
      for (const c of named)
        out.push(
          `complete -c burrow -n '__fish_seen_subcommand_from ${c.name}' -l ${name}${spec.short ? ` -s ${spec.short}` : ''}${value} -a '${outputsOf(c)}'`,
        );
      continue;
    }
    const args = name === 'profile' ? " -a '(burrow completion profiles 2>/dev/null)'" : '';
    out.push(`complete -c burrow -l ${name}${spec.short ? ` -s ${spec.short}` : ''}${value}${args}`);
  }
  for (const [key, words] of wordTree(named)) {
    const parts = key.split(' ');
    const last = parts[parts.length - 1]!;
    const cond =
      parts.length === 1 ? `__fish_seen_subcommand_from ${last}` : `__fish_seen_subcommand_from ${parts[0]}; and __fish_seen_subcommand_from ${last}`;
    out.push(`complete -c burrow -n '${cond}' -a '${words.join(' ')}'`);
  }
  for (const c of names) {
    for (const [name, spec] of Object.entries(c.options)) {
      out.push(
        `complete -c burrow -n '__fish_seen_subcommand_from ${c.name}' -l ${name}${spec.short ? ` -s ${spec.short}` : ''}${spec.type === 'string' ? ' -r' : ''}`,
      );
    }
  }
  // files are the argument of sql, shield check-spec and spec upload
  out.push("complete -c burrow -n '__fish_seen_subcommand_from sql check-spec upload' -F");
  return `${out.join('\n')}\n`;
}

export const completionCommand: Command = {
  name: 'completion',
  summary: 'print a shell completion script: completion bash|zsh|fish',
  usage: USAGE,
  options: {},
  async run(ctx) {
    const [what, ...rest] = ctx.args;
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    if (what === 'profiles') {
      const file = await loadConfigFile(ctx.io.env);
      ctx.io.stdout.write(
        Object.keys(file.config.profiles ?? {})
          .map((p) => `${p}\n`)
          .join(''),
      );
      return 0;
    }
    if (!SHELLS.includes(what as Shell))
      throw new UsageError(`${what === undefined ? 'which shell?' : `unknown shell "${what}":`} burrow completion bash|zsh|fish`);
    const named = await namedCommands(ctx.commands);
    const script = what === 'bash' ? bash(named) : what === 'zsh' ? zsh(named) : fish(named);
    ctx.io.stdout.write(script);
    return 0;
  },
};
