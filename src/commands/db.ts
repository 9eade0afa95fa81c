import readline from 'node:readline';
import { sameDatabaseUrl, type Database, type GeneratedToken, type TokenAuthorization } from '../api/database-management';
import { ApiError, isApiError } from '../api/errors';
import { connectNonInteractive, type PlatformConnection } from '../runtime/connect';
import { formatRecords } from './output';
import { jsonTerminalSafe, terminalSafe } from '../text/terminal-safe';
import { type Command, type CommandContext, type Io, UsageError } from './types';
import { formatDateText } from '../text/time-format';

const USAGE = `burrow db list
burrow db tokens create [DB] [--read-only | --pair] [--expiry 30d|12h|1w|1m|1y|RFC3339|never]
burrow db tokens invalidate [DB] [--regenerate] [--yes]

DB is a database id (db_...), name or URL. Without it: the only database of the account, or the
one SERVICE_DATABASE_URL / BUNNY_DATABASE_URL points at (with --demo, the emulator's primary).

tokens create      creates a full-access token (--read-only: a read-only one; --pair: one of each,
                   as the dashboard's "Generate Tokens" does). --expiry: h hours, d days, w weeks,
                   m months (30 days), y years (365 days), an RFC 3339 date, or never (default).
tokens invalidate  invalidates EVERY token of the database at once (the platform cannot revoke
                   one token); clients using them fail at once. --regenerate then creates a new
                   full-access and read-only pair. Asks first on a terminal; elsewhere needs --yes.

Tokens are printed once (-o json gives {token, expires_at, db_id, authorization}) and never
written to logs or files. In read-only mode (--read-only before the command, or a profile with
readOnly) both are refused: each is a change to the account.`;

const EXPIRY_UNITS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 };
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `30d`, `12h`, `1w`, `1m` (30 days), `1y`, an RFC 3339 date-time, or `never` (null). */
/** RFC 3339 has four-digit years: a later expiry cannot even be sent. */
function beforeYear10000(d: Date, text: string): Date {
  if (d.getTime() >= Date.UTC(10000, 0, 1)) throw new UsageError(`--expiry "${text}" is too far away: the latest is 9999-12-31T23:59:59Z (or never)`);
  return d;
}

export function parseExpiry(text: string, now: number): Date | null {
  const t = text.trim();
  if (t === 'never' || t === 'none' || t === '0') return null;
  const m = /^(\d{1,5})\s*([hdwmy])$/i.exec(t);
  if (m) {
    const n = Number(m[1]);
    if (n <= 0) throw new UsageError(`--expiry must be positive, got "${text}"`);
    return beforeYear10000(new Date(now + n * EXPIRY_UNITS[m[2]!.toLowerCase()]!), text);
  }
  if (RFC3339.test(t) && !Number.isNaN(Date.parse(t))) {
    const d = new Date(Date.parse(t));
    if (d.getTime() <= now) throw new UsageError(`--expiry ${text} is in the past`);
    return beforeYear10000(d, text);
  }
  throw new UsageError(
    `--expiry "${text}" is not understood: use 12h, 30d, 1w, 1m (30 days), 1y, an RFC 3339 date-time such as 2027-01-31T00:00:00Z, or never`,
  );
}

/** The database named by the argument, or the only/primary one; a clear list when it is ambiguous. */
export async function pickDatabase(session: PlatformConnection, arg: string | undefined, signal: AbortSignal): Promise<Database> {
  const all = await session.api.databases.list(signal);
  const show = (list: Database[]) => list.map((d) => `${d.name} (${d.id})`).join(', ');
  if (all.length === 0) throw new UsageError('this account has no databases');
  if (arg !== undefined) {
    const a = arg.trim();
    const found = all.find((d) => d.id === a) ?? all.find((d) => d.name.toLowerCase() === a.toLowerCase()) ?? all.find((d) => sameDatabaseUrl(d.url, a));
    if (!found) throw new UsageError(`no database "${a}" in this account: one of ${show(all)}`);
    return found;
  }
  if (all.length === 1) return all[0]!;
  const current = session.databaseUrl ? all.find((d) => sameDatabaseUrl(d.url, session.databaseUrl!)) : undefined;
  if (current) return current;
  throw new UsageError(`this account has ${all.length} databases: say which one (burrow db tokens ... DB), one of ${show(all)}`);
}

