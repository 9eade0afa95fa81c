import type { Command } from './types';
import { CONSOLE_OPTIONS } from './console-options';

export const NON_INTERACTIVE_HINT = `The console needs an interactive terminal (stdin and stdout must be a TTY).
For scripts and pipes use the non-interactive commands:
  burrow get RESOURCE [ID] -o json|csv|table|ndjson
  burrow logs PULLZONE [--follow] -o ndjson
  burrow sql [URL] -e "SQL" -o csv
  burrow db tokens create|invalidate
  burrow shield check-spec FILE --zone ID
  burrow shield guardian ZONE --set NAME=VALUE [--dry-run] [--yes]
  burrow shield spec upload ZONE FILE [--dry-run] [--yes]
  burrow containers regions APP [--allowed R,...] [--dry-run] [--yes]
  burrow emulator
Run burrow --help for every option.`;

export const tuiCommand: Command = {
  name: 'tui',
  summary: 'the interactive console (the default)',
  usage: `burrow [--demo] [--profile NAME] [--read-only] [--no-color] [--fresh] [--store-url URL]

The console keeps the setup of its logs screens (server filters, the / pattern, alert rules,
marks, and which zones were open) per profile in $XDG_STATE_HOME/burrow/sessions (else
~/.local/state/burrow/sessions) and brings it back on the next start.
  --fresh    start clean: the saved session is not read (the next quit saves over it)
  --store-url URL
             the log store that :sql store opens, as burrow ship --help describes it (else
             BURROW_LOG_STORE, else logStore: in the profile; the password only from
             BURROW_LOG_STORE_PASSWORD or logStorePassword:)`,
  options: CONSOLE_OPTIONS,
  async run({ io, screenIo, settings, values }) {
    if (!screenIo.stdin.isTTY || !screenIo.stdout.isTTY) {
      io.stderr.write(NON_INTERACTIVE_HINT + '\n');
      return 2;
    }
    const { runConsole } = await import('../app/run-console');
    const storeUrl = typeof values['store-url'] === 'string' ? values['store-url'] : null;
    return runConsole(storeUrl ? { ...settings, logStore: storeUrl } : settings, screenIo, { fresh: values.fresh === true });
  },
};
