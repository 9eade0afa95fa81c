import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyError, makeCtx } from './http-kit';
import { FaultInjector, type FaultCounters, type FaultSpec } from './faults';
import type { OriginSpec } from './origin';
import { createWorld, type EmulatorOptions, type World } from './world';
import { createManagementOrigin } from './management/index';
import { createLoggingOrigin } from './logging/index';
import { createDatabaseArea } from './database/index';
import type { EngineSupervisor } from './database/engine-supervisor';
import type { WsStreamStats } from './database/hrana-ws';

import type { ReadyInfo } from './ready-info';

export type { ReadyInfo } from './ready-info';

export interface RunningEmulator {
  info: ReadyInfo;
  world: World;
  faultCounters(): Record<OriginSpec['name'], FaultCounters>;
  /** Changes the injected faults of every origin at run time (tests turn a storm on and off). */
  setFaults(spec: FaultSpec): void;
  /** The database engine's process supervisor (restarts, pid). */
  databaseEngine: EngineSupervisor;
  /** The database origin's Hrana-over-HTTP streams: open now, and expired for idleness since the start (tests wait on these). */
  databaseStreams(): { open: number; expired: number; ws: WsStreamStats };
  close(): Promise<void>;
}

async function serve(origin: OriginSpec, host: string, port: number, faults: FaultInjector): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    void handle(origin, faults, req, res);
  });
  server.keepAliveTimeout = 5000;
  if (origin.upgrade) server.on('upgrade', origin.upgrade);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

async function handle(origin: OriginSpec, faults: FaultInjector, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const ctx = makeCtx(req, res);
  try {
    if (await faults.apply(req, res, { error: origin.errorBody, rateLimited: origin.rateLimitedBody })) return;
    const found = origin.router.match(ctx.method, ctx.path);
    if (found === null) return origin.notFound(ctx);
    // the key is checked before the method, as the real API does: without a key, 401 and nothing else
    if (origin.authenticate && !origin.authenticate(ctx)) return;
    if (found === 'method-mismatch') return ctx.send(405, undefined, { allow: 'GET, POST, PUT, PATCH, DELETE' });
    ctx.params = found.params;
    await found.handler(ctx);
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof BodyError) {
      ctx.send(error.status, { title: 'Bad Request', status: error.status, detail: error.message });
      return;
    }
    const [type, body] = origin.errorBody();
    res.writeHead(500, { 'content-type': type });
    res.end(body);
    if (process.env.BURROW_EMULATOR_DEBUG) process.stderr.write(`emulator ${origin.name}: ${(error as Error).stack}\n`);
  }
}

/** Starts the three origins on loopback. Every test starts its own on port 0 and closes it. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const world = createWorld(options);
  const db = createDatabaseArea(world);
  const origins: OriginSpec[] = [createManagementOrigin(world, [(router) => db.registerManagement(router)]), createLoggingOrigin(world), db.origin];
  const host = world.options.host;
  const base = world.options.port;
  const injectors = origins.map(
    (o) => new FaultInjector(world.options.faults ?? { latencyMs: 0, error: 0, reset: 0, malformed: 0, ratelimit: 0 }, world.random.fork(`faults-${o.name}`)),
  );
  const servers: http.Server[] = [];
  try {
    for (let i = 0; i < origins.length; i++) servers.push(await serve(origins[i]!, host, base === 0 ? 0 : base + i, injectors[i]!));
  } catch (error) {
    for (const s of servers) s.close();
    throw error;
  }
  const url = (s: http.Server) => `http://${host}:${(s.address() as AddressInfo).port}`;
  origins.forEach((o, i) => o.start?.({ url: url(servers[i]!) }));
  const info: ReadyInfo = {
    baseUrl: url(servers[0]!),
    loggingUrl: url(servers[1]!),
    databaseUrl: url(servers[2]!),
    accessKey: world.accessKey,
    databaseToken: db.initialTokens.full,
    readOnlyDatabaseToken: db.initialTokens.readOnly,
    pullZoneIds: world.pullZones.filter((z) => z.EnableLogging).map((z) => z.Id),
  };
  let closed = false;
  return {
    info,
    world,
    faultCounters: () => Object.fromEntries(origins.map((o, i) => [o.name, { ...injectors[i]!.counters }])) as Record<OriginSpec['name'], FaultCounters>,
    setFaults: (spec) => injectors.forEach((f) => f.setSpec(spec)),
    databaseEngine: db.engine,
    databaseStreams: () => db.streams(),
    async close() {
      if (closed) return;
      closed = true;
      // the servers close (idle and keep-alive connections too) whether or not an origin stops cleanly
      const stopping = Promise.allSettled(origins.map(async (o) => o.stop?.()));
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
      const failed = (await stopping).find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
