import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { EngineRequest } from './engine-protocol';
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
}

export interface HranaWs {
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (the emulator stops); their streams roll back. */
  closeAll(): void;
}

const MAX_STORED_SQL = 150;
// hrana3 (cursors, get_autocommit) and hrana3-protobuf are not offered: @libsql/client asks for hrana2
const PROTOCOLS = ['hrana2', 'hrana1'] as const;
type Version = 1 | 2;

interface WsStream {
  conn: number | null;
  generation: number;
  /** Requests of one stream run in arrival order; other streams do not wait for them. */
  queue: Promise<void>;
  /** Why the stream cannot run anything any more (its engine connection died). */
  broken: string | null;
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
  return { message: `The database engine restarted while running this request (${error.message}); this stream and its open transaction, if any, are gone`, code: 'ENGINE_RESTARTED' };
}

export function createHranaWs(deps: HranaWsDeps): HranaWs {
  // ws answers with the name handleProtocols picks
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: 16 * 1024 * 1024,
    handleProtocols: (offered: Set<string>) => PROTOCOLS.find((p) => offered.has(p)) ?? false,
  });
  const sockets = new Set<WebSocket>();

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
    if (protocol === null) return refuse(socket, 400, 'Bad Request', 'None of the offered WebSocket subprotocols is supported (this server speaks hrana2 and hrana1)');
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
        return { message: `Authorization forbidden: Current session doesn't not have Read permission to namespace ${db.def.name}`, code: 'AUTH_NAMESPACE_FORBIDDEN' };
      }
      access = checked.claims.access;
      return null;
    }

    function hello(msg: Record<string, unknown>): void {
      if (helloState !== 'none' && version < 2) return ws.close(1008, 'Hello message can only be sent once in protocol version 1');
      if (msg.jwt !== undefined && msg.jwt !== null && typeof msg.jwt !== 'string') return ws.close(1007, 'Cannot deserialize client message: jwt must be a string');
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
      if (stream.conn !== null) deps.engine.release(stream.conn, stream.generation);
      stream.conn = null;
    }

    /** Runs SQL on the stream's connection; answers the request (an engine failure breaks the stream). */
    async function runSql(stream: WsStream, requestId: number, request: EngineRequest): Promise<void> {
      if (stream.broken !== null) return respondError(requestId, stream.broken, 'STREAM_NOT_OPEN');
      const refused = authError();
      if (refused) return respondError(requestId, refused.message, refused.code);
      if (stream.conn !== null && stream.generation !== deps.engine.generation) {
        stream.conn = null;
        stream.broken = 'The database engine restarted since this stream last ran SQL: the stream and its transaction are gone';
        return respondError(requestId, stream.broken, 'STREAM_NOT_OPEN');
      }
      if (stream.conn === null) {
        stream.conn = deps.newConn();
        stream.generation = deps.engine.generation;
      }
      try {
        const answer = await deps.engine.run(stream.conn, db.ref, access === 'read-only', request);
        send(asWsResponse(requestId, answer.json));
      } catch (error) {
        if (!(error instanceof EngineFailure)) throw error;
        stream.conn = null;
        const e = engineFailureError(error);
        stream.broken = e.message;
        respondError(requestId, e.message, e.code);
      }
    }

    const enqueue = (stream: WsStream, work: () => Promise<void> | void) => {
      stream.queue = stream.queue.then(work).catch((error: unknown) => {
        if (process.env.BURROW_EMULATOR_DEBUG) process.stderr.write(`emulator hrana-ws: ${(error as Error).stack}\n`);
        ws.close(1011, 'Internal server error');
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
      resolveStoredSql({ sql: typeof r.sql === 'string' ? r.sql : r.sql == null ? null : badSql(), sqlId: r.sql_id == null ? null : int32(r.sql_id, 'sql_id') }, sqls);

    /** Protocol errors are thrown before anything is queued; the caller closes the socket. */
    function request(requestId: number, r: Record<string, unknown>): void {
      switch (r.type) {
        case 'open_stream': {
          const id = int32(r.stream_id, 'stream_id');
          if (streams.has(id)) throw new ProtocolError(`Stream ${id} already exists`);
          streams.set(id, { conn: null, generation: -1, queue: Promise.resolve(), broken: null });
          return respondOk(requestId, { type: 'open_stream' });
        }
        case 'close_stream': {
          const id = int32(r.stream_id, 'stream_id');
          const stream = streams.get(id);
          if (!stream) return respondOk(requestId, { type: 'close_stream' });
          streams.delete(id);
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
          if (sqls.size >= MAX_STORED_SQL) return respondError(requestId, `Too many stored SQL texts: the limit is ${MAX_STORED_SQL} per connection`, 'SQL_STORE_TOO_MANY');
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
  };
}

function badSql(): never {
  throw new ProtocolError('`sql` must be a string');
}