async function confirm(io: Io, question: string): Promise<boolean> {
  // not readline's terminal mode: its line editing draws with escape sequences, and at a terminal
  // stderr passes every write through the sanitiser, which shows them as text; the terminal's own
  // line discipline echoes the answer
  const rl = readline.createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    io.stderr.write(question);
    const answer = await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

function printTokens(ctx: CommandContext, db: Database, tokens: GeneratedToken[]): void {
  const format = ctx.settings.output ?? 'table';
  const records = tokens.map((t) => ({ token: t.token, expires_at: t.expiresAt, db_id: t.dbId, authorization: t.authorization }));
  if (format === 'json') {
    ctx.io.stdout.write(`${jsonTerminalSafe(JSON.stringify(records.length === 1 ? records[0] : records, null, 2))}\n`);
    return;
  }
  // the token is the point of this command: printed in full, whatever --show-secrets says
  ctx.io.stdout.write(
    formatRecords({
      format,
      records,
      showSecrets: true,
      columns: [
        { header: 'DATABASE', value: () => db.name },
        { header: 'AUTHORIZATION', value: (r) => r.authorization },
        { header: 'EXPIRES', value: (r) => (r.expires_at ? formatDateText(r.expires_at, 'dateTime') : 'never') },
        { header: 'TOKEN', value: (r) => r.token },
      ],
    }),
  );
  if (format === 'table')
    ctx.io.stderr.write('These tokens are shown once: store them now (for example as SERVICE_DATABASE_AUTH_TOKEN). burrow keeps no copy.\n');
}

async function withSession<T>(ctx: CommandContext, fn: (session: PlatformConnection, signal: AbortSignal) => Promise<T>): Promise<T> {
  const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  const abort = new AbortController();
  try {
    return await fn(session, abort.signal);
  } finally {
    await session.close();
  }
}

/** A mutation whose answer was lost is never retried: it says so, and what that means here. */
async function lostAnswer<T>(call: Promise<T>, what: string, meaning: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!isApiError(error) || error.kind !== 'unknown-outcome') throw error;
    throw new ApiError({
      kind: 'unknown-outcome',
      message: `unknown outcome: ${what} was sent but no answer came (it was not retried): ${meaning}`,
      cause: error,
    });
  }
}

async function createTokens(ctx: CommandContext, dbArg: string | undefined): Promise<number> {
  // after the command's name, --read-only asks for a read-only token (before it, it is the mode)
  const readOnlyToken = Boolean(ctx.values['read-only']);
  const pair = Boolean(ctx.values.pair);
  if (readOnlyToken && pair) throw new UsageError('--read-only and --pair do not go together: --pair already makes a read-only token (and a full-access one)');
  // a new token is a change to the account, even a read-only one: read-only mode refuses every change
  if (ctx.settings.readOnly) throw new UsageError('burrow is in read-only mode: creating a token is a change, so it is refused');
  const expiry = typeof ctx.values.expiry === 'string' ? parseExpiry(ctx.values.expiry, Date.now()) : null;
  return withSession(ctx, async (session, signal) => {
    const db = await pickDatabase(session, dbArg, signal);
    const kinds: TokenAuthorization[] = pair ? ['full-access', 'read-only'] : [readOnlyToken ? 'read-only' : 'full-access'];
    const tokens: GeneratedToken[] = [];
    for (const kind of kinds) {
      try {
        tokens.push(
          await lostAnswer(
            session.api.databases.generateToken(db.id, kind, expiry, signal),
            `creating a ${kind} token for ${db.name}`,
            'a token may have been created, but its value was lost with the answer; tokens cannot be read back, so create another one (an unused token does no harm until it expires or is invalidated)',
          ),
        );
      } catch (error) {
        // the ones already made are shown (once) before the failure
        if (tokens.length) printTokens(ctx, db, tokens);
        throw error;
      }
    }
    printTokens(ctx, db, tokens);
    return 0;
  });
}

