import { BodyError, Router, type Ctx } from '../http-kit';
import type { OriginSpec } from '../origin';
import type { World } from '../world';
import { Catalog, type HostedDatabase, PRIMARY_DATABASE } from './catalog';
import { registerDatabaseManagement } from './management';
import { EngineFailure, EngineSupervisor } from './engine-supervisor';
import { parseBody, runRequest, type ExecContext } from './pipeline';
import { StreamStore, type Stream } from './streams';
import { TokenStore, type TokenAccess } from './tokens';
import { ProtocolError } from './values';
import { createHranaWs, type WsStreamStats } from './hrana-ws';
import { serveCursor, type CursorHttpDeps } from './cursor-http';
import { registerDatabaseMetrics } from './management-metrics';
import { UsageStore } from './usage';

export { PRIMARY_DATABASE } from './catalog';

export interface DatabaseArea {
  origin: OriginSpec;
  tokens: TokenStore;
  /** Registers the database management routes (/database/v2/...) on the management origin. */
  registerManagement(router: Router): void;
  /** Tokens for the ready line: a full-access and a read-only token for the primary database. */
  initialTokens: { full: string; readOnly: string };
  /** The engine process's supervisor (tests read its stats and pid). */
  engine: EngineSupervisor;
  /** Hrana-over-HTTP streams open now, and expired for idleness since the start; and the WebSocket streams. */
  streams(): { open: number; expired: number; ws: WsStreamStats };
}

const HELLO = 'Hello, this is HTTP API v2 (Hrana over HTTP)';
const VERSION = 'sqld 0.24.32 (burrow emulator)';

// The Hrana clients compare Content-Type with ===: exactly these two values, never a charset.
function sendJson(ctx: Ctx, status: number, body: unknown): void {
  if (ctx.res.headersSent) return;
  const payload = JSON.stringify(body);
  ctx.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  ctx.res.end(payload);
}

function sendPlain(ctx: Ctx, status: number, text: string): void {
  if (ctx.res.headersSent) return;
  ctx.res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
  ctx.res.end(text);
}

const unauthorized = (ctx: Ctx, why: string) => sendJson(ctx, 401, { error: `Unauthorized: \`${why}\`` });

const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The request's engine died or had to be killed: the stream (and any transaction) is gone. */
function engineFailure(ctx: Ctx, error: EngineFailure, limitMs: number): void {
  if (error.reason === 'unavailable') {
    return sendJson(ctx, 503, { message: `The database engine is unavailable: ${error.message}`, code: 'ENGINE_UNAVAILABLE' });
  }
  const what =
    error.reason === 'stuck'
      ? `A statement did not stop at the ${limitMs} ms limit, so the database engine was restarted`
      : `The database engine crashed while running this request and was restarted (${error.message})`;
  sendJson(ctx, 500, {
    message: `${what}. This stream and its open transaction, if any, are gone: the next request starts a new stream.`,
    code: 'ENGINE_RESTARTED',
  });
}

/**
 * The database origin: Hrana over HTTP (v2 and v3 JSON pipelines) on a real SQLite engine.
 * The primary database answers at the root; the others under /db/{name}/ (their `url` in the
 * management API says so). See docs/emulator-database.md for the choices made.
 */
