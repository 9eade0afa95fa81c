import fs from 'node:fs';
import { DatabaseSession, leadingTokens, parseDatabaseUrl, splitStatements, SqlError, type SqlStatement } from '../api/database/index';
import { ApiError } from '../api/errors';
import { connectNonInteractive, debugSink, startEmulatorChild, type PlatformConnection } from '../runtime/connect';
import { ResultPrinter, writeTag, type SqlOutputFormat } from './sql-output';
import { runStreaming } from './sql-stream';
import { sessionDatabase } from './sql-database';
import { terminalSafeLines } from '../text/terminal-safe';
import { firstWriter, readOnlyRefusal } from '../sql-repl/read-only';
import { type Command, type CommandContext, UsageError } from './types';

const NO_DATABASE =
  'no database to talk to: pass its URL (burrow sql libsql://NAME.lite.bunnydb.net -e ...), set SERVICE_DATABASE_URL and SERVICE_DATABASE_AUTH_TOKEN ' +
  '(or BUNNY_DATABASE_URL and BUNNY_DATABASE_AUTH_TOKEN), or add --demo to use the built-in emulator';

const REPL_NEEDS_TERMINAL =
  'the interactive SQL shell needs a terminal on stdout. Pass SQL instead:\n' +
  '  burrow sql -e "SELECT count(*) FROM customers"\n' +
  '  burrow sql script.sql\n' +
  '  burrow sql < script.sql';

const looksLikeUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The SQL to run and where it came from (for messages): each -e, a file, or stdin; null = the interactive shell. */
async function sqlSources(ctx: CommandContext, file: string | undefined): Promise<{ sql: string; origin: string }[] | null> {
  const raw = ctx.values.execute;
  const exprs = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is string => typeof v === 'string');
  if (exprs.length && file !== undefined) throw new UsageError('give the SQL either with -e or as FILE, not both');
  // each -e is its own script, as sqlite3's -cmd: a missing `;` at its end does not glue it to the next
  if (exprs.length) return exprs.map((sql, i) => ({ sql, origin: exprs.length > 1 ? `-e ${i + 1}` : '' }));
  if (file !== undefined && file !== '-') {
    try {
      return [{ sql: fs.readFileSync(file, 'utf8'), origin: file }];
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (file === '-' || !ctx.io.stdin.isTTY) return [{ sql: await readAll(ctx.io.stdin), origin: 'stdin' }];
  return null;
}

/** The interactive shell: the URL argument, else the configured database, else the emulator (a child process, so a long query cannot freeze the shell). */
async function runRepl(ctx: CommandContext, url: string | undefined, token = ctx.settings.databaseToken): Promise<number> {
  const { settings } = ctx;
  // the shell draws the whole screen (Ink): the raw streams, not the command's sanitised ones
  const io = ctx.screenIo;
  if (!io.stdout.isTTY) throw new UsageError(REPL_NEEDS_TERMINAL);
  const demo = Boolean(ctx.values.demo);
  const management =
    settings.target === 'platform' && settings.apiKey ? { baseUrl: settings.baseUrl, loggingUrl: settings.loggingUrl, apiKey: settings.apiKey } : null;
  const { runSqlRepl } = await import('../app/run-sql-console');
  const format = ctx.settings.output;
  const mode = format === 'csv' || format === 'json' || format === 'table' ? format : undefined;
  if (url !== undefined) return runSqlRepl(settings, io, { url, token, management, emulator: false, mode, stop: async () => {} });
  if (!demo && settings.databaseUrl)
    return runSqlRepl(settings, io, { url: settings.databaseUrl, token: settings.databaseToken, management, emulator: false, mode, stop: async () => {} });
  if (!demo && settings.target !== 'emulator') throw new UsageError(NO_DATABASE);
  io.stderr.write(`burrow: ${demo ? '--demo' : 'no database configured'}, starting the built-in emulator…\n`);
  const emu = await startEmulatorChild();
  const e = emu.endpoints;
  return runSqlRepl(settings, io, {
    url: e.databaseUrl,
    token: e.databaseToken,
    management: { baseUrl: e.baseUrl, loggingUrl: e.loggingUrl, apiKey: e.accessKey },
    emulator: true,
    mode,
    stop: emu.stop,
  });
}

/** Database URL and token: the URL argument, else SERVICE_/BUNNY_DATABASE_* (or the profile), else --demo's emulator. */
async function target(ctx: CommandContext, url: string | undefined): Promise<{ url: string; token: string | null; session: PlatformConnection | null }> {
  const demo = Boolean(ctx.values.demo);
  const named = ctx.values.database;
  if (typeof named === 'string') {
    if (url !== undefined) throw new UsageError('give either a database URL or --database, not both');
    const session = await connectNonInteractive(ctx.settings, ctx.io, demo);
    try {
      const db = await sessionDatabase(session, named, Boolean(ctx.settings.readOnly), ctx.io, new AbortController().signal);
      return { url: db.url, token: db.token, session };
    } catch (error) {
      await session.close();
      throw error;
    }
  }
  if (url !== undefined) return { url, token: ctx.settings.databaseToken, session: null };
  if (!demo && ctx.settings.databaseUrl) return { url: ctx.settings.databaseUrl, token: ctx.settings.databaseToken, session: null };
  if (!demo && ctx.settings.target === 'emulator') throw new UsageError(NO_DATABASE);
  const session = await connectNonInteractive(ctx.settings, ctx.io, demo);
  if (!session.databaseUrl) {
    await session.close();
    throw new UsageError(NO_DATABASE);
  }
  return { url: session.databaseUrl, token: session.databaseToken, session };
}

type Located = SqlStatement & { origin: string };

function where(s: Located, index: number): string {
  return `statement ${index + 1} (${s.origin ? `${s.origin} ` : ''}line ${s.line})`;
}

function explainHttp(error: ApiError): string {
  if (error.status === 401)
    return `${error.message}\nThe database refused the token: it may be revoked, expired or for another database. Create one with burrow db tokens create, or check SERVICE_DATABASE_AUTH_TOKEN.`;
  if (error.status === 403) return `${error.message}\nThe token is not allowed to do this on this database.`;
  return error.message;
}

export async function runSql(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const [first, second, ...rest] = ctx.args;
  if (rest.length) throw new UsageError(`too many arguments: ${rest.join(' ')} (usage: burrow sql [URL] [FILE] [-e SQL])`);
  let url: string | undefined;
  let file: string | undefined;
  if (second !== undefined) {
    if (!looksLikeUrl(first!)) throw new UsageError(`with two arguments the first must be the database URL, got "${first}"`);
    url = first;
    file = second;
  } else if (first !== undefined) {
    if (looksLikeUrl(first)) url = first;
    else file = first;
  }
  if (url !== undefined) {
    let inUrl: string | null;
    try {
      inUrl = parseDatabaseUrl(url).authToken;
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    // (parseDatabaseUrl registered the token: it is masked in every message from here on)
    if (inUrl) {
      io.stderr.write(
        'warning: a database token in the URL on the command line is visible to other users of this machine (ps, shell history); prefer SERVICE_DATABASE_AUTH_TOKEN or a profile\n',
      );
    }
  }
  const format = (ctx.settings.output ?? 'table') as SqlOutputFormat;
  if (ctx.values.store === true || typeof ctx.values['store-url'] === 'string') {
    if (url !== undefined || typeof ctx.values.database === 'string')
      throw new UsageError('--store runs SQL on the log store: give no database URL or --database with it');
    const sources = await sqlSources(ctx, file);
    if (sources === null)
      throw new UsageError(
        "burrow sql --store needs SQL (-e, FILE or stdin); the interactive shell on the store is the console's :sql store (burrow --store-url URL)",
      );
    const { runStoreSql } = await import('./sql-store');
    return runStoreSql(ctx, sources);
  }
  const sources = await sqlSources(ctx, file);
  if (sources === null) {
    if (typeof ctx.values.database !== 'string') return runRepl(ctx, url);
    // the shell with a database picked by name: its session token is made first
    const picked = await target(ctx, url);
    await picked.session?.close();
    return runRepl(ctx, picked.url, picked.token);
  }
  const statements: Located[] = sources.flatMap(({ sql, origin }) => splitStatements(sql).map((st) => ({ ...st, origin })));
  if (statements.length === 0) {
    io.stderr.write('burrow: no SQL statement to run\n');
    return 0;
  }
  const conn = await target(ctx, url);
  const db = new DatabaseSession({ url: conn.url, authToken: conn.token, debug: debugSink(ctx.settings, io, false), debugSql: ctx.settings.debugSql });
  const printer = new ResultPrinter(io.stdout, format, Boolean(io.stdout.isTTY) && format === 'table');
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  let code = 0;
  let ran = 0;
  try {
    const writer = ctx.settings.readOnly ? await firstWriter(db, statements, abort.signal) : null;
    if (writer) {
      io.stderr.write(
        `burrow: ${terminalSafeLines(`${where(writer.statement, writer.index)}: ${readOnlyRefusal(writer.statement.text, ctx.settings.readOnlySource)}`)}\n`,
      );
      return 2;
    }
    // csv, json and ndjson are written as the rows arrive: queries go through a cursor (any size)
    const stream =
      format === 'table'
        ? undefined
        : { target: { url: conn.url, authToken: conn.token, debug: debugSink(ctx.settings, io, false), debugSql: ctx.settings.debugSql }, sink: printer };
    const outcome = await runStreaming(db, statements, {
      stream,
      signal: abort.signal,
      onResult: async (i, r) => {
        ran++;
        const tag = writeTag(leadingTokens(statements[i]!.text, 1)[0] ?? '', r);
        // a write's count: with the table on stdout, in csv/json/ndjson on stderr (stdout is rows only)
        if (tag !== null && format !== 'table') io.stderr.write(`${tag}\n`);
        await printer.result(r, tag);
      },
    });
    await printer.end();
    if (outcome.failed) {
      const s = statements[outcome.failed.index]!;
      const e = outcome.failed.error;
      io.stderr.write(`burrow: ${terminalSafeLines(`${where(s, outcome.failed.index)}: ${e instanceof SqlError ? e.message : explainHttp(e)}`)}\n`);
      if (outcome.failed.index + 1 < statements.length)
        io.stderr.write(`burrow: the ${statements.length - outcome.failed.index - 1} statement(s) after it did not run\n`);
      code = 1;
    }
  } catch (error) {
    await printer.end().catch(() => undefined);
    if (!(error instanceof ApiError)) throw error;
    const at = statements[ran];
    const place = at ? `${where(at, ran)}: ` : '';
    io.stderr.write(`burrow: ${terminalSafeLines(`${place}${error.kind === 'aborted' ? 'cancelled' : explainHttp(error)}`)}\n`);
    code = error.kind === 'aborted' ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    const closed = await db.close().catch(() => ({ rolledBack: false }));
    if (closed.rolledBack) io.stderr.write('burrow: the SQL left a transaction open: it was rolled back (end it with COMMIT to keep its changes)\n');
    await conn.session?.close();
  }
  return code;
}

export const sqlCommand: Command = {
  name: 'sql',
  summary: 'run SQL on the hosted database (REPL when interactive)',
  usage: `burrow sql [URL | --database NAME|ID] [FILE | -] [-e SQL]... [-o table|csv|json|ndjson] [--demo]
       burrow sql --store [--store-url URL] [FILE | -] [-e SQL]... [-o ...]

Runs SQL on the hosted database, statement by statement, on one stream (so BEGIN ... COMMIT
works) and stops at the first error (exit code 1, with the statement's number and line).

SQL comes from -e (may be repeated), from FILE, or from stdin when it is not a terminal.
The database is URL (libsql://, https:// or http://; a ?authToken= in it is used and never
shown), else SERVICE_DATABASE_URL / SERVICE_DATABASE_AUTH_TOKEN (or BUNNY_DATABASE_URL /
BUNNY_DATABASE_AUTH_TOKEN, or the profile's databaseUrl / databaseToken), else with --demo the
built-in emulator's database. --database NAME|ID picks one of the account's databases with the API
key and makes a token for this run only (1 hour; read-only in read-only mode), left to expire.

Output: table (default), csv (NULL is empty), json (one array of row objects per result set;
integers are exact JSON numbers, blobs {"base64": ...}), ndjson (one object per row). In json
and ndjson a repeated column name gets a suffix so no value is lost: SELECT a.id, b.id gives the
keys id and id_2 (id_3 if id_2 is taken by another column). A write prints its count (DELETE 2,
INSERT 1): on stdout with table, on stderr with csv, json and ndjson. Reals print as sqlite3
prints them (213.785, 1.0); json keeps the exact value.
--debug shows each statement sent with its string and blob literals as '…'; --debug-sql shows them.
A transaction left open at the end is rolled back. In read-only mode (--read-only, or the
profile's readOnly) the server describes every statement first, and if one would write, nothing
runs (exit code 2).

At a terminal with no SQL given, opens the interactive SQL shell (the console's :sql screen):
multi-line input, history (per database, Ctrl-R), Tab completion from the live schema, dot-
commands (.help), transactions kept open across inputs. With no database configured and no
API key (or with --demo) it starts the built-in emulator.

--store runs the SQL on the log store instead (ClickHouse, where burrow ship writes): the store
is --store-url (as burrow ship --help describes it), else BURROW_LOG_STORE, else logStore: in the profile; its password only from
BURROW_LOG_STORE_PASSWORD or logStorePassword:. One request per statement, stopping at the first
error; csv, json and ndjson stream the rows as they arrive. Ctrl-C stops the query on the server
(KILL QUERY). In the console, :sql store opens the shell on it.`,
  options: {
    execute: { type: 'string', short: 'e', multiple: true },
    database: { type: 'string' },
    store: { type: 'boolean' },
    'store-url': { type: 'string' },
  },
  outputs: ['table', 'csv', 'json', 'ndjson'],
  run: runSql,
};