async function invalidateTokens(ctx: CommandContext, dbArg: string | undefined): Promise<number> {
  if (ctx.settings.readOnly) throw new UsageError('burrow is in read-only mode: invalidating tokens is a change, so it is refused');
  const yes = Boolean(ctx.values.yes);
  if (!yes && !ctx.io.stdin.isTTY) throw new UsageError('refusing to invalidate every token without confirmation: stdin is not a terminal, so pass --yes');
  return withSession(ctx, async (session, signal) => {
    const db = await pickDatabase(session, dbArg, signal);
    if (!yes) {
      const ok = await confirm(
        ctx.io,
        `Invalidate EVERY token of database ${terminalSafe(db.name)} (${terminalSafe(db.id)})? Every client using one fails at once. [y/N] `,
      );
      if (!ok) {
        ctx.io.stderr.write('Nothing was invalidated.\n');
        return 1;
      }
    }
    await lostAnswer(
      session.api.databases.revokeTokens(db.id, signal),
      `invalidating every token of ${db.name}`,
      'the tokens may or may not be invalidated now; running the command again is safe (invalidating twice changes nothing more)',
    );
    const tokens: GeneratedToken[] = [];
    if (ctx.values.regenerate) {
      for (const kind of ['full-access', 'read-only'] as const) tokens.push(await session.api.databases.generateToken(db.id, kind, null, signal));
    }
    const format = ctx.settings.output ?? 'table';
    if (format === 'json') {
      const records = tokens.map((t) => ({ token: t.token, expires_at: t.expiresAt, db_id: t.dbId, authorization: t.authorization }));
      ctx.io.stdout.write(`${jsonTerminalSafe(JSON.stringify({ db_id: db.id, invalidated: true, ...(tokens.length ? { tokens: records } : {}) }, null, 2))}\n`);
      return 0;
    }
    ctx.io.stderr.write(`Invalidated every token of database ${terminalSafe(db.name)} (${terminalSafe(db.id)}).\n`);
    if (tokens.length) printTokens(ctx, db, tokens);
    return 0;
  });
}

async function listDatabases(ctx: CommandContext): Promise<number> {
  return withSession(ctx, async (session, signal) => {
    const all = await session.api.databases.list(signal);
    ctx.io.stdout.write(
      formatRecords({
        format: ctx.settings.output ?? 'table',
        records: all,
        columns: [
          { header: 'NAME', value: (d) => d.name },
          { header: 'ID', value: (d) => d.id },
          { header: 'REGION', value: (d) => d.storage_region },
          { header: 'SIZE', value: (d) => d.current_size },
          { header: 'URL', value: (d) => d.url },
        ],
      }),
    );
    return 0;
  });
}

export const dbCommand: Command = {
  name: 'db',
  summary: 'databases and their access tokens: list, tokens create, tokens invalidate',
  usage: USAGE,
  options: {
    pair: { type: 'boolean' },
    expiry: { type: 'string' },
    regenerate: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
  },
  outputs: ['table', 'json', 'csv', 'ndjson'],
  ownFlagsAfterName: ['read-only'],
  async run(ctx) {
    const [group, action, dbArg, ...rest] = ctx.args;
    const only = (allowed: string[], what: string) => {
      for (const o of ['pair', 'expiry', 'regenerate', 'yes'])
        if (ctx.values[o] !== undefined && !allowed.includes(o)) throw new UsageError(`--${o} does not apply to ${what}`);
    };
    if (group === 'list') {
      if (action !== undefined) throw new UsageError(`burrow db list takes no argument (got "${action}")`);
      only([], 'burrow db list');
      return listDatabases(ctx);
    }
    if (group !== 'tokens')
      throw new UsageError(
        `${group ? `unknown db command "${group}"` : 'what about the database?'}: use burrow db list, burrow db tokens create or burrow db tokens invalidate`,
      );
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
    if (action === 'create') {
      only(['pair', 'expiry'], `burrow db tokens ${action}`);
      return createTokens(ctx, dbArg);
    }
    if (action === 'invalidate') {
      only(['regenerate', 'yes'], `burrow db tokens ${action}`);
      return invalidateTokens(ctx, dbArg);
    }
    throw new UsageError(`${action ? `unknown tokens action "${action}"` : 'which tokens action?'}: create or invalidate`);
  },
};