export function createDatabaseArea(world: World): DatabaseArea {
  const tokens = new TokenStore(world.now);
  const limitMs = world.options.statementTimeoutMs;
  const engine: EngineSupervisor = new EngineSupervisor({
    limits: { statementTimeoutMs: limitMs, maxResponseBytes: MAX_RESPONSE_BYTES },
    // the connections died with the engine: their streams fail from now on, as after a server restart
    onUsage: (database, spent, ms) => usage.record(database, spent, ms),
    onRestart: ({ generation }) => streams.destroyWhere((s) => s.conn !== null && s.connGeneration === generation),
  });
  const catalog = new Catalog(world.random.fork('db-data'), engine);
  const usage = new UsageStore(world.now);
  const streams: StreamStore = new StreamStore(
    world.options.streamIdleMs,
    (stream) => {
      if (stream.conn !== null) engine.release(stream.conn, stream.connGeneration);
      stream.conn = null;
    },
    world.now,
  );
  let nextConn = 1;
  const ws = createHranaWs({
    engine,
    tokens,
    newConn: () => nextConn++,
    idleMs: world.options.wsStreamIdleMs,
    databaseAt: (path) => {
      if (path === '/') return catalog.primary;
      const m = /^\/db\/([^/]+)\/?$/.exec(path);
      return (m && catalog.byName(m[1]!)) ?? null;
    },
  });
  let originUrl = '';
  const urlOf = (db: HostedDatabase) => (db.def.primary ? originUrl : `${originUrl}/db/${db.def.name}/`);

  /** Bearer check before the body is read, as sqld does; answers and returns null when refused. */
  function authorize(ctx: Ctx, db: HostedDatabase): TokenAccess | null {
    const header = ctx.req.headers.authorization;
    if (typeof header !== 'string' || header.trim() === '') {
      unauthorized(ctx, 'Expected authorization header but none given');
      return null;
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) {
      unauthorized(ctx, 'The authentication scheme in the `Authorization` HTTP header is not supported');
      return null;
    }
    const checked = tokens.check(m[1]!);
    if (!checked.ok) {
      unauthorized(ctx, checked.reason === 'expired' ? 'The JWT has expired' : 'The JWT is invalid');
      return null;
    }
    if (checked.claims.db !== db.def.id) {
      sendJson(ctx, 403, { error: `Authorization forbidden: Current session doesn't not have Read permission to namespace ${db.def.name}` });
      return null;
    }
    return checked.claims.access;
  }

  function protocolFailure(ctx: Ctx, error: ProtocolError): void {
    if (error.json) sendJson(ctx, 400, { message: error.message, code: error.code });
    else sendPlain(ctx, 400, error.message);
  }

  /** Auth, body and the baton's stream (opened when there is none); answers and returns null when refused. */
  async function requestStream<T extends { baton: string | null }>(
    ctx: Ctx,
    db: HostedDatabase,
    parse: (text: string) => T,
  ): Promise<{ body: T; stream: Stream } | null> {
    const access = authorize(ctx, db);
    if (access === null) return null;
    let text: string;
    try {
      text = await ctx.text();
    } catch (error) {
      if (error instanceof BodyError) {
        sendPlain(ctx, error.status, error.message);
        return null;
      }
      throw error;
    }
    let body: T;
    try {
      body = parse(text);
    } catch (error) {
      if (error instanceof ProtocolError) {
        protocolFailure(ctx, error);
        return null;
      }
      throw error;
    }
    let stream: Stream;
    if (body.baton !== null) {
      const found = streams.take(body.baton, db.def.name);
      if (!found.ok) {
        if (found.reason === 'expired') sendJson(ctx, 400, { message: 'The stream has expired due to inactivity', code: 'STREAM_EXPIRED' });
        else sendPlain(ctx, 400, found.reason === 'reused' ? 'Received a baton that has already been used' : 'Received an invalid baton');
        return null;
      }
      stream = found.stream;
    } else {
      stream = streams.open(db.def.name);
    }
    streams.begin(stream);
    stream.readOnly = access === 'read-only';
    return { body, stream };
  }

  /** The stream's engine connection, taken on first use; gone when the engine restarted since. */
  function connOf(stream: Stream): number {
    if (stream.conn !== null && stream.connGeneration !== engine.generation) {
      throw new EngineFailure('the engine restarted since this stream last ran SQL, which took its connection', 'crashed');
    }
    if (stream.conn === null) {
      stream.conn = nextConn++;
      stream.connGeneration = engine.generation;
    }
    return stream.conn;
  }

  async function pipeline(ctx: Ctx, version: 2 | 3, db: HostedDatabase): Promise<void> {
    const found = await requestStream(ctx, db, parseBody);
    if (found === null) return;
    const { body, stream } = found;
    const exec: ExecContext = {
      version,
      stream,
      async engine(request) {
        const conn = connOf(stream);
        const answer = await engine.run(conn, db.ref, stream.readOnly, request);
        stream.autocommit = answer.autocommit;
        return answer.json;
      },
      close: () => streams.destroy(stream),
    };
    // a client that gives up (cancel, timeout) stops its statement instead of leaving it running
    const onClose = () => {
      if (!ctx.res.writableFinished && stream.conn !== null) engine.interrupt(stream.conn, stream.connGeneration);
    };
    ctx.res.once('close', onClose);
    const results: string[] = [];
    try {
      for (const request of body.requests) results.push(await runRequest(request, exec));
    } catch (error) {
      // a protocol error aborts the pipeline and destroys the stream (its transaction rolls back)
      streams.destroy(stream);
      if (error instanceof ProtocolError) return protocolFailure(ctx, error);
      if (error instanceof EngineFailure) return engineFailure(ctx, error, limitMs);
      throw error;
    } finally {
      ctx.res.off('close', onClose);
    }
    streams.end(stream);
    if (ctx.res.headersSent) return;
    // the results are JSON text from the engine already: put them in as they are
    const payload = `{"baton":${JSON.stringify(stream.closed ? null : streams.baton(stream))},"base_url":null,"results":[${results.join(',')}]}`;
    ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    ctx.res.end(payload);
  }

  const cursorDeps: CursorHttpDeps = {
    engine,
    streams,
    requestStream,
    connOf,
    engineFailure: (ctx, error) => engineFailure(ctx, error, limitMs),
    protocolFailure,
  };

  const router = new Router();
  const mount = (prefix: string, pick: (ctx: Ctx) => HostedDatabase | null) => {
    const withDb = (fn: (ctx: Ctx, db: HostedDatabase) => void | Promise<void>) => async (ctx: Ctx) => {
      const db = pick(ctx);
      if (db) await fn(ctx, db);
    };
    router.get(
      `${prefix}/v2`,
      withDb((ctx) => sendPlain(ctx, 200, HELLO)),
    );
    router.get(
      `${prefix}/v3`,
      withDb((ctx) => sendPlain(ctx, 200, HELLO)),
    );
    // no Protobuf here: a 2xx would make clients switch to it
    router.get(`${prefix}/v3-protobuf`, (ctx) => ctx.send(404));
    router.get(
      `${prefix}/health`,
      withDb((ctx) => ctx.send(200)),
    );
    router.get(
      `${prefix}/version`,
      withDb((ctx) => sendPlain(ctx, 200, VERSION)),
    );
    router.post(
      `${prefix}/v2/pipeline`,
      withDb((ctx, db) => pipeline(ctx, 2, db)),
    );
    router.post(
      `${prefix}/v3/pipeline`,
      withDb((ctx, db) => pipeline(ctx, 3, db)),
    );
    router.post(
      `${prefix}/v3/cursor`,
      withDb((ctx, db) => serveCursor(ctx, db, cursorDeps)),
    );
  };
  mount('', () => catalog.primary);
  mount('/db/:name', (ctx) => {
    const db = catalog.byName(ctx.params.name ?? '');
    if (!db) sendJson(ctx, 404, { error: `Namespace \`${String(ctx.params.name).slice(0, 80)}\` doesn't exist` });
    return db ?? null;
  });

  return {
    tokens,
    engine,
    streams: () => ({ open: streams.size, expired: streams.expiredCount, ws: ws.stats() }),
    initialTokens: {
      full: tokens.issue(PRIMARY_DATABASE.id, PRIMARY_DATABASE.name, 'full-access', null),
      readOnly: tokens.issue(PRIMARY_DATABASE.id, PRIMARY_DATABASE.name, 'read-only', null),
    },
    registerManagement(router: Router) {
      registerDatabaseManagement(router, catalog, tokens, urlOf, world.now);
      registerDatabaseMetrics(router, catalog, usage);
    },
    origin: {
      name: 'database',
      router,
      notFound(ctx) {
        ctx.send(404);
      },
      errorBody: () => ['text/plain', 'Internal server error'],
      rateLimitedBody: () => ['application/json', JSON.stringify({ error: 'Too many concurrent requests' })],
      start(info: { url: string }) {
        originUrl = info.url;
      },
      upgrade: ws.upgrade,
      async stop() {
        ws.closeAll();
        streams.closeAll();
        await engine.close();
        catalog.close();
      },
    },
  };
}
