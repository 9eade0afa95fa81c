import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { MAX_CONNECTIONS, type EngineRequest } from './engine-protocol';
import { EngineFailure, type EngineSupervisor } from './engine-supervisor';
import type { HostedDatabase } from './catalog';
import { checkBatchConditions, parseBatchSteps, parseStmtJson, resolveStoredSql } from './pipeline';
import type { TokenAccess, TokenStore } from './tokens';
import { ProtocolError } from './values';

/*
 * Hrana over WebSocket on the database origin's port (an upgrade of `GET /` or `/db/{name}/`),
 * as sqld serves it: hello with the JWT, streams named by the client, stored SQL per socket.
 * Each stream has its own SQLite connection in the engine and its own queue, so a stream that
 * waits for a lock never holds up the others.
 */

export interface HranaWsDeps {
  engine: EngineSupervisor;
  tokens: TokenStore;
  /** A fresh engine connection id (shared with the HTTP streams). */
  newConn(): number;
  /** The database a path upgrades to; null when there is none (the upgrade gets 404). */
  databaseAt(path: string): HostedDatabase | null;
  /** A stream idle this long gives its engine connection back (see WsStream). */
  idleMs: number;
}

/** The WebSocket streams of every socket (tests wait on these). */
export interface WsStreamStats {
  /** Streams open now (not counting those refused or expired). */
  open: number;
  /** Open streams that hold an engine connection now. */
  connected: number;
  /** Streams expired for idleness so far. */
  expired: number;
  /** open_stream requests refused so far (the socket had MAX_STREAMS streams open). */
  refused: number;
}

export interface HranaWs {
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (the emulator stops); their streams roll back. */
  closeAll(): void;
  stats(): WsStreamStats;
}

const MAX_STORED_SQL = 150;
/**
 * Streams one socket may have open. sqld has no such limit, but every stream holds one of its
 * 128 connections (the next waits): a socket here may hold half of the engine's connections, so
 * one client never takes them all. Past it open_stream is answered STREAM_NOT_OPEN, as sqld
 * answers a stream that failed to open, and the socket stays open.
 */
export const MAX_STREAMS = MAX_CONNECTIONS / 2;
/** Ids of refused or expired streams a socket may leave unclosed before it is dropped. */
const MAX_DEAD_STREAMS = 1024;
// hrana3 (cursors, get_autocommit) and hrana3-protobuf are not offered: @libsql/client asks for hrana2
const PROTOCOLS = ['hrana2', 'hrana1'] as const;
type Version = 1 | 2;

/**
 * A stream idle for `idleMs` gives its engine connection back: quietly when the connection holds
 * nothing of the stream's (autocommit, no settings, no temp objects: the next request takes
 * another), else the stream expires, its transaction rolls back and its requests get
 * STREAM_EXPIRED.
 */
interface WsStream {
  conn: number | null;
  generation: number;
  /** Requests of one stream run in arrival order; other streams do not wait for them. */
  queue: Promise<void>;
  /** Requests queued and not answered yet. */
  pending: number;
  /** The connection's state after its last request. */
  autocommit: boolean;
  ownState: boolean;
  idle: NodeJS.Timeout | null;
  /** Why the stream cannot run anything (refused, expired, or its engine connection died), and the code. */
  broken: { message: string; code: string } | null;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function int32(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) throw new ProtocolError(`${where}: expected a 32-bit integer`);
  return v;
}

function chooseProtocol(offered: string | undefined): string | null {
  if (offered === undefined) return 'hrana1';
  const names = offered.split(',').map((s) => s.trim());
  return PROTOCOLS.find((p) => names.includes(p)) ?? null;
}

const OK_PREFIX = '{"type":"ok","response":';
const ERROR_PREFIX = '{"type":"error","error":';

/** The engine answers with a pipeline StreamResult as JSON text: re-labelled, not re-encoded. */
function asWsResponse(requestId: number, json: string): string {
  if (json.startsWith(OK_PREFIX)) return `{"type":"response_ok","request_id":${requestId},"response":${json.slice(OK_PREFIX.length)}`;
  if (json.startsWith(ERROR_PREFIX)) return `{"type":"response_error","request_id":${requestId},"error":${json.slice(ERROR_PREFIX.length)}`;
  const parsed = JSON.parse(json) as { type: string; response?: unknown; error?: unknown };
  return parsed.type === 'ok'
    ? JSON.stringify({ type: 'response_ok', request_id: requestId, response: parsed.response })
    : JSON.stringify({ type: 'response_error', request_id: requestId, error: parsed.error });
}

