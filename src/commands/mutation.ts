import readline from 'node:readline';
import { ApiError } from '../api/errors';
import { diffLineText, diffValues, type DiffLine } from '../text/diff';
import { type CommandContext, type OptionSpec, UsageError } from './types';

/** The flags every command that changes something takes. */
export const MUTATION_OPTIONS: OptionSpec = {
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean', short: 'y' },
};

export const MUTATION_USAGE = `Before anything is sent the change is checked as the console checks it, and a diff of what
would change is printed (stderr with -o json). Then:
  --dry-run   print the diff and send nothing (exit 0)
  -y, --yes   send without asking; required when stdin is not a terminal (else exit 2)
With neither, a terminal is asked "Send? [y/N]". The request is sent once and never retried: a
lost answer is reported as an unknown outcome (exit 3), to be checked with burrow get.
A change the server refuses exits 1 with its message (and with -o json its answer on stdout).
--read-only (or a profile with readOnly: true) refuses (exit 2). -o json prints the server's answer.`;

/** One change, planned: what it is, the state before and what will be sent, and how to send it. */
export interface PlannedMutation<T> {
  /** "Update the API Guardian of shield zone 5 (PATCH)", as the console's confirm title. */
  title: string;
  before: unknown;
  after: unknown;
  /** `after` is a partial body: fields it leaves out are unchanged. */
  patch?: boolean;
  send(): Promise<T>;
  /** Printed with -o json after a success: the server's answer. */
  answer(result: T): unknown;
  /** One line after a success, without -o json. */
  done(result: T): string;
  /** How to look at the state after an unknown outcome (a burrow get command). */
  check: string;
}

/** Refuses in read-only mode, naming what made it read-only; --dry-run is still allowed. */
export function refuseReadOnly(ctx: CommandContext, what: string): void {
  if (!ctx.settings.readOnly || ctx.values['dry-run']) return;
  const source = ctx.settings.readOnlySource ?? '--read-only';
  throw new UsageError(
    `read-only (${source.startsWith('profile ') ? `${source}, readOnly: true` : source}): ${what} is refused; nothing was sent (--dry-run shows the diff)`,
  );
}

/** Exit 2 before any request when the change could not be confirmed: no terminal and no --yes. */
export function checkCanConfirm(ctx: CommandContext): void {
  if (ctx.values['dry-run'] || ctx.values.yes || ctx.io.stdin.isTTY) return;
  throw new UsageError('stdin is not a terminal, so burrow cannot ask: add --yes to send, or --dry-run to see the diff only');
}

async function ask(ctx: CommandContext, question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: false });
  try {
    ctx.io.stderr.write(question);
    const answer = await new Promise<string | null>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(null));
    });
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

export function diffText(lines: DiffLine[]): string {
  return lines.map((l) => `  ${diffLineText(l)}`).join('\n');
}

/**
 * The one path of every CLI change, as in the console: diff, nothing to send, dry run,
 * confirmation, one request. Exit 0 sent (or nothing to send, or dry run), 1 refused by the
 * server, 3 unknown outcome.
 */
export async function runMutation<T>(ctx: CommandContext, plan: PlannedMutation<T>): Promise<number> {
  const json = ctx.settings.output === 'json';
  const dryRun = Boolean(ctx.values['dry-run']);
  const lines = diffValues(plan.before, plan.after, { patch: plan.patch });
  const report = json ? ctx.io.stderr : ctx.io.stdout;
  if (lines.length === 0) {
    if (json) ctx.io.stdout.write(`${JSON.stringify({ sent: false, reason: 'nothing to send: no field changed', changes: [] }, null, 2)}\n`);
    else ctx.io.stdout.write(`${plan.title}: nothing to send, no field changed\n`);
    return 0;
  }
  report.write(`${plan.title}${dryRun ? ' (dry run: nothing is sent)' : ''}\n${diffText(lines)}\n`);
  if (dryRun) {
    if (json) ctx.io.stdout.write(`${JSON.stringify({ sent: false, dryRun: true, changes: lines }, null, 2)}\n`);
    return 0;
  }
  if (!ctx.values.yes && !(await ask(ctx, 'Send? [y/N] '))) {
    ctx.io.stderr.write('not sent\n');
    return 1;
  }
  let result: T;
  try {
    result = await plan.send();
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'unknown-outcome') {
      ctx.io.stderr.write(`burrow: unknown outcome: the request was sent but no answer came (it was not retried): check with ${plan.check}\n`);
      return 3;
    }
    if (error instanceof ApiError) {
      ctx.io.stderr.write(`burrow: not changed: ${error.message}\n`);
      if (json)
        ctx.io.stdout.write(
          `${JSON.stringify({ sent: true, ok: false, status: error.status, errorKey: error.code, message: error.message, errors: error.fieldErrors ?? [] }, null, 2)}\n`,
        );
      return 1;
    }
    throw error;
  }
  if (json) ctx.io.stdout.write(`${JSON.stringify(plan.answer(result), null, 2)}\n`);
  else ctx.io.stdout.write(`${plan.done(result)}\n`);
  return 0;
}
