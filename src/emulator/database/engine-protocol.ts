/**
 * Messages between the emulator (parent) and its database engine process (engine-host.ts).
 * The engine runs in a child process because libsql can abort the whole process (a Rust panic)
 * and can run a statement for ever: the parent must survive both and keep answering.
 */
import type { EngineValue } from './values';

/**
 * Connections the engine holds at most (each keeps three files open: the database, its WAL and
 * its shared memory). Past it a request is answered in-band with TOO_MANY_CONNECTIONS instead of
 * the engine running out of files for every stream. sqld caps its connections at 128 by default
 * (and makes the next one wait); one WebSocket may hold at most half of these (hrana-ws.ts).
 */
export const MAX_CONNECTIONS = 256;

export interface EngineStmt {
  sql: string;
  args: EngineValue[];
  namedArgs: { name: string; value: EngineValue }[];
  wantRows: boolean;
}

export type Cond = { type: 'ok' | 'error'; step: number } | { type: 'not'; cond: Cond } | { type: 'and' | 'or'; conds: Cond[] } | { type: 'is_autocommit' };

/** A pipeline request that needs the engine, with its SQL already resolved (no sql_id). */
export type EngineRequest =
  | { type: 'execute'; stmt: EngineStmt }
  | { type: 'batch'; steps: { condition: Cond | null; stmt: EngineStmt }[] }
  | { type: 'sequence'; sql: string }
  | { type: 'describe'; sql: string };

/** Which database file a connection opens, and how to seed it the first time. */
export interface DbRef {
  name: string;
  file: string;
  /** State of the seeded Random for this database (same seed, same rows in every process). */
  seedState: number;
}

export type HostCall =
  | { op: 'run'; id: number; conn: number; db: DbRef; readOnly: boolean; request: EngineRequest }
  | { op: 'ensure'; id: number; db: DbRef }
  /** The stream is gone: roll back and pool (or close) its connection. */
  | { op: 'release'; conn: number }
  /** The client went away: stop the statement running on this connection, if any. */
  | { op: 'interrupt'; conn: number }
  | { op: 'ping' }
  /** A cursor: its entries come back as `chunk` replies, then `done` (json empty). */
  | { op: 'cursor'; id: number; conn: number; db: DbRef; readOnly: boolean; steps: { condition: Cond | null; stmt: EngineStmt }[] }
  /** The parent passed one chunk of the cursor on: the engine may send another. */
  | { op: 'cursor-credit'; id: number }
  /** The cursor's reader went away: stop its statement. */
  | { op: 'cursor-cancel'; id: number };

export type HostReply =
  | { op: 'ready' }
  | { op: 'pong' }
  /** `json` is the StreamResult as JSON text, ready to go into the HTTP answer as is. */
  /**
   * `ownState`: the connection holds something of its stream's own beyond a transaction (a
   * pragma setting, temp objects), so it cannot be given back while the stream lives.
   */
  | { op: 'done'; id: number; json: string; autocommit: boolean; ownState: boolean; usage?: EngineUsage }
  | { op: 'ensured'; id: number }
  /** Some of a cursor's entries, NDJSON text. */
  | { op: 'chunk'; id: number; text: string }
  | { op: 'failed'; id: number; message: string };

/** What one request cost (statements run, rows returned, rows changed), for the usage routes. */
export interface EngineUsage {
  queries: number;
  rowsRead: number;
  rowsWritten: number;
}

export interface EngineLimits {
  /** A statement running longer is interrupted (SQLITE_INTERRUPT) and its transaction rolled back. */
  statementTimeoutMs: number;
  /** Rows of one statement beyond this many bytes fail with RESPONSE_TOO_LARGE (sqld: 10 MB). */
  maxResponseBytes: number;
}
