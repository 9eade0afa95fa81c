/**
 * node:util parseArgs errors in burrow's words. Node's own text is written for Node programs (its
 * unknown-option hint even ends in an unbalanced quote), so each kind is said again plainly.
 */
export function argsErrorMessage(error: unknown, commandName: string | null): string {
  const e = error as { code?: string; message?: string };
  const message = String(e?.message ?? error).replace(/^TypeError \[[A-Z_]+\]: /, '');
  const help = commandName ? `burrow ${commandName} --help` : 'burrow --help';
  if (e?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (option)
      return `unknown option ${option}${commandName ? ` for burrow ${commandName}` : ''} (${help} lists the options; a value that starts with "-" goes after --)`;
  }
  if (e?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
    if (missing) return `${missing[1]} needs a value (${help})`;
    const extra = /^Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(message);
    if (extra) return `${extra[1]} takes no value (it is a switch: give it alone)`;
  }
  if (e?.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `unexpected argument: ${message.replace(/^Unexpected argument '([^']*)'.*$/s, '$1')} (${help})`;
  return message;
}
