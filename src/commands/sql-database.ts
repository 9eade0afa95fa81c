import { pickDatabase } from './db';
import type { PlatformConnection } from '../runtime/connect';
import type { Io } from './types';

/** How long a token made for one `burrow sql --database` run lives. */
export const SESSION_TOKEN_MS = 60 * 60 * 1000;

export interface SessionDatabase {
  url: string;
  token: string;
  name: string;
  expiresAt: string | null;
}

/**
 * `burrow sql --database NAME|ID`: finds the database with the API key (as the platform's CLI
 * does for its shell) and creates a short-lived token for this run only: read-only when the run is.
 * The platform revokes only all of a database's tokens at once, so this one is left to expire.
 */
export async function sessionDatabase(
  session: PlatformConnection,
  arg: string,
  readOnly: boolean,
  io: Io,
  signal: AbortSignal,
  now = Date.now(),
): Promise<SessionDatabase> {
  const db = await pickDatabase(session, arg, signal);
  const made = await session.api.databases.generateToken(db.id, readOnly ? 'read-only' : 'full-access', new Date(now + SESSION_TOKEN_MS), signal);
  io.stderr.write(
    `burrow: ${db.name}: using a ${readOnly ? 'read-only' : 'full-access'} token made for this session; it is not revoked at exit (that would revoke every token of the database) and expires at ${made.expiresAt ?? 'never'}\n`,
  );
  return { url: db.url, token: made.token, name: db.name, expiresAt: made.expiresAt };
}