function engineFailureError(error: EngineFailure): { message: string; code: string } {
  if (error.reason === 'unavailable') return { message: `The database engine is unavailable: ${error.message}`, code: 'ENGINE_UNAVAILABLE' };
  return {
    message: `The database engine restarted while running this request (${error.message}); this stream and its open transaction, if any, are gone`,
    code: 'ENGINE_RESTARTED',
  };
}

export function createHranaWs(deps: HranaWsDeps): HranaWs {
  // ws answers with the name handleProtocols picks
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: 16 * 1024 * 1024,
    handleProtocols: (offered: Set<string>) => PROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const sockets = new Set<WebSocket>();
  const live = new Set<WsStream>();
  let expired = 0;
  let refused = 0;

  function refuse(socket: Duplex, status: number, reason: string, body: string): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }

  function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '/').split('?')[0]!;
    const db = req.method === 'GET' ? deps.databaseAt(path) : null;
    if (db === null) return refuse(socket, 404, 'Not Found', '');
    const protocol = chooseProtocol(req.headers['sec-websocket-protocol']);
    if (protocol === null)
      return refuse(socket, 400, 'Bad Request', 'None of the offered WebSocket subprotocols is supported (this server speaks hrana2 and hrana1)');
    server.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.once('close', () => sockets.delete(ws));
      const version = Number(protocol.slice('hrana'.length)) as Version;
      serveSocket(ws, db, version);
    });
  }

  function serveSocket(ws: WebSocket, db: HostedDatabase, version: Version): void {
    let token: string | null = null;
    let helloState: 'none' | 'ok' | 'failed' = 'none';
    let access: TokenAccess = 'read-only';
    const sqls = new Map<number, string>();
    const streams = new Map<number, WsStream>();
    const streamIdOf = new WeakMap<WsStream, number>();
    const newStream = (id: number, broken: WsStream['broken']): WsStream => {
      const stream: WsStream = { conn: null, generation: -1, queue: Promise.resolve(), pending: 0, autocommit: true, ownState: false, idle: null, broken };
      streams.set(id, stream);
      streamIdOf.set(stream, id);
      if (broken === null) live.add(stream);
      return stream;
    };

    const send = (text: string) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    };
    const respondOk = (requestId: number, response: Record<string, unknown>) => send(JSON.stringify({ type: 'response_ok', request_id: requestId, response }));
    const respondError = (requestId: number, message: string, code: string) =>
      send(JSON.stringify({ type: 'response_error', request_id: requestId, error: { message, code } }));

    /** The token's current verdict: revocation and expiry take effect on the next request. */
    function authError(): { message: string; code: string } | null {
      if (token === null) return { message: 'Authentication failed: Expected authorization header but none given', code: 'AUTH_HEADER_NOT_FOUND' };
      const checked = deps.tokens.check(token);
      if (!checked.ok) {
        return checked.reason === 'expired'
          ? { message: 'Authentication failed: The JWT has expired', code: 'AUTH_JWT_EXPIRED' }
          : { message: 'Authentication failed: The JWT is invalid', code: 'AUTH_JWT_INVALID' };
      }
      if (checked.claims.db !== db.def.id) {
        return {
          message: `Authorization forbidden: Current session doesn't not have Read permission to namespace ${db.def.name}`,
          code: 'AUTH_NAMESPACE_FORBIDDEN',
        };
      }
      access = checked.claims.access;
      return null;
    }

    function hello(msg: Record<string, unknown>): void {
      if (helloState !== 'none' && version < 2) return ws.close(1008, 'Hello message can only be sent once in protocol version 1');
      if (msg.jwt !== undefined && msg.jwt !== null && typeof msg.jwt !== 'string')
        return ws.close(1007, 'Cannot deserialize client message: jwt must be a string');
      token = typeof msg.jwt === 'string' ? msg.jwt : null;
      const refused = authError();
      if (refused) {
        helloState = 'failed';
        send(JSON.stringify({ type: 'hello_error', error: refused }));
        ws.close(1000, 'Thank you for using sqld');
        return;
      }
      helloState = 'ok';
      send('{"type":"hello_ok"}');
    }

    function release(stream: WsStream): void {
      if (stream.idle) clearTimeout(stream.idle);
      stream.idle = null;
      if (stream.conn !== null) deps.engine.release(stream.conn, stream.generation);
      stream.conn = null;
    }

    /** Idle: the connection goes back (quietly, or the stream expires: see WsStream). */
    function armIdle(stream: WsStream): void {
      if (stream.idle) clearTimeout(stream.idle);
      stream.idle = null;
      if (stream.conn === null || stream.broken !== null) return;
      stream.idle = setTimeout(() => {
        stream.idle = null;
        if (stream.pending > 0 || stream.conn === null) return;
        if (!stream.autocommit || stream.ownState) {
          stream.broken = { message: 'The stream has expired due to inactivity', code: 'STREAM_EXPIRED' };
          live.delete(stream);
          expired++;
        }
        release(stream);
      }, deps.idleMs);
      stream.idle.unref();
    }

    /** Runs SQL on the stream's connection; answers the request (an engine failure breaks the stream). */
    async function runSql(stream: WsStream, requestId: number, request: EngineRequest): Promise<void> {
      if (stream.broken !== null) return respondError(requestId, stream.broken.message, stream.broken.code);
      const refusedAuth = authError();
      if (refusedAuth) return respondError(requestId, refusedAuth.message, refusedAuth.code);
      if (stream.conn !== null && stream.generation !== deps.engine.generation) {
        stream.conn = null;
        stream.broken = {
          message: 'The database engine restarted since this stream last ran SQL: the stream and its transaction are gone',
          code: 'STREAM_NOT_OPEN',
        };
        live.delete(stream);
        return respondError(requestId, stream.broken.message, stream.broken.code);
      }
      if (stream.conn === null) {
        stream.conn = deps.newConn();
        stream.generation = deps.engine.generation;
      }
      try {
        const answer = await deps.engine.run(stream.conn, db.ref, access === 'read-only', request);
        stream.autocommit = answer.autocommit;
        stream.ownState = answer.ownState;
        send(asWsResponse(requestId, answer.json));
      } catch (error) {
        if (!(error instanceof EngineFailure)) throw error;
        stream.conn = null;
        const e = engineFailureError(error);
        stream.broken = { message: e.message, code: 'STREAM_NOT_OPEN' };
        live.delete(stream);
        respondError(requestId, e.message, e.code);
      }
    }

    const enqueue = (stream: WsStream, work: () => Promise<void> | void) => {
      stream.pending++;
      if (stream.idle) clearTimeout(stream.idle);
      stream.idle = null;
      stream.queue = stream.queue
        .then(work)
        .catch((error: unknown) => {
          if (process.env.BURROW_EMULATOR_DEBUG) process.stderr.write(`emulator hrana-ws: ${(error as Error).stack}\n`);
          ws.close(1011, 'Internal server error');
        })
        .finally(() => {
          if (--stream.pending === 0 && streams.get(streamIdOf.get(stream) ?? NaN) === stream) armIdle(stream);
        });
    };

    function needVersion(min: Version, what: string): void {
      if (version < min) throw new ProtocolError(`The \`${what}\` request is only supported in protocol version hrana${min} and higher`);
    }

    function streamOf(r: Record<string, unknown>): WsStream {
      const id = int32(r.stream_id, 'stream_id');
      const stream = streams.get(id);
      if (!stream) throw new ProtocolError(`Stream ${id} not found`);
      return stream;
    }

    const sqlOf = (r: Record<string, unknown>) =>
      resolveStoredSql(
        { sql: typeof r.sql === 'string' ? r.sql : r.sql == null ? null : badSql(), sqlId: r.sql_id == null ? null : int32(r.sql_id, 'sql_id') },
        sqls,
      );

    /** Protocol errors are thrown before anything is queued; the caller closes the socket. */
    function request(requestId: number, r: Record<string, unknown>): void {
      switch (r.type) {
        case 'open_stream': {
          const id = int32(r.stream_id, 'stream_id');
          if (streams.has(id)) throw new ProtocolError(`Stream ${id} already exists`);
          let open = 0;
          for (const s of streams.values()) if (s.broken === null) open++;
          if (open < MAX_STREAMS) {
            newStream(id, null);
            return respondOk(requestId, { type: 'open_stream' });
          }
          if (streams.size - open >= MAX_DEAD_STREAMS) throw new ProtocolError(`Too many streams: ${streams.size} open or failed streams on this connection`);
          refused++;
          const message = `Stream ${id} has failed to open: this connection already has ${MAX_STREAMS} streams open, the most one WebSocket may have on this server (close a stream first)`;
          newStream(id, { message, code: 'STREAM_NOT_OPEN' });
          return respondError(requestId, message, 'STREAM_NOT_OPEN');
        }
        case 'close_stream': {
          const id = int32(r.stream_id, 'stream_id');
          const stream = streams.get(id);
          if (!stream) return respondOk(requestId, { type: 'close_stream' });
          streams.delete(id);
          live.delete(stream);
          return enqueue(stream, () => {
            release(stream);
            respondOk(requestId, { type: 'close_stream' });
          });
        }
        case 'execute': {
          const stream = streamOf(r);
          const stmt = parseStmtJson(r.stmt, 'stmt', sqls);
          return enqueue(stream, () => runSql(stream, requestId, { type: 'execute', stmt }));
        }
        case 'batch': {
          const stream = streamOf(r);
          const steps = parseBatchSteps(r.batch, 'batch', sqls);
          checkBatchConditions(steps, 2);
          return enqueue(stream, () => runSql(stream, requestId, { type: 'batch', steps }));
        }
        case 'sequence': {
          needVersion(2, 'sequence');
          const stream = streamOf(r);
          const sql = sqlOf(r);
          return enqueue(stream, () => runSql(stream, requestId, { type: 'sequence', sql }));
        }
        case 'describe': {
          needVersion(2, 'describe');
          const stream = streamOf(r);
          const sql = sqlOf(r);
          return enqueue(stream, () => runSql(stream, requestId, { type: 'describe', sql }));
        }
        case 'store_sql': {
          needVersion(2, 'store_sql');
          const id = int32(r.sql_id, 'sql_id');
          if (typeof r.sql !== 'string') throw new ProtocolError('store_sql: `sql` must be a string');
          if (sqls.has(id)) throw new ProtocolError(`SQL text ${id} already exists`);
          if (sqls.size >= MAX_STORED_SQL)
            return respondError(requestId, `Too many stored SQL texts: the limit is ${MAX_STORED_SQL} per connection`, 'SQL_STORE_TOO_MANY');
          sqls.set(id, r.sql);
          return respondOk(requestId, { type: 'store_sql' });
        }
        case 'close_sql':
          needVersion(2, 'close_sql');
          sqls.delete(int32(r.sql_id, 'sql_id'));
          return respondOk(requestId, { type: 'close_sql' });
        default:
          throw new ProtocolError(`Unknown request type \`${String(r.type).slice(0, 40)}\``);
      }
    }

    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return ws.close(1003, 'Only text messages are accepted with JSON encoding');
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch (error) {
        return ws.close(1007, `Cannot deserialize client message from JSON: ${(error as Error).message}`.slice(0, 120));
      }
      if (!isObj(msg)) return ws.close(1007, 'Cannot deserialize client message: expected an object');
      if (msg.type === 'hello') return hello(msg);
      if (msg.type !== 'request') return ws.close(1007, `Cannot deserialize client message: unknown message type`);
      if (helloState === 'none') return ws.close(1008, 'Received a request before hello');
      if (helloState === 'failed') return;
      try {
        const requestId = int32(msg.request_id, 'request_id');
        if (!isObj(msg.request)) throw new ProtocolError('request: expected an object');
        request(requestId, msg.request);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        ws.close(1008, error.message.slice(0, 120));
      }
    });

    ws.on('close', () => {
      // client.close() leaves its streams open: every transaction still open rolls back here
      for (const stream of streams.values()) {
        if (stream.conn !== null) deps.engine.interrupt(stream.conn, stream.generation);
        live.delete(stream);
        enqueue(stream, () => release(stream));
      }
      streams.clear();
    });
    ws.on('error', () => ws.terminate());
  }

  return {
    upgrade,
    closeAll() {
      for (const ws of sockets) ws.terminate();
      sockets.clear();
    },
    stats() {
      let connected = 0;
      for (const s of live) if (s.conn !== null) connected++;
      return { open: live.size, connected, expired, refused };
    },
  };
}

function badSql(): never {
  throw new ProtocolError('`sql` must be a string');
}
